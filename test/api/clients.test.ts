/**
 * docs/clients.md's recipe as it is written there: its TypeScript blocks go into a folder with the
 * types openapi-typescript generates from openapi.json, are type-checked under strict and run
 * against local mode with its limits on: the stage's throttle lowered to one request a second (so
 * the walk meets the gateway's 429) and the store throttled once (a 503), and still every pet is
 * seen once.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { Pet } from '#lib/domain/pet.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { DynamoDbPetStore } from '#lib/store/dynamodb-pet-store.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestStore, testStore } from '../support/store-endpoint.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * One request a second, one at once, on every method: r = B = 1 (capacity.ts); a key's and an address's
 * WAF limit the method's whole minute, B + 60 × r, so WAF stays out of the way.
 */
const CONTEXT = {
  'staging.methodRateLimit': '1',
  'staging.burstSeconds': '1',
  'staging.perKeyPerMinute': '61',
  'staging.perSourcePerMinute': '61',
};

/** What the test calls of the recipe's modules (their own types need the generated ones). */
interface Client {
  use(...middleware: Middleware[]): void;
}
interface PetstoreClient {
  petstore(baseUrl: string, apiKey: string): Client;
  availablePets(client: Client, limit?: number): Promise<Pet[]>;
  addPet(client: Client, pet: Omit<Pet, 'id'>): Promise<Pet>;
}
interface Pages {
  retrying<A extends { response: Response }>(call: () => Promise<A>, options?: { retries?: number; maxWaitSeconds?: number }): Promise<A>;
}

/** Each answer the client got, with when it arrived. */
interface Seen {
  /** The same for every attempt of one call: its method, or its Idempotency-Key. */
  readonly call: string;
  readonly status: number;
  readonly retryAfter: number;
  readonly at: number;
}

let dir: string;
let store: TestStore;
let proxy: FaultProxy;
let stack: LocalStack;
let recipe: PetstoreClient;
let pages: Pages;
const apiKey = generateApiKey();
const available: Pet[] = [];

/** The TypeScript blocks of docs/clients.md, by the file name their first line gives. */
async function recipeBlocks(): Promise<Map<string, string>> {
  const doc = await readFile(path.join(ROOT, 'docs/clients.md'), 'utf8');
  return new Map([...doc.matchAll(/^```ts\n(\/\/ ([\w-]+\.ts):.*\n[\s\S]*?)^```$/gm)].map((m) => [m[2] as string, m[1] as string]));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'petstore-clients-'));
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = {
    target: 'ES2024',
    module: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    types: ['node'],
  };
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  for (const [name, code] of await recipeBlocks()) await writeFile(path.join(dir, name), code);
  const generator = path.join(ROOT, 'test/generators/node_modules/openapi-typescript/bin/cli.js');
  await run(process.execPath, [generator, path.join(ROOT, 'openapi.json'), '-o', path.join(dir, 'petstore.ts')]);

  store = await testStore();
  proxy = await startFaultProxy(store.endpoint);
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    apiKey,
    dynamodbEndpoint: proxy.endpoint,
    tablePrefix: store.tablePrefix,
    template: await synthesizeStageTemplate('staging', CONTEXT),
    throttling: true,
  });
  // Stored directly, not through the throttled API.
  const client = createDocumentClient({ endpoint: store.endpoint });
  const pets = new DynamoDbPetStore(client, stack.tableNames.pets);
  for (let i = 0; i < 9; i++) {
    const { pet } = await pets.create({ name: `Walked ${i}`, categoryId: 1, status: i < 7 ? 'available' : 'sold' });
    if (pet.status === 'available') available.push(pet);
  }
  client.destroy();
  recipe = (await import(pathToFileURL(path.join(dir, 'petstore-client.ts')).href)) as PetstoreClient;
  pages = (await import(pathToFileURL(path.join(dir, 'pages.ts')).href)) as Pages;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A client of the stack that records every answer it gets. */
