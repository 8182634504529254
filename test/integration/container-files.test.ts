import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import yaml from 'js-yaml';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/net.js';
import type { TestDatabase } from '../support/database.js';
import { type TestApp, useTestApp } from '../support/test-app.js';

const execFile = promisify(execFileCallback);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Dockerfile instructions, continuation lines joined, comments dropped, split into stages at each FROM. */
function dockerfileStages(text: string): { from: string; instructions: { op: string; args: string }[] }[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages: { from: string; instructions: { op: string; args: string }[] }[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') stages.push({ from: args!, instructions: [] });
    else stages.at(-1)!.instructions.push({ op: op!.toUpperCase(), args: args! });
  }
  return stages;
}

/** Where `npm run build` (tsconfig.build.json: outDir and rootDir of tsconfig.json) writes the code of `source`. */
function builtPath(source: string): string {
  // Read as tsc reads them: tsconfig files may hold comments.
  const config = (file: string) => ts.readConfigFile(path.join(ROOT, file), ts.sys.readFile).config as unknown;
  const build = config('tsconfig.build.json') as { extends: string; include: string[] };
  const base = config(build.extends) as { compilerOptions: { outDir: string; rootDir: string } };
  expect(build.include.some((dir) => source.startsWith(`${dir}/`)), `${source} is compiled by npm run build`).toBe(true);
  return path.posix.join(base.compilerOptions.outDir, path.posix.relative(base.compilerOptions.rootDir, source)).replace(/\.tsx?$/, '.js');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/**
 * Packages a source file loads at run time, read from what `npm run build` made of it (the global setup builds
 * dist/ when stale), so `import type` is gone and `import { type X }` is not. Static imports, re-exports, import()
 * and require(), read by TypeScript's own scanner.
 */
function runtimePackages(source: string): string[] {
  const specifiers = ts.preProcessFile(read(builtPath(source)), true, true).importedFiles.map((file) => file.fileName);
  return specifiers
    .filter((specifier) => !specifier.startsWith('.') && !isBuiltin(specifier))
    .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
}

describe('the container image and compose files', () => {
  const stages = dockerfileStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const runtimeArgs = (op: string) => runtime.instructions.filter((each) => each.op === op).map((each) => each.args);
  const compose = yaml.load(read('compose.yaml')) as {
    services: Record<
      string,
      { image?: string; build?: string; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; environment?: Record<string, string>; volumes?: string[] }
    >;
  };

  it('builds in one stage and runs from a slim Node 20 image in another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime.from).toMatch(/^node:20[\w.-]*-slim$/);
    const build = stages[0]!.instructions.filter((each) => each.op === 'RUN').map((each) => each.args).join('\n');
    expect(build).toMatch(/npm ci\b/);
    expect(build).toMatch(/npm run build\b/);
    expect(build).toMatch(/npm run docs\b/);
  });

  it('copies only files that exist in the project and that .dockerignore lets through', () => {
    const ignored = read('.dockerignore').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    for (const stage of stages) {
      for (const { op, args } of stage.instructions) {
        if (op !== 'COPY' || args.startsWith('--from')) continue;
        const sources = args.split(/\s+/).slice(0, -1);
        for (const source of sources) {
          expect(existsSync(path.join(ROOT, source)), `COPY ${source}`).toBe(true);
          for (const pattern of ignored) expect(source === pattern || source.startsWith(`${pattern}/`), `COPY ${source} is ignored by ${pattern}`).toBe(false);
        }
      }
    }
  });

  it('runs what npm run build produces from src/main.ts, with node itself as the command', () => {
    expect(runtimeArgs('CMD')).toEqual([JSON.stringify(['node', builtPath('src/main.ts')]).replaceAll(',', ', ')]);
    expect(runtimeArgs('COPY')).toEqual(expect.arrayContaining(['--from=build /app/dist dist', '--from=build /app/docs-dist docs-dist', 'openapi/v1.yaml openapi/v1.yaml']));
    // The admin CLI named in compose.yaml's comment is built there too.
    expect(read('compose.yaml')).toContain(`node ${builtPath('src/cli/main.ts')} `);
  });

  it('installs runtime dependencies only, copies no node_modules from the build stage, and does not run as root', () => {
    const installs = runtimeArgs('RUN').filter((args) => /npm (ci|install)\b/.test(args));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/npm ci --omit=dev\b/);
    expect(runtimeArgs('COPY').filter((args) => args.includes('node_modules'))).toEqual([]);
    const users = runtimeArgs('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('loads no devDependency at run time: every package the compiled server, worker and CLI import is a dependency', () => {
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const failure = inject('buildFailure');
    if (failure) throw new Error(failure);
    const sources = sourceFiles('src');
    expect(sources).toContain('src/qr/render-worker.ts'); // the image render thread loads the built .js, not tsx
    expect(sources).toContain('src/dashboard/shared/render.tsx'); // the dashboard's pages are TSX
    const missing = sources.flatMap((source) => runtimePackages(source).filter((name) => !(name in dependencies)).map((name) => `${source}: ${name}`));
    expect(missing).toEqual([]);
  });

  it('gives the scan journal a folder the service user can write, on a volume that outlives the container', () => {
    // Where the service journals by default in the image (config.ts: DATA_DIR/journal, DATA_DIR ./data, WORKDIR /app).
    const workdir = runtimeArgs('WORKDIR').at(-1);
    expect(workdir).toBe('/app');
    const journal = '/app/data/journal';
    const user = runtimeArgs('USER').at(-1)!;
    const made = runtimeArgs('RUN').find((args) => args.includes(`mkdir -p ${journal}`));
    expect(made, 'the runtime stage makes the journal folder').toBeDefined();
    expect(made).toMatch(new RegExp(`chown -R ${user}(:${user})? /app/data\\b`));
    expect(compose.services.qroute?.volumes ?? []).toContainEqual(expect.stringMatching(new RegExp(`^[\\w-]+:${journal}$`)));
  });

  it('runs PostgreSQL 17 with a healthcheck, and qroute once it is healthy, with DATABASE_URL and WEBHOOK_SECRET_KEY', () => {
    const { postgres, qroute } = compose.services;
    expect(postgres?.image).toBe('postgres:17');
    expect(postgres?.healthcheck).toBeDefined();
    expect(qroute?.build).toBe('.');
    expect(qroute?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(qroute?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/qroute:\$\{POSTGRES_PASSWORD\}@postgres:5432\/qroute$/);
    expect(qroute?.environment?.WEBHOOK_SECRET_KEY).toMatch(/^\$\{WEBHOOK_SECRET_KEY:\?/);
  });

  describe('HEALTHCHECK, run as Docker runs it', () => {
    let database: TestDatabase;
    let app: TestApp;
    useTestApp((started) => ({ database, app } = started));

    function healthcheck(port: string): Promise<number> {
      const [instruction] = runtimeArgs('HEALTHCHECK');
      const command = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(instruction!)![1]!) as string[];
      expect(command[0]).toBe('node'); // no curl in slim images
      return execFile(process.execPath, command.slice(1), { env: { ...process.env, PORT: port }, timeout: 20_000 }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
    }

    it('passes against a running server and fails when nothing answers', async () => {
      expect(await healthcheck(new URL(app.origin).port)).toBe(0);
      expect(await healthcheck(String(await freePort()))).toBe(1);
    });
  });
});
