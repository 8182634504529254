import type { RequestHandler } from 'express';
import { listRecentScans } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { ResponseBody } from '../contract.js';
import { presentScan } from '../presenters.js';

export function listQrCodeScans({ db }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { total, scans } = await listRecentScans(db, { accountId: callerOf(res).accountId, id: req.params.id });
    const body: ResponseBody<'listQrCodeScans', 200> = { total, data: scans.map(presentScan) };
    res.status(200).json(body);
  };
}
