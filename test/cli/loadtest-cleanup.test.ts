/**
 * `npm run loadtest:cleanup` against local mode's store (dynalite): it finds exactly the pets a run
 * created, deletes nothing without --delete, and with it deletes those and no other pet, however
 * close its name.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { newRunId } from '../../infra/cli/loadtest/scenario.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const SCRIPT = fileURLToPath(new URL('../../infra/cli/loadtest-cleanup.ts', import.meta.url));

function cleanup(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const target = ['--table', stack.tableNames.pets, '--endpoint', stack.dynamodbEndpoint];
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args, ...target], { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

let stack: LocalStack;
let apiKey: string;
const runId = newRunId();
const other = runId === 'abcdef01' ? 'abcdef02' : 'abcdef01';
const ours = [`loadtest-${runId}-1`, `loadtest-${runId}-2`, `loadtest-${runId}-10`];
// A real pet may be named anything: none of these is the run's.
const theirs = [
  `loadtest-${other}-1`,
  `loadtest-${runId}-x`,
  `loadtest-${runId}-01`,
  `loadtest-${runId}-1-b`,
  `my loadtest-${runId}-3`,
  `Loadtest-${runId}-4`,
];
const ids = new Map<string, number>();

async function create(name: string): Promise<void> {
  const response = await fetch(`${stack.url}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(response.status).toBe(201);
  ids.set(name, ((await response.json()) as { id: number }).id);
}

const exists = async (name: string) =>
  (await fetch(`${stack.url}/pets/${ids.get(name)}`, { headers: { Authorization: `Bearer ${apiKey}` } })).status === 200;

beforeAll(async () => {
  apiKey = generateApiKey();
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey });
  for (const name of [...ours, ...theirs]) await create(name);
});

afterAll(async () => {
  await stack?.close();
});

describe('npm run loadtest:cleanup', () => {
  it('dry-runs by default: lists exactly the run’s pets and deletes nothing', async () => {
    const run = await cleanup([runId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`3 pets of run ${runId}`);
    expect(run.stdout).toContain('dry run: nothing deleted');
    const listed = [...run.stdout.matchAll(/^ {2}(\d+) {2}(\S+)$/gm)].map((m) => m[2]);
    expect(listed.sort()).toEqual([...ours].sort());
    for (const name of [...ours, ...theirs]) expect(await exists(name)).toBe(true);
  });

  it('with --delete, deletes those and leaves every other pet alone', async () => {
    const run = await cleanup([runId, '--delete']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Deleted 3 pets of run ${runId}.`);
    for (const name of ours) expect(await exists(name)).toBe(false);
    for (const name of theirs) expect(await exists(name)).toBe(true);
    expect((await cleanup([runId])).stdout).toContain(`0 pets of run ${runId}`);
  });

  it('refuses what is not a run id, so a prefix cannot match other runs’ pets', async () => {
    for (const id of ['', 'abcdef0', 'ABCDEF01', 'abcdef01-1', '*']) {
      const run = await cleanup(id === '' ? [] : [id, '--delete']);
      expect(run.code).toBe(2);
    }
    expect(await exists(`loadtest-${other}-1`)).toBe(true);
  });
});