function recordingClient(): { client: Client; seen: Seen[] } {
  const client = recipe.petstore(stack.url, apiKey);
  const seen: Seen[] = [];
  client.use({
    onResponse: ({ request, response }) => {
      seen.push({
        call: request.headers.get('idempotency-key') ?? request.method,
        status: response.status,
        retryAfter: Number(response.headers.get('retry-after')),
        at: performance.now(),
      });
    },
  });
  return { client, seen };
}

/** Every 429 and 503 was followed by an answer that came no sooner than its Retry-After asked. */
function expectRetryAfterHonoured(seen: readonly Seen[]): void {
  seen.forEach((answer, i) => {
    const next = seen.slice(i + 1).find((later) => later.call === answer.call);
    if ((answer.status === 429 || answer.status === 503) && next) {
      // Timers may fire a millisecond or so early; the waits here are whole seconds.
      expect(next.at - answer.at, JSON.stringify(answer)).toBeGreaterThanOrEqual(answer.retryAfter * 1000 - 20);
    }
  });
}

describe('docs/clients.md', () => {
  it('has the two blocks, and they type-check under strict with the generated types', async () => {
    expect([...(await recipeBlocks()).keys()].sort()).toEqual(['pages.ts', 'petstore-client.ts']);
    const tsc = run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]);
    const { stdout } = await tsc.catch((error: { stdout?: string }) => {
      throw new Error(`tsc: ${error.stdout}`);
    });
    expect(stdout).toBe('');
  }, 60_000);

  it('walks every page of a listing through a 429 and a 503, honouring Retry-After, and sees every pet once', async () => {
    const { client, seen } = recordingClient();
    // The store throttles the pets table from the second page's call until the client has seen the 503.
    let petCalls = 0;
    proxy.decide = (_operation, table) =>
      table === stack.tableNames.pets && petCalls++ >= 1 && !seen.some((answer) => answer.status === 503) ? 'throttle' : 'pass';
    try {
      const walked = await recipe.availablePets(client, 2);
      expect(walked.map((pet) => pet.id).sort()).toEqual(available.map((pet) => pet.id).sort());
      expect(new Set(walked.map((pet) => pet.id)).size).toBe(walked.length);
    } finally {
      proxy.decide = () => 'pass';
    }
    const statuses = seen.map((answer) => answer.status);
    expect(statuses).toContain(429);
    expect(statuses).toContain(503);
    expect(statuses.filter((status) => status === 200)).toHaveLength(Math.ceil(available.length / 2));
    expectRetryAfterHonoured(seen);
  }, 60_000);

  it('creates through a 429 with one Idempotency-Key, each pet once', async () => {
    const { client, seen } = recordingClient();
    const created = await Promise.all([
      recipe.addPet(client, { name: 'Retried A', categoryId: 2, status: 'available' }),
      recipe.addPet(client, { name: 'Retried B', categoryId: 2, status: 'available' }),
    ]);
    const statuses = seen.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses).toContain(429);
    expectRetryAfterHonoured(seen);
    const listed = await recipe.availablePets(client);
    for (const pet of created) expect(listed.filter((other) => other.id === pet.id)).toEqual([pet]);
  }, 60_000);

  it('throws on an error answer, naming it', async () => {
    await expect(recipe.availablePets(recordingClient().client, 0)).rejects.toThrow(/^400 from .*validation_failed/);
  }, 30_000);

  it('retries at most as often as asked, and returns the last answer as it is', async () => {
    let calls = 0;
    const answer = await pages.retrying(
      async () => {
        calls++;
        // An HTTP date already past: no wait.
        return { response: new Response(null, { status: 503, headers: { 'Retry-After': new Date(0).toUTCString() } }) };
      },
      { retries: 2 },
    );
    expect(calls).toBe(3);
    expect(answer.response.status).toBe(503);
  });
});
