/**
 * `npm run loadtest` end to end: the real command, in its own process, against local mode started
 * here. A short run meets the default SLO; an impossible SLO makes it exit non-zero.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { ResultJson } from '../../infra/cli/loadtest/report.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const SCRIPT = fileURLToPath(new URL('../../infra/cli/loadtest.ts', import.meta.url));
const OUT = mkdtempSync(path.join(tmpdir(), 'loadtest-'));

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function loadtest(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--out', OUT, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let stack: LocalStack;
let apiKey: string;

beforeAll(async () => {
  apiKey = generateApiKey();
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey });
});

afterAll(async () => {
  await stack?.close();
  rmSync(OUT, { recursive: true, force: true });
});

describe('npm run loadtest', () => {
  it('drives the mix briefly, reports percentiles and statuses, and exits 0 when the SLO is met', async () => {
    const run = await loadtest(['--base-url', stack.url, '--api-key', apiKey, '--duration', '2', '--connections', '2']);
    expect(run.stderr).not.toMatch(/failed|Error:/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^operation\s+requests\s+req\/s\s+p50 ms\s+p95 ms\s+p99 ms\s+max ms\s+outcomes$/m);
    for (const op of ['list', 'get', 'create']) expect(run.stdout).toMatch(new RegExp(`^${op}\\s+\\d+.*ok \\d+$`, 'm'));
    expect(run.stdout).toMatch(/^ok\s+\d+\s+0 s \(run\)\s+function: 2xx$/m);
    expect(run.stdout).toMatch(/pets created: [1-9]\d* answered, named loadtest-[0-9a-f]{8}-<n>/);
    expect(run.stdout).toContain('RESULT: SLO met');
    // Progress lines while it runs.
    expect(run.stderr).toMatch(/^\[\d+s\] \d+\/s {2}\w+ ok \d+/m);

    // The result as JSON, per second and per operation, and its chart beside it.
    const runId = /load test ([0-9a-f]{8})/.exec(run.stdout)?.[1];
    const json = JSON.parse(readFileSync(path.join(OUT, `${runId}.json`), 'utf8')) as ResultJson;
    expect(json.verdict.met).toBe(true);
    expect(json.seconds.length).toBeGreaterThanOrEqual(2);
    expect(json.seconds.reduce((sum, s) => sum + s.requests, 0)).toBe(json.measured.requests);
    expect(json.seconds[1]?.operations.list).toMatchObject({ outcomes: { ok: expect.any(Number) }, p99: expect.any(Number) });
    expect(readFileSync(path.join(OUT, `${runId}.svg`), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('exits non-zero when the SLO is missed (an impossible p99 of 0 ms)', async () => {
    const run = await loadtest([
      '--base-url',
      stack.url,
      '--api-key',
      apiKey,
      '--duration',
      '1',
      '--connections',
      '2',
      '--slo-p99-ms',
      '0',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/p99 latency\s+≤ 0 ms\s+[\d.]+ ms\s+MISSED/);
    expect(run.stdout).toContain('RESULT: SLO MISSED');
  });

  it('exits 3 when the pre-flight fails, and never prints the key even if the server echoes it', async () => {
    const echo = createServer((req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ youSent: req.headers.authorization }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = echo.address() as AddressInfo;
      const run = await loadtest(['--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', apiKey, '--duration', '1']);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('answered 500');
      expect(run.stdout + run.stderr).not.toContain(apiKey);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('refuses plain http to a host that is not this machine, before sending anything', async () => {
    const run = await loadtest(['--base-url', 'http://example.com/v1', '--api-key', apiKey, '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/plain http to a host that is not this machine/);
  });
});
