/**
 * Past one machine: the load test's scenario exported as an Artillery script (`--artillery`) and run
 * by Artillery's local runner against local mode, as `run-fargate` and `run-lambda` run it on each
 * worker. Its creates are the run's pets, which the cleanup finds. Artillery is installed by this
 * suite only: `npm run test:artillery` (its own package, test/artillery/package.json).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const ARTILLERY = script('../artillery/node_modules/artillery/bin/run');
const dir = mkdtempSync(path.join(tmpdir(), 'artillery-'));

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 240_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

let stack: LocalStack;
let apiKey: string;

beforeAll(async () => {
  apiKey = generateApiKey();
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey });
  // A stage has pets: a get finds one from its first list.
  const seed = await fetch(`${stack.url}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(seed.status).toBe(201);
});

afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the scenario on Artillery', () => {
  it('exports the ramp, runs it with Artillery’s local runner, and leaves only pets the cleanup finds', async () => {
    const file = path.join(dir, 'loadtest.json');
    const exported = await run([
      script('../../infra/cli/loadtest.ts'),
      '--base-url',
      stack.url,
      '--ramp',
      '4:10',
      // Even weights: a few seconds make each operation many times over.
      '--mix',
      'list:1,get:1,create:1',
      '--steps',
      '2',
      '--duration',
      '4',
      '--artillery',
      file,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const runId = /run ([0-9a-f]{8})/.exec(exported.stdout)?.[1] as string;
    // The key is the worker's environment's, never the script's.
    expect(readFileSync(file, 'utf8')).not.toContain(apiKey);

    const report = path.join(dir, 'report.json');
    const artillery = await run([ARTILLERY, 'run', file, '--output', report], { PETSTORE_API_KEY: apiKey });
    expect(artillery.code, artillery.stdout + artillery.stderr).toBe(0);
    expect(artillery.stdout).toMatch(/ok: http\.response_time\.p99 < 1000/);
    const counters = (JSON.parse(readFileSync(report, 'utf8')) as { aggregate: { counters: Record<string, number> } }).aggregate.counters;
    for (const op of ['list', 'get', 'create'])
      expect(Object.keys(counters)).toContain(`plugins.metrics-by-endpoint.${op}.codes.${op === 'create' ? 201 : 200}`);
    expect(counters['vusers.failed']).toBe(0);
    expect(Object.keys(counters).filter((name) => /^http\.codes\.[45]/.test(name))).toEqual([]);

    const cleanup = await run([
      script('../../infra/cli/loadtest-cleanup.ts'),
      runId,
      '--table',
      stack.tableNames.pets,
      '--endpoint',
      stack.dynamodbEndpoint,
    ]);
    expect(cleanup.stdout).toContain(`${counters['http.codes.201']} pets of run ${runId}`);
  });
});
