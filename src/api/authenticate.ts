import type { RequestHandler } from 'express';
import { authenticateApiKey } from '../accounts/api-keys.js';
import { errors } from '../errors.js';
import type { ApiDependencies } from './context.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** 401 for a missing, malformed, unknown or revoked key; 403 when the account's plan has no API. */
export function authenticate({ db }: ApiDependencies): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) throw errors.invalidApiKey();
    const result = await authenticateApiKey(db, match[1]!);
    if (result.outcome === 'invalid_key') throw errors.invalidApiKey();
    if (result.outcome === 'plan_without_api') throw errors.apiNotAvailableOnPlan();
    res.locals.caller = { accountId: result.accountId, keyId: result.keyId };
    next();
  };
}
