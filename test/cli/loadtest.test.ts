/**
 * `npm run loadtest` and `npm run loadtest:report` without running the engine (the runs are
 * `npm run test:artillery`'s): a fleet's folder, each worker's share of the plan; the pre-flight's
 * refusals; a fleet's recorded results (test/fixtures/loadtest-fleet: a fleet of one run by
 * Artillery's local runner against local mode serving the staging template, undeclared) read back
 * into the layer table, the model comparison, the checks and the HTML report, whole and split
 * into two files that make one report; and the run id each execution takes.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { type ArtilleryResults, merge, type ResultJson, resultJson } from '../../infra/cli/loadtest/report.ts';
import { REPO_ROOT } from '../../infra/local/cloud-assembly.ts';
import { startLocalStack } from '../../infra/local/local-stack.ts';
import { type artilleryScript, RUN_ID, requestsPerArrival } from '../../infra/cli/loadtest/scenario.ts';

const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const OUT = mkdtempSync(path.join(tmpdir(), 'loadtest-'));
const apiKey = generateApiKey();

function node(file: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script(file), ...args],
      { timeout: 120_000, env: { ...process.env, PETSTORE_API_KEY: apiKey } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('npm run loadtest --workers N: a run written for a fleet', () => {
  it('writes the script, its processor and payloads into the run’s folder, each worker offering its share, no key in it', async () => {
    const args = ['--base-url', 'https://api.example.com/v1', '--ramp', '30:150', '--steps', '3', '--duration', '30', '--warmup', '10'];
    const run = await node('../../infra/cli/loadtest.ts', [...args, '--workers', '5', '--out', OUT]);
    expect(run.code, run.stderr).toBe(0);
    const dir = /^Wrote (\S+) for 5 workers/m.exec(run.stdout)?.[1] as string;
    for (const file of ['script.json', 'processor.cjs', 'pets.csv']) expect(existsSync(path.join(dir, file))).toBe(true);
    const text = readFileSync(path.join(dir, 'script.json'), 'utf8');
    expect(text).not.toContain(apiKey);
    const written = JSON.parse(text) as ReturnType<typeof artilleryScript>;
    // No run id baked in: each execution names its pets by its own (the processor's ltRun).
    expect(written.config.petstore).not.toHaveProperty('runId');
    expect(text).toContain('"name\\":\\"loadtest-{{ ltRun }}-{{ n }}\\"');
    // Five workers offer the plan together: each 1/5 of every phase's requests, as arrivals of the mix's flows.
    const perArrival = requestsPerArrival(written.config.petstore.mix);
    expect(written.config.phases.map((p) => p.name)).toEqual(['warm-up', 'step 1', 'step 2', 'step 3']);
    for (const [phase, rate] of written.config.phases.map((p, i) => [p, [30, 30, 90, 150][i] as number] as const)) {
      expect(phase.arrivalCount * 5 * perArrival).toBeCloseTo(rate * phase.duration, -1);
    }
    // The processor sees every request of every flow; every step of a flow is an operation of the descriptors or a pause.
    for (const s of written.scenarios) expect(s).toMatchObject({ beforeRequest: 'stamp', afterResponse: 'answered', onError: 'failed' });
    expect(written.scenarios.map((s) => s.name)).toEqual(['browse', 'walk', 'read', 'adopt']);
  });
});

describe('the pre-flight', () => {
  it('exits 3 when the API fails, and never prints the key even if the server echoes it; names the web ACL when it blocks', async () => {
    let waf = false;
    const server = createServer((req, res) => {
      if (waf) {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '60' });
        res.end('{"code":"rate_limited"}');
        return;
      }
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ youSent: req.headers.authorization }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const failed = await node('../../infra/cli/loadtest.ts', ['--base-url', url, '--duration', '1', '--out', OUT]);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toContain('answered 500');
      expect(failed.stdout + failed.stderr).not.toContain(apiKey);
      waf = true;
      const blocked = await node('../../infra/cli/loadtest.ts', ['--base-url', url, '--duration', '1', '--out', OUT]);
      expect(blocked.code).toBe(3);
      expect(blocked.stderr).toMatch(/the web ACL \(AWS WAF\) is blocking this key or address .*Retry-After: 60/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses plain http to a host that is not this machine, before sending anything', async () => {
    const run = await node('../../infra/cli/loadtest.ts', ['--base-url', 'http://example.com/v1', '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/plain http to a host that is not this machine/);
  });
});

describe('npm run loadtest:report: a fleet’s recorded results', () => {
  it('reads them into the layer table, the model comparison and the checks, writes the HTML report, and fails the run', async () => {
    const dir = path.join(OUT, 'fleet');
    rmSync(dir, { recursive: true, force: true });
    await import('node:fs').then((fs) => fs.mkdirSync(dir));
    for (const file of ['script.json', 'fleet.json']) copyFileSync(script(`../fixtures/loadtest-fleet/${file}`), path.join(dir, file));
    const run = await node('../../infra/cli/loadtest-report.ts', [path.join(dir, 'fleet.json')]);
    expect(run.code, run.stderr).toBe(1);
    // The folder holds the script, so possibly several runs of it: the report goes into a folder of the run's id.
    const json = JSON.parse(readFileSync(path.join(dir, '3b808f22', 'result.json'), 'utf8')) as ResultJson;
    expect(json.runId).toBe('3b808f22');
    // Every request counted once: by second, by phase, by operation, by outcome.
    const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
    const all = sum(json.phases.map((p) => p.requests));
    expect(sum(json.seconds.map((s) => s.requests))).toBe(all);
    expect(json.measured.requests).toBe(sum(json.phases.filter((p) => !p.warmup).map((p) => p.requests)));
    expect(sum(Object.values(json.measured.operations).map((o) => o.requests))).toBe(json.measured.requests);
    expect(json.offered).toMatchObject({
      planned: sum(json.phases.map((p) => p.planned)),
      arrivals: sum(json.seconds.map((s) => s.arrivals)),
    });

    expect(run.stdout).toMatch(/^Offered: \d+ of \d+ planned arrivals/m);
    expect(run.stdout).toMatch(/^edge-429\s+\d+\s+\d+ s \(step 2, 150 req\/s offered\)\s+edge \(WAF\)/m);
    expect(run.stdout).toMatch(/^limit met first: edge-429 at \d+ s \(step 2/m);
    expect(run.stdout).toContain('throttle-429 expected');
    expect(run.stdout).toMatch(/^listPets\s+GET \/pets\s+50\s+100\s+\d+\s+yes/m);
    expect(run.stdout).toContain('This source is not declared: the per-client rules apply');
    expect(run.stdout).toMatch(/^unexpected 4xx \(expected: throttle-429\)\s+0\s+[1-9]\d*\s+MISSED$/m);
    expect(run.stdout).toContain('RESULT: checks MISSED');
    const html = readFileSync(path.join(dir, '3b808f22', 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    // Self-contained: nothing it would fetch.
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=/);
  });
});

describe('npm run loadtest:report FILE…: one run’s results in several files make one report', () => {
  const fixture = (name: string) => readFileSync(script(`../fixtures/loadtest-fleet/${name}`), 'utf8');
  const whole = JSON.parse(fixture('fleet.json')) as ArtilleryResults & { intermediate: ArtilleryResults['aggregate'][] };
  // Two workers' files, as if each had answered the requests of one of Artillery's 10 s periods.
  const parts = whole.intermediate.map((period) => ({ aggregate: period, intermediate: [period] }));
  const plan = (JSON.parse(fixture('script.json')) as ReturnType<typeof artilleryScript>).config.petstore;
  /** Everything but the percentiles (and the checks' text, which quotes p99). */
  const counts = (json: ResultJson) =>
    JSON.parse(JSON.stringify(json, (key, value) => (['p50', 'p95', 'p99', 'max', 'verdict'].includes(key) ? undefined : value)));
  const withRun = (part: ArtilleryResults, runId: string) => ({
    aggregate: { ...part.aggregate, counters: { ...part.aggregate.counters, [`lt|run|${runId}`]: 1 } },
  });

  it('adds up every count of the parts: the same seconds, phases, operations and layers as the whole, and the same checks', () => {
    expect(parts).toHaveLength(2);
    const [merged, original] = [resultJson(merge(parts), plan), resultJson(whole, plan)];
    expect(original.measured.requests).toBeGreaterThan(100);
    expect(counts(merged)).toEqual(counts(original));
    expect(merged.verdict.checks.map((c) => c.met)).toEqual(original.verdict.checks.map((c) => c.met));
    // A percentile does not add up: the parts' greatest bounds the whole's (within the sketches' 1 % each), their weighted p50 is near.
    for (const [m, o] of [[merged.measured, original.measured], ...merged.phases.map((p, i) => [p, original.phases[i]] as const)]) {
      expect(m?.p99).toBeGreaterThanOrEqual(0.98 * (o?.p99 ?? 0));
      expect(m?.max).toBe(o?.max);
    }
  });

  it('writes one report of the files, and refuses, as a usage error, files of different runs', async () => {
    const dir = path.join(OUT, 'split');
    mkdirSync(dir, { recursive: true });
    // Without the stage: no template to synthesize.
    writeFileSync(path.join(dir, 'script.json'), fixture('script.json').replace('"stage": "staging"', '"stage": null'));
    const files = parts.map((part, i) => {
      const file = path.join(dir, `worker-${i}.json`);
      writeFileSync(file, JSON.stringify(withRun(part, '3b808f22')));
      return file;
    });
    const run = await node('../../infra/cli/loadtest-report.ts', files);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.match(/^Pet Store load test 3b808f22:/gm)).toHaveLength(1);
    expect(run.stdout.match(/^RESULT: /gm)).toHaveLength(1);
    const json = JSON.parse(readFileSync(path.join(dir, '3b808f22', 'result.json'), 'utf8')) as ResultJson;
    expect(counts(json)).toEqual(counts(resultJson(whole, { ...plan, stage: null })));

    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify(withRun(parts[1] as ArtilleryResults, '0badc0de')));
    const mixed = await node('../../infra/cli/loadtest-report.ts', [files[0] as string, other]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/are results of 2 runs \(3b808f22, 0badc0de\): report each apart\.\nUsage: npm run loadtest:report/);
    expect(existsSync(path.join(dir, '0badc0de'))).toBe(false);
    expect((await node('../../infra/cli/loadtest-report.ts', [])).code).toBe(2);
  });
});

