import type { RequestHandler } from 'express';
import { createQrCode as createCode } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { RequestBody, ResponseBody } from '../contract.js';
import { presentQrCode } from '../presenters.js';
import { parseCodeInput, parseRoutingInput } from './input.js';

export function createQrCode({ db, config }: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const input = req.body as RequestBody<'createQrCode'>;
    const { name, destinationUrl } = parseCodeInput(input);
    const caller = callerOf(res);
    const { code, replayed } = await createCode(db, {
      accountId: caller.accountId,
      name,
      destinationUrl,
      routing: parseRoutingInput(input),
      actor: { kind: 'api_key', apiKeyId: caller.keyId },
      idempotencyKey: req.header('Idempotency-Key'),
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    const body: ResponseBody<'createQrCode', 201> = { data: presentQrCode(code, config.siteUrl) };
    res.status(201).json(body);
  };
}
