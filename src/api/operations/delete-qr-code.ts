import type { RequestHandler } from 'express';
import { deleteCodeAndFiles } from '../../codes/delete-code-and-files.js';
import { callerOf, type ApiDependencies } from '../context.js';

export function deleteQrCode({ db }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    await deleteCodeAndFiles(db, { accountId: callerOf(res).accountId, id: req.params.id });
    res.status(204).end();
  };
}