describe('a run’s id, drawn at each execution of the script', () => {
  type Processor = typeof import('../../infra/cli/loadtest/processor.ts');
  /** A worker: a fresh processor module, its first arrival given Artillery's test run id. */
  async function worker(testId: string) {
    vi.resetModules();
    const processor = (await import('../../infra/cli/loadtest/processor.ts')) as Processor;
    const emitted: string[] = [];
    const context = { vars: { $testId: testId, ltPhases: '[[1,false]]' } as Record<string, unknown> };
    processor.arrive(context, { emit: (_type, name) => emitted.push(name) }, () => undefined);
    return { runId: context.vars.ltRun, counted: emitted.find((name) => name.startsWith('lt|run|')) };
  }

  it('is the test run id Artillery gives every worker of one execution, when it is one (npm run loadtest sets it), else 8 hex digits of it', async () => {
    expect(await worker('abcdef01')).toEqual({ runId: 'abcdef01', counted: 'lt|run|abcdef01' });
    // Artillery's own ids (run-fargate draws one per execution and passes it to each worker as ARTILLERY_TEST_RUN_ID).
    const [a, b, c] = [
      await worker('t7k3m_q4wnxbd8r9ezp3hcyta6fjk5gm2t_pd4x'),
      await worker('t7k3m_q4wnxbd8r9ezp3hcyta6fjk5gm2t_pd4x'),
      await worker('tr8nd_x3kq9w4e7z6mcbp5yhfaj2tgd8n_a7fe'),
    ];
    expect(a.runId).toMatch(RUN_ID);
    expect(b).toEqual(a);
    expect(c.runId).toMatch(RUN_ID);
    expect(c.runId).not.toBe(a.runId);
  });

  it('is set by the fleet recipe of docs/performance.md for each execution, and given to the report and the cleanup', () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs/performance.md'), 'utf8');
    const fleet = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((block) => block.includes('run-fargate'));
    expect(fleet).toMatch(/^run=\$\(openssl rand -hex 4\) /m);
    expect(fleet).toMatch(/^ARTILLERY_TEST_RUN_ID=\$run npx --prefix \.loadtest\/engine artillery run-fargate /m);
    expect(fleet).toContain('--output .loadtest/<folder>/$run.json');
    expect(fleet).toMatch(/^npm run loadtest:report -- \.loadtest\/<folder>\/\$run\.json /m);
    expect(fleet).toMatch(/^npm run loadtest:cleanup -- \$run /m);
  });
});

describe('the local API a load test is pointed at', () => {
  it('refuses a second server on the data folder of a running one, saying which', async () => {
    const dataDir = mkdtempSync(path.join(OUT, 'data-'));
    const first = await startLocalStack({ port: 0, dataDir });
    try {
      await expect(startLocalStack({ port: 0, dataDir })).rejects.toThrow(`${dataDir} is in use by the local API at ${first.url}`);
    } finally {
      await first.close();
    }
  });
});
