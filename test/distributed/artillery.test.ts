/**
 * `npm run loadtest` on its engine, Artillery (which `npm run test:artillery` installs, as the
 * command does on first use), against local mode serving the staging template's bundles
 * (start:synth): the report counts every request once, as the functions' own request lines do;
 * a run that cannot offer its plan, or meets 5xx, fails; the run's pets are the cleanup's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { runArtillery, writeRunFolder } from '../../infra/cli/loadtest/engine.ts';
import { parseOptions } from '../../infra/cli/loadtest/options.ts';
import type { ArtilleryResults, ResultJson } from '../../infra/cli/loadtest/report.ts';
import { artilleryScript } from '../../infra/cli/loadtest/scenario.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const OUT = mkdtempSync(path.join(tmpdir(), 'artillery-'));
const apiKey = generateApiKey();
/** The functions' request lines, by operationId. */
const lines = new Map<string, number>();
let stack: LocalStack;

function node(file: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PETSTORE_API_KEY: apiKey };
    execFile(process.execPath, [script(file), ...args], { timeout: 300_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
const loadtest = (args: readonly string[]) => node('../../infra/cli/loadtest.ts', [...args, '--out', OUT]);
const result = (stdout: string) => {
  const runId = /load test ([0-9a-f]{8})/.exec(stdout)?.[1] as string;
  return { runId, json: JSON.parse(readFileSync(path.join(OUT, runId, 'result.json'), 'utf8')) as ResultJson };
};

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    apiKey,
    cloudAssembly: inject('cloudAssembly'),
    // Below every limit: each request reaches a function.
    throttling: false,
    onFunctionOutput: (chunk) => {
      for (const m of chunk.matchAll(/"message":"request".*?"operationId":"(\w+)"/g))
        lines.set(m[1] as string, (lines.get(m[1] as string) ?? 0) + 1);
    },
  });
});

afterAll(async () => {
  await stack?.close();
  rmSync(OUT, { recursive: true, force: true });
});

describe('npm run loadtest on Artillery', () => {
  it('counts every request once: the report’s counts are the functions’ request lines, within 1 %', async () => {
    lines.clear();
    const run = await loadtest([
      '--base-url',
      stack.url,
      '--warmup',
      '2',
      '--rate',
      '10',
      '--duration',
      '6',
      '--think',
      '0.2',
      // A busy machine answers late: the test is about counting, not speed.
      '--timeout',
      '120',
      '--slo-p99-ms',
      '120000',
    ]);
    // A busy machine's generator may send late (the offered check); the counts hold either way.
    expect([0, 1], run.stdout + run.stderr).toContain(run.code);
    const { runId, json } = result(run.stdout);
    const reported = (op: string) => json.phases.reduce((sum, p) => sum + (p.operations[op]?.requests ?? 0), 0);
    // The pre-flight's list is the functions' too.
    const answered = (op: string) => (lines.get(op) ?? 0) - (op === 'listPets' ? 1 : 0);
    for (const op of ['listPets', 'getPet', 'createPet']) {
      expect(reported(op), op).toBeGreaterThan(0);
      expect(Math.abs(reported(op) - answered(op)), `${op}: ${reported(op)} reported, ${answered(op)} answered`).toBeLessThanOrEqual(
        Math.ceil(0.01 * answered(op)),
      );
    }
    expect(json.offered.arrivals).toBe(json.offered.planned);

    const cleanup = await node('../../infra/cli/loadtest-cleanup.ts', [
      runId,
      '--table',
      stack.tableNames.pets,
      '--endpoint',
      stack.dynamodbEndpoint,
    ]);
    expect(cleanup.stdout).toContain(`${json.createdPets} pets of run ${runId}`);
  });

  it('fails the run when it could not offer its plan (too few virtual users allowed)', async () => {
    const run = await loadtest([
      '--base-url',
      stack.url,
      '--rate',
      '30',
      '--duration',
      '3',
      '--think',
      '1',
      '--max-vusers',
      '1',
      '--slo-p99-ms',
      '60000',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^offered \(arrivals sent in time of planned\)\s+≥ 99\.00%\s+[\d.]+% \(\d+ of \d+\)\s+MISSED$/m);
    expect(result(run.stdout).json.offered.skipped).toBeGreaterThan(0);
  });

  it('fails the run on 5xx', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      res.writeHead(calls++ === 0 ? 200 : 500, { 'Content-Type': 'application/json', 'X-Request-Id': 'r' });
      res.end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const run = await loadtest(['--base-url', url, '--rate', '10', '--duration', '2']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^error rate \(5xx \+ network errors\)\s+≤ 0\.10%\s+100\.00% \(\d+ of \d+\)\s+MISSED$/m);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('sends the key only to a server whose certificate verifies: against a self-signed one, no request reaches HTTP', async () => {
    const fixture = (name: string) => readFileSync(script(`../fixtures/${name}`));
    let seen = 0;
    const server = createTlsServer({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') }, (_req, res) => {
      seen++;
      res.end('[]');
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const options = parseOptions(['--base-url', url, '--api-key', apiKey, '--rate', '5', '--duration', '2', '--mix', 'browse:1']);
      if (typeof options === 'string') throw new Error(`unexpected ${options}`);
      const dir = path.join(OUT, 'tls');
      await writeRunFolder(dir, artilleryScript(options));
      const results = JSON.parse(readFileSync(await runArtillery(dir, apiKey, 'abcdef01'), 'utf8')) as ArtilleryResults;
      expect(Object.keys(results.aggregate.counters).filter((n) => n.startsWith('errors.')).length).toBeGreaterThan(0);
      expect(results.aggregate.counters['lt|m|*|network']).toBeGreaterThan(0);
      expect(seen).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
