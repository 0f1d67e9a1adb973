/**
 * `npm run bench`: for every operation, the CPU instructions of its function's cold start and warm
 * invocations against two floors, throughput and latency of the local API against a bare node:http
 * baseline, and the cost per million requests; the read units of whole status walks.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../cli/command-line.ts';
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { newApiKeyRecord, generateApiKey } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import { ensureTables, localTableNames } from '../local/create-tables.ts';
import { buildBundles } from './bundles.ts';
import { floorTableInput } from './floor-table.ts';
import { startWorker, stopOnInterrupt, type WorkerProcess } from './child.ts';
import { countInstructions, countNodeStart, type InstructionCount, type Invocation, WARM_INVOCATIONS } from './instructions.ts';
import { type LoadResult, type LoadSettings, measureLoad, mergeLoads } from './load.ts';
import { machine } from './machine.ts';
import type { BenchRun, InstructionRow, ThroughputRow } from './benchmarks-md.ts';
import { lambdaContext, proxyEvent, requestFor, SCENARIOS } from './scenarios.ts';
import { floorSeedPet, seedPets } from './seed.ts';
import { measureStatusWalk, type WalkUnits } from './walk.ts';
import type { HandlerTiming } from './workers/handler-timing.ts';

const USAGE = `Usage: npm run bench [-- --instructions]
  (no option)      the full run, about ten minutes: prints the tables and writes BENCHMARKS.md
  --instructions   the instruction counts only (.bench/instructions.md)
  -h, --help       this text
Environment: BENCH_QUICK=1 makes a smoke run with short settings (.bench/BENCHMARKS.quick.md).
Needs valgrind (callgrind) on the PATH.
`;

const { values: args } = parseCommandLine(USAGE, {
  options: { instructions: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK_DIR = `${ROOT}.bench`;
const QUICK = process.env.BENCH_QUICK === '1';
const INSTRUCTIONS_ONLY = args.instructions === true;

const SETTINGS = {
  load: (QUICK
    ? { durationSeconds: 1, warmupSeconds: 0.5, connections: 10 }
    : { durationSeconds: 2.5, warmupSeconds: 1, connections: 10 }) satisfies LoadSettings,
  /**
   * Each load measurement is taken this many times, the servers' order reversed every round: on a shared machine the speed drifts
   * within minutes, and interleaving puts the servers being compared under the same drift.
   */
  rounds: QUICK ? 1 : 4,
  /** Pets in the throughput tables; tables whose status walks are measured (one page of each status first). */
  seedPets: 1_000,
  walkSizes: [40, 1_000, QUICK ? 5_000 : 50_000],
  handlerWarmup: QUICK ? 10 : 50,
  /** Invocations per case, in `handlerRounds` turns (infra/bench/workers/handler-timing.ts). */
  handlerIterations: QUICK ? 30 : 1_200,
  handlerRounds: QUICK ? 1 : 6,
} as const;

const WALK_PREFIX = 'Walk';
const FLOOR_TABLE = 'FloorPets';

