import { Router } from 'express';
import { CONTRACT_PATH } from '../paths.js';
import { authenticate } from './authenticate.js';
import { loadContractIndex } from './contract-index.js';
import { createContractValidation } from './contract-validation.js';
import type { ApiDependencies } from './context.js';
import { createQrCode } from './operations/create-qr-code.js';
import { deleteQrCode } from './operations/delete-qr-code.js';
import { getQrCode } from './operations/get-qr-code.js';
import { getQrCodeImage } from './operations/get-qr-code-image.js';
import { listQrCodeScans } from './operations/list-qr-code-scans.js';
import { listQrCodes } from './operations/list-qr-codes.js';
import { getWebhook } from './operations/get-webhook.js';
import { getWebhookDelivery } from './operations/get-webhook-delivery.js';
import { listWebhookDeliveries } from './operations/list-webhook-deliveries.js';
import { redeliverWebhookDelivery } from './operations/redeliver-webhook-delivery.js';
import { updateQrCode } from './operations/update-qr-code.js';
import { limitWrites } from './rate-limit.js';
import { countRequests } from './request-metrics.js';
import { checkMethod, checkPathParams, checkQuery, parseJsonBodies } from './request-guards.js';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * `/api/v1`: authentication, then the write limit, then body parsing and contract validation, then one
 * handler per operation. The order is the contract's: 401, 403, 429, then 400/413/404/402.
 */
export function createApiRouter(deps: ApiDependencies): Router {
  const router = Router();
  const contract = loadContractIndex(CONTRACT_PATH);
  if (deps.metrics) router.use(countRequests(contract, deps.metrics));
  router.use(authenticate(deps));
  router.use(checkMethod(contract));
  router.use(limitWrites(deps));
  router.use(checkPathParams(contract));
  router.use(checkQuery(contract));
  router.use(parseJsonBodies(contract, MAX_BODY_BYTES));
  const validation = deps.contractValidation ?? createContractValidation({ validateResponses: deps.config.validateResponses });
  if (validation.validatesResponses !== deps.config.validateResponses) {
    throw new Error(`the contract validation given ${validation.validatesResponses ? 'checks' : 'skips'} responses; VALIDATE_RESPONSES says otherwise`);
  }
  router.use(validation.middleware);
  router.get('/qrcodes', listQrCodes(deps));
  router.post('/qrcodes', createQrCode(deps));
  router.get('/qrcodes/:id', getQrCode(deps));
  router.patch('/qrcodes/:id', updateQrCode(deps));
  router.delete('/qrcodes/:id', deleteQrCode(deps));
  router.get('/qrcodes/:id/scans', listQrCodeScans(deps));
  router.get('/qrcodes/:id/image', getQrCodeImage(deps));
  router.get('/webhook', getWebhook(deps));
  router.get('/webhook/deliveries', listWebhookDeliveries(deps));
  router.get('/webhook/deliveries/:deliveryId', getWebhookDelivery(deps));
  router.post('/webhook/deliveries/:deliveryId/redeliver', redeliverWebhookDelivery(deps));
  return router;
}
