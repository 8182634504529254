import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What the request guards need to know about one operation of the contract. */
export interface ContractOperation {
  operationId: string;
  /** Upper case, as in `req.method`. */
  method: string;
  /** As written in the contract: `/qrcodes/{id}`. */
  template: string;
  /** Query parameters whose schema is `type: integer`. */
  integerQuery: string[];
  hasRequestBody: boolean;
}

export interface ContractIndex {
  /** The operation for a method and a raw (still percent-encoded) path under the API's base path. */
  find(method: string, rawPath: string): ContractOperation | undefined;
  /** The methods the contract declares for a path (plus HEAD where it has GET), or undefined if none matches. */
  allowedMethods(rawPath: string): string[] | undefined;
  /** The path's template parameters, still percent-encoded (`{ id: 'qr_…' }`). */
  pathParams(rawPath: string): Record<string, string> | undefined;
}

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  operations: ContractOperation[];
}

type Node = Record<string, unknown>;

/**
 * Reads the contract once (at app build) into the few facts checked before express-openapi-validator runs:
 * the validator cannot be told to refuse `limit=Infinity` or a malformed id, so those guards read the same file
 * instead of restating it, and a parameter added to the contract is guarded without touching them.
 */
export function loadContractIndex(contractPath: string): ContractIndex {
  const contract = yaml.load(readFileSync(contractPath, 'utf8')) as Node;
  const resolve = (node: unknown): Node => {
    let current = node as Node;
    // Local refs only (`#/components/...`): the contract is one file.
    while (typeof current?.$ref === 'string') {
      current = (current.$ref as string).slice(2).split('/').reduce<any>((at, key) => at?.[key], contract) as Node;
    }
    return current;
  };

  const routes: Route[] = Object.entries((contract.paths ?? {}) as Record<string, Node>).map(([template, item]) => {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const shared = ((item.parameters ?? []) as unknown[]).map(resolve);
    const operations = METHODS.filter((method) => item[method] !== undefined).map((method): ContractOperation => {
      const operation = item[method] as Node;
      const parameters = [...shared, ...((operation.parameters ?? []) as unknown[]).map(resolve)];
      return {
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        template,
        integerQuery: parameters.filter((p) => p.in === 'query' && resolve(p.schema).type === 'integer').map((p) => String(p.name)),
        hasRequestBody: operation.requestBody !== undefined,
      };
    });
    // Matched as Express and the validator match routes (case-insensitive, optional trailing slash), so no spelling
    // of a path reaches an operation without these guards.
    return { template, pattern: new RegExp(`^${source}/?$`, 'i'), names, operations };
  });

  const routeFor = (rawPath: string) => {
    for (const route of routes) {
      const match = route.pattern.exec(rawPath);
      if (match) return { route, values: match.slice(1) };
    }
    return undefined;
  };

  return {
    find: (method, rawPath) => {
      const wanted = method === 'HEAD' ? 'GET' : method;
      return routeFor(rawPath)?.route.operations.find((operation) => operation.method === wanted);
    },
    allowedMethods: (rawPath) => {
      const methods = routeFor(rawPath)?.route.operations.map((operation) => operation.method);
      if (!methods) return undefined;
      return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    },
    pathParams: (rawPath) => {
      const found = routeFor(rawPath);
      return found && Object.fromEntries(found.route.names.map((name, i) => [name, found.values[i]!]));
    },
  };
}
