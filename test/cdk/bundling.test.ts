/**
 * Real bundling (local esbuild, never Docker) of one stage: each bundle is the CommonJS module
 * Lambda's runtime require()s, and infra/cdk/bundling.ts handed straight to esbuild reproduces it
 * byte for byte, so the benchmark measures exactly what is deployed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { BUNDLED_ASSETS_DIR, REFERENCE_ASSETS } from '#lib/openapi/reference-page.ts';
import { type FunctionId, functionIds } from '#lib/operations.ts';
import { BUNDLE_FILE, BUNDLE_PACKAGE_JSON, esbuildBuildOptions, esbuildOptions } from '../../infra/cdk/bundling.ts';
import { PROJECT_ROOT } from '../../infra/cdk/constructs/api-function.ts';
import { isOwnSource } from '../../infra/cdk/source-maps.ts';
import { type Synthesised, synth, logicalId } from './synth.ts';

/**
 * The SDK's uses of a defined-away name left in the bundles, each dead on Node.js:
 * - `@smithy/core`'s event streams, `iterableToReadableStream`: called only by the browser
 *   EventStreamMarshaller, after its own `typeof ReadableStream` test; no DynamoDB operation streams.
 */
const DEFINED_AWAY_SITES = ['new(void 0)({async pull('];

let app: Synthesised;
const scratch = mkdtempSync(join(tmpdir(), 'petstore-bundle-'));

