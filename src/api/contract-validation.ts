import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { CONTRACT_PATH } from '../paths.js';

/** express-openapi-validator's middleware for openapi/v1.yaml, and whether it also checks responses. */
export interface ContractValidation {
  validatesResponses: boolean;
  middleware: RequestHandler[];
}

/**
 * Builds the API's request (and, with `validateResponses`, response) validation from the contract. It is costly:
 * the library bundles and preprocesses the whole contract and compiles OpenAPI's meta-schema (even though the
 * contract is not checked against it here), about 0.15 s of CPU, then compiles each operation's validators on the
 * operation's first request. A process builds one for its app; a process that builds many apps (a test worker runs
 * hundreds) may build one per setting and give it to each (ServiceOptions.contractValidation). Sharing is sound:
 * the contract is a file that does not change while the process runs, and the middleware keeps nothing per app but
 * `app.param` callbacks for the contract's path parameters, which act only on `req.openapi`, set for API requests.
 */
export function createContractValidation(options: { validateResponses: boolean }): ContractValidation {
  return {
    validatesResponses: options.validateResponses,
    middleware: OpenApiValidator.middleware({
      apiSpec: CONTRACT_PATH,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
      validateResponses: options.validateResponses ? { allErrors: true } : false,
      validateSecurity: false, // done by `authenticate`, which also checks plans and revocation
      validateApiSpec: false, // the contract is linted in CI; skip re-validating it at every start
      ignoreUndocumented: false,
    }),
  };
}
