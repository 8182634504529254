import type { RequestHandler } from 'express';
import { getQrCode as getCode } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentQrCode } from '../presenters.js';

export function getQrCode({ db, config }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const code = await getCode(db, { accountId: callerOf(res).accountId, id: req.params.id });
    const body: ResponseBody<'getQrCode', 200> = { data: presentQrCode(code, config.siteUrl) };
    res.status(200).json(body);
  };
}
