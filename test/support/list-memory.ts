/**
 * Heap of the embedded store under list traffic. Starts dynalite in this process
 * (in memory, or on disk in a temporary folder), creates the service's tables, stores 200 pets,
 * then sends list requests through the service's own store code (DynamoDbPetStore over the real
 * AWS SDK): a Scan page and a status page (one Query of the byStatus index) in turn, first pages and
 * pages after the store's own cursor, Limit 20. Every `sample` requests it forces a garbage collection and records
 * heapUsed and rss. The last line of stdout is a JSON report; progress goes to stderr.
 *
 *   node --expose-gc test/support/list-memory.ts [--requests 20000] [--sample 1000]
 *     [--store memory|disk] [--concurrency 4]
 *
 * Run it with Node 24 (`./node_modules/.bin/node`); test/local/embedded-store-memory.test.ts
 * spawns it, so the measurement never depends on the flags of the test runner's own process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb.ts';
import { ensureTables, localTableNames } from '../../infra/local/create-tables.ts';
import { PET_STATUSES, type PetStatus } from '#lib/domain/pet.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { DynamoDbPetStore } from '#lib/store/dynamodb-pet-store.ts';
import type { ListPetsRequest } from '#lib/store/pet-store.ts';

export interface ListMemorySample {
  /** List requests answered when the sample was taken. */
  readonly requests: number;
  /** process.memoryUsage() right after a forced full GC, in bytes. */
  readonly heapUsed: number;
  readonly rss: number;
}

export interface ListMemoryReport {
  readonly store: 'memory' | 'disk';
  readonly pets: number;
  readonly requests: number;
  readonly concurrency: number;
  readonly samples: readonly ListMemorySample[];
  /** Heap after GC at the end minus at the first sample (taken after a warm-up), per request. */
  readonly heapBytesPerRequest: number;
  readonly elapsedMs: number;
}

const PETS = 200;
const PAGE = 20;
const WARM_UP = 1_000;

const gc = (globalThis as { gc?: () => void }).gc;

function sample(requests: number): ListMemorySample {
  if (!gc) throw new Error('run with node --expose-gc');
  // Two passes: the first can leave work (finalizers, weak callbacks) that frees more on the next.
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { requests, heapUsed, rss };
}

export async function measureListMemory(options: {
  requests: number;
  sampleEvery: number;
  store: 'memory' | 'disk';
  concurrency: number;
  progress?: (line: string) => void;
}): Promise<ListMemoryReport> {
  const folder = options.store === 'disk' ? await mkdtemp(path.join(tmpdir(), 'list-memory-')) : undefined;
  const embedded = await startEmbeddedDynamoDb(folder ? { path: folder } : {});
  const client = createDocumentClient({ endpoint: embedded.endpoint });
  try {
    const names = localTableNames();
    await ensureTables(client, names);
    const pets = new DynamoDbPetStore(client, names.Pets as string);
    for (let i = 0; i < PETS; i++) {
      // Three in four pets have a status, so the byStatus index holds 150 of them, 50 per status.
      const status: PetStatus | undefined = i % 4 === 3 ? undefined : PET_STATUSES[i % 3];
      await pets.create({ name: `pet ${i}`, categoryId: 1 + (i % 5), ...(status ? { status } : {}) });
    }

    // The lists a client sends: the first three pages of each kind (a Scan, a Query per status),
    // from the cursors the store itself hands out. The Scan pages and two of each status's stop
    // at Limit with more data behind them; the third status page reaches the end of its status.
    const lists: ListPetsRequest[] = [];
    for (const status of [undefined, ...PET_STATUSES]) {
      let request: ListPetsRequest = { limit: PAGE, ...(status ? { status } : {}) };
      lists.push(request);
      for (let page = 1; page < 3; page++) {
        const { nextAfterId } = await pets.list(request);
        if (nextAfterId === undefined) throw new Error('expected another page');
        request = { ...request, afterId: nextAfterId };
        lists.push(request);
      }
    }
    // A Scan page and a Query page in turn; each kind goes through all its pages in a cycle.
    const request = (i: number): ListPetsRequest => {
      const j = i >> 1;
      const index = i % 2 === 0 ? j % 3 : 3 + (j % 3) * 3 + (Math.floor(j / 3) % 3);
      return lists[index] as ListPetsRequest;
    };
    let next = 0;
    const run = async (count: number) => {
      const end = next + count;
      const worker = async () => {
        while (next < end) {
          const page = await pets.list(request(next++));
          if (page.pets.length === 0) throw new Error('a list page came back empty');
        }
      };
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    };

    await run(WARM_UP);
    next = 0;
    const started = Date.now();
    const samples = [sample(0)];
    while (next < options.requests) {
      await run(Math.min(options.sampleEvery, options.requests - next));
      const taken = sample(next);
      samples.push(taken);
      options.progress?.(
        `${taken.requests} lists: heap ${(taken.heapUsed / 2 ** 20).toFixed(1)} MB, rss ${(taken.rss / 2 ** 20).toFixed(0)} MB`,
      );
    }
    const first = samples[0] as ListMemorySample;
    const last = samples.at(-1) as ListMemorySample;
    return {
      store: options.store,
      pets: PETS,
      requests: options.requests,
      concurrency: options.concurrency,
      samples,
      heapBytesPerRequest: (last.heapUsed - first.heapUsed) / options.requests,
      elapsedMs: Date.now() - started,
    };
  } finally {
    client.destroy();
    await embedded.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '20000' },
      sample: { type: 'string', default: '1000' },
      store: { type: 'string', default: 'memory' },
      concurrency: { type: 'string', default: '4' },
    },
  });
  if (values.store !== 'memory' && values.store !== 'disk') throw new Error('--store is memory or disk');
  const report = await measureListMemory({
    requests: Number(values.requests),
    sampleEvery: Number(values.sample),
    store: values.store,
    concurrency: Number(values.concurrency),
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
