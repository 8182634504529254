import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import yaml from 'js-yaml';
import { CONTRACT_PATH } from '../../src/paths.js';

/**
 * The contract as tests read it, on their own (not through src/api/contract-index.ts), so a test that walks
 * "every operation" cannot share a blind spot with the code it checks.
 */
export interface Operation {
  operationId: string;
  method: string;
  template: string;
  /** Statuses the contract declares for this operation. */
  statuses: Set<number>;
  /** Query parameters and their schema types. */
  query: Array<{ name: string; type: string; minimum?: number }>;
  pathParams: string[];
  hasRequestBody: boolean;
  /** A valid JSON body from the contract's own examples, for operations that take one. */
  exampleBody: string | undefined;
}

type Node = Record<string, any>;

export const contract = yaml.load(readFileSync(CONTRACT_PATH, 'utf8')) as Node;

function resolve(node: Node): Node {
  let current = node;
  while (typeof current?.$ref === 'string') {
    current = (current.$ref as string).slice(2).split('/').reduce<any>((at, key) => at?.[key], contract);
  }
  return current;
}

export const operations: Operation[] = Object.entries(contract.paths as Record<string, Node>).flatMap(([template, item]) =>
  ['get', 'put', 'post', 'delete', 'patch']
    .filter((method) => item[method])
    .map((method) => {
      const operation = item[method] as Node;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
      return {
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        template,
        statuses: new Set(Object.keys(operation.responses).map(Number)),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name as string, type: resolve(p.schema).type as string, minimum: resolve(p.schema).minimum as number | undefined })),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name as string),
        hasRequestBody: operation.requestBody !== undefined,
        exampleBody: exampleOf(operation.requestBody?.content?.['application/json']),
      };
    }),
);

function exampleOf(media: Node | undefined): string | undefined {
  if (!media) return undefined;
  const example = media.example ?? Object.values((media.examples ?? {}) as Record<string, Node>)[0]?.value;
  return example === undefined ? undefined : JSON.stringify(example);
}

/** Methods the contract declares for a path template. */
export function methodsOf(template: string): string[] {
  return operations.filter((op) => op.template === template).map((op) => op.method);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...contract, $id: 'contract' });
const validateErrorBody = ajv.compile({ $ref: 'contract#/components/schemas/Error' });

/** Problems of an error body against the contract's Error schema (its code from the contract's list), or []. */
export function errorBodyProblems(body: unknown): string[] {
  if (validateErrorBody(body)) return [];
  return (validateErrorBody.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message}`);
}