function progress(message: string): void {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}\n`);
}

const started = performance.now();
const startedAt = new Date();
const workers: WorkerProcess[] = [];
stopOnInterrupt(workers);

async function main(): Promise<void> {
  // Loaded here, not above: they load aws-cdk-lib, which `--help` need not wait for.
  const { costPerMillion, synthFunctionConfigs } = await import('./cost.ts');
  const { render, renderInstructions } = await import('./benchmarks-md.ts');
  await rm(`${WORK_DIR}/bundles`, { recursive: true, force: true });
  await mkdir(WORK_DIR, { recursive: true });

  progress("synthesising the CDK app: the production functions' environment, sizing and logging");
  const configs = synthFunctionConfigs();
  const production = configs.filter((c) => c.stage === 'production');
  // Every function has the same plain variables (LOG_LEVEL, API_KEY_CACHE_SECONDS, NODE_OPTIONS if set).
  const deployedEnv = production[0]?.environment ?? {};
  for (const config of production) {
    if (JSON.stringify(config.environment) !== JSON.stringify(deployedEnv)) {
      throw new Error(`production ${config.functionId} has other variables than ${production[0]?.functionId}`);
    }
  }

  progress('building the function bundles with infra/cdk/bundling.ts, and the floors');
  await mkdir(`${WORK_DIR}/bundles`, { recursive: true });
  const bundles = await buildBundles(`${WORK_DIR}/bundles`, ROOT);

  progress('starting the store (embedded dynalite, in memory)');
  const store = startWorker('store');
  workers.push(store);
  const endpoint = await store.call<string>('endpoint');
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const documents = DynamoDBDocumentClient.from(raw);
  const mainTables = localTableNames('');
  await ensureTables(raw, mainTables);
  const apiKey = generateApiKey();
  await new DynamoDbApiKeyStore(documents, mainTables[apiKeysTable.logicalName] as string).add(newApiKeyRecord(apiKey, 'bench'));
  const ids = await seedPets(documents, mainTables[petsTable.logicalName] as string, 1, SETTINGS.seedPets);
  // The floors read and write their own table, with the same pets' own fields (infra/bench/floor-table.ts).
  await raw.send(new CreateTableCommand(floorTableInput(FLOOR_TABLE)));
  await waitUntilTableExists({ client: raw, maxWaitTime: 60, minDelay: 0.2, maxDelay: 1 }, { TableName: FLOOR_TABLE });
  await seedPets(documents, FLOOR_TABLE, 1, SETTINGS.seedPets, floorSeedPet);

  // The production functions' environment from the template, the tables Lambda would name, the
  // variables Lambda sets, and the local store's address.
  const functionEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    ...deployedEnv,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDBENCHMARK',
    AWS_SECRET_ACCESS_KEY: 'benchmark-secret',
    AWS_SESSION_TOKEN: 'benchmark-session',
    [ENV.petsTable]: mainTables[petsTable.logicalName] as string,
    [ENV.apiKeysTable]: mainTables[apiKeysTable.logicalName] as string,
    [ENV.idempotencyTable]: mainTables[idempotencyTable.logicalName] as string,
    [ENV.dynamodbEndpoint]: endpoint,
    // The floor's plain `new DynamoDBClient({})` finds the local store here.
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  };

  progress(`instructions: each bundle in a fresh process under callgrind (import, first, ${WARM_INVOCATIONS} warm invocations)`);
  const instructions: InstructionRow[] = [];
  for (const bundle of bundles) {
    const invocations: Invocation[] = Array.from({ length: 1 + WARM_INVOCATIONS }, (_, n) => {
      const requestId = `instructions-${n}`;
      // A pet that exists, the same ones every run.
      const spec = requestFor(bundle.scenario, [ids[(n * 37) % ids.length] as number], n);
      return { event: proxyEvent(spec, apiKey, requestId), context: lambdaContext(bundle.name, requestId) };
    });
    const env = bundle.kind === 'function' ? functionEnv : { ...functionEnv, [ENV.petsTable]: FLOOR_TABLE };
    const count: InstructionCount = await countInstructions(bundle.file, invocations, env);
    if (count.statuses.some((status) => status >= 300)) throw new Error(`${bundle.name} answered ${count.statuses.join(', ')}`);
    instructions.push({ bundle, count });
    progress(
      `  ${bundle.name}: import ${(count.import / 1e6).toFixed(1)} M, first ${(count.first / 1e6).toFixed(1)} M, warm ${(count.warm / 1e6).toFixed(2)} M`,
    );
  }
  const nodeStart = await countNodeStart(functionEnv);
  progress(`  node -e 0: ${(nodeStart / 1e6).toFixed(1)} M`);
  if (INSTRUCTIONS_ONLY) {
    const markdown = renderInstructions(instructions, nodeStart);
    await writeFile(`${WORK_DIR}/instructions.md`, markdown);
    process.stdout.write(`${markdown}\n`);
    raw.destroy();
    return;
  }

  progress('handler durations in process (bundles, one invocation at a time)');
  const timing = startWorker('handler-timing', { env: functionEnv });
  workers.push(timing);
  const handlerTimings = await timing.call<HandlerTiming[]>('run', {
    bundles: Object.fromEntries(bundles.filter((b) => b.kind === 'function').map((b) => [b.name, b.file])),
    apiKey,
    ids,
    warmup: SETTINGS.handlerWarmup,
    iterations: SETTINGS.handlerIterations,
    rounds: SETTINGS.handlerRounds,
  });
  await timing.stop();
  for (const t of handlerTimings) {
    if (Object.keys(t.statuses).some((s) => Number(s) >= 300))
      throw new Error(`handler timing ${t.scenario}: ${JSON.stringify(t.statuses)}`);
  }

  progress(`throughput: local API and baseline (${SETTINGS.rounds} rounds)`);
  const servers = { api: startWorker('api'), baseline: startWorker('baseline') };
  workers.push(...Object.values(servers));
  const urls = {
    api: await servers.api.call<string>('start', { endpoint, apiKey, tablePrefix: '' }),
    baseline: await servers.baseline.call<string>('start', { endpoint, petsTable: mainTables[petsTable.logicalName] }),
  };
  const who = ['api', 'baseline'] as const;
  const throughput: ThroughputRow[] = [];
  // Writes last: the reads meet the seeded table.
  for (const scenario of [...SCENARIOS].sort((a, b) => Number(a.operation.method !== 'GET') - Number(b.operation.method !== 'GET'))) {
    const rounds = { api: [] as LoadResult[], baseline: [] as LoadResult[] };
    for (let round = 0; round < SETTINGS.rounds; round++) {
      for (const w of round % 2 === 0 ? who : [...who].reverse()) {
        rounds[w].push(await measureLoad({ url: urls[w], server: servers[w], store }, scenario, { ids, apiKey }, SETTINGS.load));
      }
    }
    const [api, baseline] = who.map((w) => mergeLoads(rounds[w])) as [LoadResult, LoadResult];
    throughput.push({ scenario, api, baseline });
    progress(`  ${scenario.id}: local API ${api.rps.toFixed(0)} req/s, baseline ${baseline.rps.toFixed(0)} req/s`);
  }
  await Promise.all(Object.values(servers).map((w) => w.stop()));

  progress(`read units of whole status walks at ${SETTINGS.walkSizes.join(', ')} pets`);
  const walkTables = localTableNames(WALK_PREFIX);
  const walkPets = walkTables[petsTable.logicalName] as string;
  await ensureTables(raw, walkTables);
  const walks: WalkUnits[] = [];
  for (const pets of SETTINGS.walkSizes) {
    const seeded = walks.at(-1)?.tablePets ?? 0;
    await seedPets(documents, walkPets, seeded + 1, pets - seeded);
    walks.push(await measureStatusWalk(endpoint, walkPets, pets, 'available'));
    progress(`  ${pets} pets: ${walks.at(-1)?.pages} pages, ${walks.at(-1)?.readUnits} read units`);
  }
  raw.destroy();
  await store.stop();

  const cost = SCENARIOS.map((scenario) => {
    const config = configs.find((c) => c.stage === 'production' && c.functionId === scenario.operation.functionId);
    const t = handlerTimings.find((h) => h.scenario === scenario.id);
    if (!config || !t) throw new Error(`no configuration or timing for ${scenario.id}`);
    const log = { functionLogBytes: t.logBytesPerInvocation, functionLogLines: t.logLinesPerInvocation };
    return costPerMillion({ scenario, config, billedMs: t.billedMeanMs, ...log });
  });

  const run: BenchRun = {
    command: QUICK ? 'BENCH_QUICK=1 npm run bench' : 'npm run bench',
    startedAt,
    seconds: (performance.now() - started) / 1000,
    machine: machine(),
    load: SETTINGS.load,
    rounds: SETTINGS.rounds,
    instructions,
    nodeStart,
    handlerTimings,
    throughput,
    walks,
    cost,
  };
  const markdown = render(run);
  const outFile = QUICK ? `${WORK_DIR}/BENCHMARKS.quick.md` : `${ROOT}BENCHMARKS.md`;
  await writeFile(outFile, markdown);
  process.stdout.write(`${markdown}\n`);
  progress(`wrote ${outFile}`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
}