beforeAll(() => {
  app = synth({ bundlingStacks: ['PetStore-staging'] });
});
afterAll(() => {
  app?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Directory of the bundled asset of a function in the cloud assembly. */
function assetDir(name: FunctionId): string {
  const stack = app.stacks.staging;
  const fnId = logicalId(stack.functions[name]);
  const key = app.templates.staging.toJSON().Resources[fnId].Properties.Code.S3Key as string;
  return join(app.outdir, `asset.${key.replace(/\.zip$/, '')}`);
}

describe.each(functionIds)('bundle of %s', (name) => {
  it('is a minified CommonJS module with its source map, marked CommonJS by a package.json beside it', () => {
    const dir = assetDir(name);
    const code = readFileSync(join(dir, BUNDLE_FILE), 'utf8');
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    expect(existsSync(join(dir, `${BUNDLE_FILE}.map`))).toBe(true);
    expect(readFileSync(join(dir, 'package.json'), 'utf8').trim()).toBe(BUNDLE_PACKAGE_JSON);
    // The SDK is inside the bundle, not taken from the runtime; of its credential providers only
    // the environment's (infra/cdk/lambda-credentials.ts).
    expect(code).toContain('DynamoDB');
    expect(code).not.toMatch(/defaultProvider::|fromSSO|fromInstanceMetadata/);
    // Minified: a few very long lines (template literals keep their own newlines).
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
  });

  it("never reaches Node's ESM loader: no ES module syntax, no import(), no import.meta; built-ins come through require()", () => {
    const code = readFileSync(join(assetDir(name), BUNDLE_FILE), 'utf8');
    expect(code).not.toMatch(/\bimport\.meta\b/);
    // The SDK's lazy import('node:http') included (infra/cdk/bundling.ts `supported`).
    expect(code).not.toMatch(/\bimport\s*\(/);
    expect(code).not.toMatch(/(?:^|[;}])\s*(?:import\s*[{*\w]|export\s*[{*\w])/m);
    expect(code).not.toMatch(/\bfrom\s*["'](?:node:)?[a-z_/0-9]+["']/);
    expect(code).toMatch(/require\("(?:node:)?http"\)/);
  });

  it('uses a name the bundling defines away only where the SDK never reaches it on Node.js', () => {
    // esbuild folds `typeof ReadableStream` tests away; a use no such test guards becomes `void 0`,
    // which throws only when reached: on Lambda, not in a suite that never takes that SDK path.
    const code = readFileSync(join(assetDir(name), BUNDLE_FILE), 'utf8');
    const sites = [...code.matchAll(/\bnew ?\(void 0\)|\binstanceof void 0\b|\(void 0\)[.(]/g)].map((m) =>
      code.slice(m.index, m.index + 30),
    );
    expect(Object.keys(esbuildOptions.define)).toEqual(['ReadableStream']);
    expect(sites.filter((site) => !DEFINED_AWAY_SITES.some((known) => site.startsWith(known)))).toEqual([]);
  });

  it("calls the SDK logger's `info` only as `info?.(`, which the store's `info`-less logger skips", () => {
    // lib/store/dynamodb-client.ts hands the SDK a logger without `info` (docs/performance.md,
    // "Warm invocations"): an SDK that called it unguarded would fail every store call.
    const code = readFileSync(join(assetDir(name), BUNDLE_FILE), 'utf8');
    const calls = [...code.matchAll(/\??\.info(?:\?\.)?\(/g)].map((m) => m[0]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((call) => !call.endsWith('info?.('))).toEqual([]);
  });

  it("is loaded by require(), as Lambda's Node.js 24 runtime loads index.js, and exports the handler", () => {
    const file = join(assetDir(name), BUNDLE_FILE);
    const out = execFileSync(process.execPath, ['-e', `console.log(typeof require(${JSON.stringify(file)}).handler);`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(out.trim()).toBe('function');
  });

  it('carries a source map of our code only, without copies of the sources, whose stack traces name our .ts lines', () => {
    const dir = assetDir(name);
    const mapFile = join(dir, `${BUNDLE_FILE}.map`);
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sourcesContent).toBeUndefined();
    expect(map.sources.some((source) => source.endsWith(`functions/${name}.ts`))).toBe(true);
    // infra/cdk/source-maps.ts, run by the afterBundling hook: lib/ and functions/ only, a few dozen KB.
    expect(map.sources.every(isOwnSource)).toBe(true);
    // No function ships the official client (lib/client/), nor openapi-fetch with it.
    expect(map.sources.filter((source) => source.includes('lib/client/'))).toEqual([]);
    expect(statSync(mapFile).size).toBeLessThan(100_000);
    // A position in the AWS SDK maps to nothing, not to the nearest line of ours.
    const code = readFileSync(join(dir, BUNDLE_FILE), 'utf8');
    const sdkAt = code.indexOf('DynamoDBDocumentClient');
    expect(sdkAt).toBeGreaterThan(0);
    const line = code.slice(0, sdkAt).split('\n').length - 1;
    const column = sdkAt - (code.lastIndexOf('\n', sdkAt) + 1);
    const entry = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))).findEntry(line, column);
    expect(entry).not.toHaveProperty('originalSource', expect.stringMatching(/lib\/|functions\//));
    // A bug as a deployed function meets it (its table names missing): the 500's log line carries
    // the stack, mapped through index.js.map when logged (no --enable-source-maps) to lib/config.ts.
    const script = `
      const { handler } = require(${JSON.stringify(join(dir, BUNDLE_FILE))});
      handler(
        { httpMethod: 'GET', path: '/v1/pets', resource: '/v1/pets', headers: { Authorization: 'Bearer psk_${'A'.repeat(32)}' }, body: null,
          requestContext: { requestId: 'r-1', path: '/v1/pets', domainName: 'example.com' } },
        { functionName: 'f', awsRequestId: 'r-1', getRemainingTimeInMillis: () => 10000 });`;
    const out = execFileSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' },
    });
    const stack = out
      .split('\n')
      .filter((line) => line.includes('"stack"'))
      .map((line) => (JSON.parse(line) as { stack: string }).stack)
      .join('\n');
    expect(stack).toMatch(/lib\/config\.ts:\d+:\d+/);
  });

  it('is reproduced byte for byte by esbuild with infra/cdk/bundling.ts', async () => {
    const outfile = join(scratch, name, BUNDLE_FILE);
    await build({ ...esbuildBuildOptions(join(PROJECT_ROOT, 'functions', `${name}.ts`), outfile), logLevel: 'silent' });
    expect(readFileSync(outfile, 'utf8')).toBe(readFileSync(join(assetDir(name), BUNDLE_FILE), 'utf8'));
  });
});

describe('bundle of the reference page', () => {
  it("carries Swagger UI's files beside index.js, where the page's function reads them", () => {
    const stack = app.stacks.staging;
    const key = app.templates.staging.toJSON().Resources[logicalId(stack.referenceFunction)].Properties.Code.S3Key as string;
    const dir = join(app.outdir, `asset.${key.replace(/\.zip$/, '')}`);
    expect(existsSync(join(dir, BUNDLE_FILE))).toBe(true);
    for (const name of Object.keys(REFERENCE_ASSETS)) {
      expect(readFileSync(join(dir, BUNDLED_ASSETS_DIR, name), 'utf8')).toBe(
        readFileSync(join(PROJECT_ROOT, 'node_modules/swagger-ui-dist', name), 'utf8'),
      );
    }
  });
});
