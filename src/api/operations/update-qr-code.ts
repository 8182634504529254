import type { RequestHandler } from 'express';
import { updateQrCode as updateCode } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { RequestBody, ResponseBody } from '../contract.js';
import { presentQrCode } from '../presenters.js';
import { parseCodeInput, parseRoutingInput } from './input.js';

export function updateQrCode({ db, config }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const input = req.body as RequestBody<'updateQrCode'>;
    const { name, destinationUrl } = parseCodeInput(input);
    const caller = callerOf(res);
    const code = await updateCode(db, {
      accountId: caller.accountId,
      id: req.params.id,
      changes: { name, destinationUrl, active: input.active, ...parseRoutingInput(input) },
      actor: { kind: 'api_key', apiKeyId: caller.keyId },
    });
    const body: ResponseBody<'updateQrCode', 200> = { data: presentQrCode(code, config.siteUrl) };
    res.status(200).json(body);
  };
}
