import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { type ApiError, errors } from '../../src/errors.js';
import { CONTRACT_PATH } from '../../src/paths.js';

interface Contract {
  info: { description: string };
  components: { schemas: { ErrorCode: { anyOf: { enum: string[] }[] } } };
}
const contract = yaml.load(readFileSync(CONTRACT_PATH, 'utf8')) as Contract;

/** The rows `| \`code\` | status | meaning |` of the introduction's "## Errors" section. */
function errorTable(): { code: string; status: number }[] {
  const section = contract.info.description.split(/^## Errors$/m)[1]!.split(/^## /m)[0]!;
  return [...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| .+ \|$/gm)].map(([, code, status]) => ({ code: code!, status: Number(status) }));
}

describe("the docs portal's table of error codes", () => {
  it("lists every code of the contract's ErrorCode, each once", () => {
    const contractCodes = contract.components.schemas.ErrorCode.anyOf.flatMap((codes) => codes.enum);
    expect(contractCodes.length).toBeGreaterThanOrEqual(14);
    const listed = errorTable().map((row) => row.code);
    expect([...listed].sort()).toEqual([...new Set(contractCodes)].sort());
  });

  it('gives each code the HTTP status the service answers it with', () => {
    // Every factory of the catalogue, called with throwaway arguments: only the status and the code matter here.
    const thrown = Object.values(errors).map((make) => (make as (...args: unknown[]) => ApiError)([], 1));
    const statusOf = (code: string) => [...new Set(thrown.filter((error) => error.code === code).map((error) => error.status))];
    for (const row of errorTable()) expect({ code: row.code, statuses: statusOf(row.code) }).toEqual({ code: row.code, statuses: [row.status] });
  });
});
