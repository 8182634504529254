import type { RequestHandler } from 'express';
import { takeWriteSlot, WRITE_LIMIT, WRITE_WINDOW_MS } from '../accounts/write-rate-limit.js';
import { errors } from '../errors.js';
import { callerOf, type ApiDependencies } from './context.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const POLICY = `"writes";q=${WRITE_LIMIT};w=${WRITE_WINDOW_MS / 1000}`;

/**
 * The write limit, after authentication and before validation (the contract's order: 401, 403, 429, then
 * 400/404/402). Headers follow draft-ietf-httpapi-ratelimit-headers; a refused write is not counted.
 */
export function limitWrites({ db }: ApiDependencies): RequestHandler {
  return async (req, res, next) => {
    if (!WRITE_METHODS.has(req.method)) return next();
    const slot = await takeWriteSlot(db, callerOf(res).accountId);
    const resetSeconds = Math.max(1, Math.ceil(slot.resetMs / 1000));
    res.setHeader('RateLimit-Policy', POLICY);
    res.setHeader('RateLimit', `"writes";r=${slot.remaining};t=${resetSeconds}`);
    if (!slot.allowed) throw errors.rateLimited(resetSeconds);
    next();
  };
}
