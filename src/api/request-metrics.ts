import type { RequestHandler } from 'express';
import type { ApiMetrics } from '../metrics/api-metrics.js';
import type { ContractIndex } from './contract-index.js';

/**
 * Counts every API request by the contract's operationId and its status, first in the chain so refusals (401,
 * 403, 429, 400) count too. The operation comes from the contract, not the path: ids in paths would make a
 * label value per code. Requests that match no operation count as `unknown`.
 */
export function countRequests(contract: ContractIndex, metrics: ApiMetrics): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    const operation = contract.find(req.method, req.path)?.operationId ?? 'unknown';
    res.once('finish', () => metrics.answered(operation, res.statusCode, (performance.now() - startedAt) / 1000));
    next();
  };
}
