import express, { type Request, type RequestHandler } from 'express';
import { errors, type FieldError } from '../errors.js';
import type { ContractIndex } from './contract-index.js';

/**
 * Checks that run before express-openapi-validator, for what it gets wrong or cannot express. Each reads the
 * contract through `ContractIndex`, so it covers every operation, including ones added later.
 */

/** A query integer is plain ASCII decimal digits: no sign, exponent, hex, fraction, spaces or other scripts. */
const DECIMAL_DIGITS = /^[0-9]+$/;

/**
 * 405 with `Allow` (from the contract) for a method the path does not have, before the write limit counts it;
 * HEAD on a GET operation runs as GET. Node's response already knows the request was HEAD and sends no body, so
 * status and headers are those of GET.
 */
export function checkMethod(index: ContractIndex): RequestHandler {
  return (req, _res, next) => {
    const allowed = index.allowedMethods(req.path);
    if (allowed && !allowed.includes(req.method)) throw errors.methodNotAllowed(allowed);
    if (req.method === 'HEAD' && allowed) req.method = 'GET';
    next();
  };
}

/**
 * An id in the path that is not valid percent-encoding (`%`, `%E0%A4%A`) names no code: 404 like any other
 * unknown id, not the validator's and router's 400 "malformed URI", which no operation declares.
 */
export function checkPathParams(index: ContractIndex): RequestHandler {
  return (req, _res, next) => {
    for (const [name, raw] of Object.entries(index.pathParams(req.path) ?? {})) {
      try {
        decodeURIComponent(raw);
      } catch {
        throw name === 'deliveryId' ? errors.deliveryNotFound() : errors.notFound();
      }
    }
    next();
  };
}

/**
 * Every query parameter at most once, and every integer one (by the contract's schema) as decimal digits within
 * the safe range. The validator coerces with `Number()`, so `Infinity`, `0x10`, `1e1` and ` 5` became numbers,
 * and Infinity passed `maximum`.
 */
export function checkQuery(index: ContractIndex): RequestHandler {
  return (req, _res, next) => {
    const problems: FieldError[] = [];
    const query = req.query as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) problems.push({ path: `/query/${name}`, message: 'must be given at most once' });
    }
    for (const name of index.find(req.method, req.path)?.integerQuery ?? []) {
      const value = query[name];
      if (typeof value !== 'string') continue;
      if (!DECIMAL_DIGITS.test(value)) {
        problems.push({ path: `/query/${name}`, message: 'must be an integer written in decimal digits 0-9 only' });
      } else if (!Number.isSafeInteger(Number(value))) {
        problems.push({ path: `/query/${name}`, message: 'is too large' });
      }
    }
    if (problems.length > 0) throw errors.invalidQuery(problems);
    next();
  };
}

/** The one message for a body that is not UTF-8, whether declared (charset) or found (bytes). */
export const NOT_UTF8: FieldError = { path: '/body', message: 'must be UTF-8 (send no charset, or charset=utf-8)' };

/**
 * JSON bodies, read only for operations that take one (a body on GET or DELETE is ignored, as HTTP allows),
 * strictly UTF-8: body-parser would decode a declared UTF-16 and replace invalid bytes with U+FFFD, storing
 * something the client never sent.
 */
export function parseJsonBodies(index: ContractIndex, limitBytes: number): RequestHandler {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const parse = express.json({
    limit: limitBytes,
    // A JSON body must be an object or array; `"text"` or `42` is invalid_body.
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: (_req, _res, bytes, charset) => {
      if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
        throw errors.invalidBody([NOT_UTF8], 'The request body is not UTF-8.');
      }
      try {
        strict.decode(bytes);
      } catch {
        throw errors.invalidBody([NOT_UTF8], 'The request body is not UTF-8.');
      }
    },
  });
  return (req: Request, res, next) => {
    if (!index.find(req.method, req.path)?.hasRequestBody) return next();
    return parse(req, res, next);
  };
}
