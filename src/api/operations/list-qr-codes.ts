import type { RequestHandler } from 'express';
import { listQrCodes as listCodes } from '../../codes/qr-code-service.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { QueryParams, ResponseBody } from '../contract.js';
import { presentQrCode } from '../presenters.js';

/** Mirrors the contract's default for `limit`, for the rare request that reaches here without it applied. */
const DEFAULT_LIMIT = 20;

export function listQrCodes({ db, config }: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const query = req.query as QueryParams<'listQrCodes'>;
    const page = await listCodes(db, {
      accountId: callerOf(res).accountId,
      limit: Number(query.limit ?? DEFAULT_LIMIT),
      cursor: query.cursor,
    });
    const body: ResponseBody<'listQrCodes', 200> = {
      data: page.codes.map((code) => presentQrCode(code, config.siteUrl)),
      nextCursor: page.nextCursor,
    };
    res.status(200).json(body);
  };
}
