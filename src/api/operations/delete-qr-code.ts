import type { RequestHandler } from 'express';
import { deleteQrCode as deleteCode } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';

export function deleteQrCode({ db }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    await deleteCode(db, { accountId: callerOf(res).accountId, id: req.params.id });
    res.status(204).end();
  };
}
