/**
 * A run folder executed again is a run of its own: the fleet's path (`artillery run-fargate` of the same script, twice) on Artillery's
 * local runner, which draws a test run id per execution as run-fargate does and hands it to every worker. Each execution's pets and
 * results carry their own run id; an id set in ARTILLERY_TEST_RUN_ID (as the fleet recipe does) is the run's; the report refuses to
 * merge two runs' results.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRun } from '../../infra/cli/loadtest.ts';
import { ARTILLERY, writeRunFolder } from '../../infra/cli/loadtest/engine.ts';
import { parseOptions } from '../../infra/cli/loadtest/options.ts';
import { type ArtilleryResults, runsOf } from '../../infra/cli/loadtest/report.ts';
import { artilleryScript, RUN_ID, runPetName } from '../../infra/cli/loadtest/scenario.ts';
import { UsageError } from '../../infra/cli/usage-error.ts';

const OUT = mkdtempSync(path.join(tmpdir(), 'loadtest-rerun-'));
/** What the server saw of the current execution: the names of the pets created, the User-Agent of every request. */
let created: string[] = [];
let agents = new Set<string>();
const server = createServer((req, res) => {
  agents.add(String(req.headers['user-agent']));
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    if (req.method === 'POST') created.push((JSON.parse(body) as { name: string }).name);
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json', 'X-Request-Id': 'r' });
    res.end(req.url?.startsWith('/v1/pets?') ? '[{"id":7}]' : '{"id":7}');
  });
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(OUT, { recursive: true, force: true });
});

/** One `artillery run` of the folder's script, as a fleet's worker runs it: no run id of ours in its environment unless given. */
async function execute(dir: string, output: string, testRunId?: string) {
  [created, agents] = [[], new Set()];
  const { ARTILLERY_TEST_RUN_ID: _, ...env } = process.env;
  const given = testRunId ? { ARTILLERY_TEST_RUN_ID: testRunId } : {};
  const args = [ARTILLERY, 'run', path.join(dir, 'script.json'), '--output', path.join(dir, output), '--quiet'];
  await promisify(execFile)(process.execPath, args, {
    env: { ...env, ...given, PETSTORE_API_KEY: 'psk_test', ARTILLERY_DISABLE_TELEMETRY: 'true' },
    maxBuffer: 1 << 26,
  });
  const results = JSON.parse(readFileSync(path.join(dir, output), 'utf8')) as ArtilleryResults;
  return { runs: runsOf(results), created, agents: [...agents] };
}

describe('a run folder executed twice', () => {
  it('is two runs: each execution’s pets, requests and results carry an id of their own; an id given in the environment is the run’s', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const options = parseOptions(['--base-url', url, '--api-key', 'psk_test', '--rate', '8', '--duration', '2', '--mix', 'adopt:1']);
    if (typeof options === 'string') throw new Error(`unexpected ${options}`);
    const dir = path.join(OUT, 'folder');
    await writeRunFolder(dir, artilleryScript({ ...options, thinkSeconds: 0 }));

    const first = await execute(dir, 'first.json');
    const second = await execute(dir, 'second.json');
    for (const run of [first, second]) {
      expect(run.runs).toHaveLength(1);
      const [id] = run.runs as [string];
      expect(id).toMatch(RUN_ID);
      expect(run.created.length).toBeGreaterThan(0);
      for (const name of run.created) expect(name).toMatch(runPetName(id));
      expect(run.agents).toEqual([`petstore-loadtest/${id}`]);
    }
    expect(second.runs[0]).not.toBe(first.runs[0]);

    const given = await execute(dir, 'given.json', 'abcdef01');
    expect(given.runs).toEqual(['abcdef01']);
    for (const name of given.created) expect(name).toMatch(runPetName('abcdef01'));

    await expect(reportRun([path.join(dir, 'first.json'), path.join(dir, 'second.json')])).rejects.toThrow(UsageError);
  });
});
