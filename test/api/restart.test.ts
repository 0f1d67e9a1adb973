/**
 * Durability across a restart: `infra/local/start.ts` as a child process on a fresh data folder,
 * pets created, SIGTERM, started again on the same folder, and every pet still there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { expectError, expectJson, expectPet, type Pet, sortedIds } from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NODE = join(REPO, 'node_modules', '.bin', 'node');
const READY = /Pet Store API listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\b/;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const apiKey = generateApiKey();
let dataDir: string;
const children = new Set<ChildProcess>();

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'petstore-restart-'));
});

afterAll(async () => {
  // Whatever happened, no child outlives the suite, and the folder goes.
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }),
  );
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the local service on `dataDir` and resolves once it prints its URL. */
async function start(): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: apiKey };
  // Nothing from the test process may point the child elsewhere.
  for (const name of ['PETSTORE_DYNAMODB_ENDPOINT', 'PETS_TABLE_NAME', 'API_KEYS_TABLE_NAME']) delete env[name];
  const child = spawn(NODE, ['infra/local/start.ts'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const check = (): void => {
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(match[1] as string);
    };
    child.stdout?.on('data', check);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (code ${code}, signal ${signal}) before listening:\n${output}`));
    });
    check();
  });
  return { child, url, output: () => output, exited };
}

/** SIGTERM, then waits for the exit. */
async function stop(server: Server): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no exit within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${server.output()}`)), STOP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([server.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stopped by the SIGTERM: a clean exit (code 0), or the default action of the signal. */
function expectCleanExit(exit: { code: number | null; signal: NodeJS.Signals | null }): void {
  expect(exit.code === 0 || (exit.code === null && exit.signal === 'SIGTERM'), JSON.stringify(exit)).toBe(true);
}

const auth = { authorization: `Bearer ${apiKey}` };

async function listAll(url: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  let next: string | undefined = `${url}/pets?limit=3`;
  for (let pages = 0; next !== undefined; pages++) {
    expect(pages).toBeLessThan(100);
    const res: Response = await fetch(next, { headers: auth });
    pets.push(...(await expectJson<unknown[]>(res, 200)).map(expectPet));
    next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return pets;
}

describe('restart durability', () => {
  it('keeps every pet across a SIGTERM and a restart on the same data folder', async () => {
    expect(readdirSync(dataDir)).toEqual([]);

    const first = await start();
    const created: Pet[] = [];
    for (const [i, status] of (['available', 'pending', 'sold', undefined, 'sold'] as const).entries()) {
      const res = await fetch(`${first.url}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: ` Durable ${i} 🐕 `, categoryId: 10 + i, ...(status ? { status } : {}) }),
      });
      created.push(expectPet(await expectJson(res, 201)));
    }
    expect(sortedIds(await listAll(first.url))).toEqual(sortedIds(created));

    expectCleanExit(await stop(first));
    // The store's files are in the folder, not somewhere else.
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(true);

    const second = await start();
    // The same key still works (registered once, found again), and every pet is there, unchanged.
    for (const pet of created) {
      const res = await fetch(`${second.url}/pets/${pet.id}`, { headers: auth });
      expect(await expectJson(res, 200)).toEqual(pet);
    }
    const listed = await listAll(second.url);
    expect(listed).toHaveLength(created.length);
    expect(sortedIds(listed)).toEqual(sortedIds(created));
    const sold = await expectJson<Pet[]>(await fetch(`${second.url}/pets?status=sold`, { headers: auth }), 200);
    expect(sortedIds(sold)).toEqual(sortedIds(created.filter((p) => p.status === 'sold')));

    // It keeps working after the restart: a new pet gets a new id, and keys are still checked.
    const res = await fetch(`${second.url}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After restart', categoryId: 1 }),
    });
    const after = expectPet(await expectJson(res, 201));
    expect(created.map((p) => p.id)).not.toContain(after.id);
    await expectError(await fetch(`${second.url}/pets`, { headers: { authorization: `Bearer ${generateApiKey()}` } }), 401, 'unauthorized');

    expectCleanExit(await stop(second));
  });
});
