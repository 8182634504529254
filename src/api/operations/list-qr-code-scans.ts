import type { RequestHandler } from 'express';
import { listRecentScans } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentScan } from '../presenters.js';
import { ApiError } from '../../errors.js';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * From a read replica when there is one (scans may be a moment behind): a code the replica does not know yet (made
 * a moment ago) is looked up again on the primary before the answer is 404.
 */
export function listQrCodeScans({ reads }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const input = { accountId: callerOf(res).accountId, id: req.params.id };
    const { total, scans } = await reads.read((db) => listRecentScans(db, input), { retryOnPrimary: isNotFound });
    const body: ResponseBody<'listQrCodeScans', 200> = { total, data: scans.map(presentScan) };
    res.status(200).json(body);
  };
}
