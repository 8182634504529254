import type { components, operations } from '../../generated/v1.js';

/** Types of the v1 contract, from `generated/` (made from openapi/v1.yaml), so handlers cannot drift from it. */
export type OperationId = keyof operations;

export type RequestBody<Op extends OperationId> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type QueryParams<Op extends OperationId> = operations[Op] extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

export type ResponseBody<Op extends OperationId, Status extends number> = operations[Op] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

export type ApiQrCode = components['schemas']['QrCode'];
export type ApiScan = components['schemas']['Scan'];
export type ApiWebhook = components['schemas']['Webhook'];
export type ApiWebhookDelivery = components['schemas']['WebhookDelivery'];
export type ApiWebhookAttempt = components['schemas']['WebhookAttempt'];
