/** Renders one benchmark run as markdown: BENCHMARKS.md, also printed to the terminal. */
import { type Bundle, type FloorKind, floorName, FUNCTIONS, SERVICE_CODE } from './bundles.ts';
import { costArithmetic, costTable, type CostRow, PRICES } from './cost.ts';
import { type InstructionCount, WARM_INVOCATIONS } from './instructions.ts';
import type { LoadResult, LoadSettings } from './load.ts';
import type { Machine } from './machine.ts';
import { SCENARIOS, type ScenarioId } from './scenarios.ts';
import { fixed, kb, markdownTable, thousands } from './stats.ts';
import type { HandlerTiming } from './workers/handler-timing.ts';
import type { WalkUnits } from './walk.ts';

/** What a function may cost against the floors (infra/bench/instructions.ts). */
export const INSTRUCTION_TARGETS = {
  /** Import ÷ the SDK + zod floor's. */
  import: 0.9,
  /** Import + first invocation ÷ the SDK + zod floor's. */
  importAndFirst: 0.7,
  /** A warm invocation ÷ the SDK-only floor's. */
  warm: 1.1,
  /** Bundle bytes over the SDK-only floor's. */
  bundleDeltaKb: 60,
} as const;

export interface InstructionRow {
  readonly bundle: Bundle;
  readonly count: InstructionCount;
}

export interface ThroughputRow {
  readonly scenario: ScenarioId;
  readonly api: LoadResult;
  /** The local adapter with bare handlers (infra/bench/workers/adapter.ts). */
  readonly adapter: LoadResult;
  readonly baseline: LoadResult;
}

export interface ScalingRow {
  readonly scenario: 'list' | 'list-status';
  readonly pets: number;
  readonly api: LoadResult;
  readonly baseline: LoadResult;
}

export interface BenchRun {
  readonly command: string;
  readonly startedAt: Date;
  readonly seconds: number;
  readonly machine: Machine;
  readonly load: LoadSettings;
  readonly rounds: number;
  readonly instructions: readonly InstructionRow[];
  /** Instructions of `node -e 0` (infra/bench/instructions.ts countNodeStart). */
  readonly nodeStart: number;
  readonly handlerTimings: readonly HandlerTiming[];
  readonly throughput: readonly ThroughputRow[];
  readonly scaling: readonly ScalingRow[];
  /** Whole walks of one status through the service's store, with their read units. */
  readonly walks: readonly WalkUnits[];
  readonly seedSeconds: { readonly first: number; readonly rest: number; readonly restCount: number };
  readonly cost: readonly CostRow[];
}

const millions = (ir: number): string => (ir / 1e6).toFixed(2);
const signedKb = (bytes: number): string => `${bytes >= 0 ? '+' : ''}${kb(bytes)}`;
const ratio = (value: number, floor: number): string => `${fixed(value / floor, 3)}×`;

/** The instruction tables: the functions against their operation's floors; Node.js, floors and functions side by side. */
export function renderInstructions(rows: readonly InstructionRow[], nodeStart: number): string {
  const of = (name: string): InstructionRow => {
    const row = rows.find((r) => r.bundle.name === name);
    if (!row) throw new Error(`no instruction count for ${name}`);
    return row;
  };
  const t = INSTRUCTION_TARGETS;
  const functionRows = FUNCTIONS.map(({ name, operation }) => {
    const { bundle, count } = of(name);
    const sdk = of(floorName('sdk', operation));
    const zod = of(floorName('sdk-zod', operation));
    return [
      `\`${name}\``,
      thousands(bundle.bytes),
      signedKb(bundle.bytes - sdk.bundle.bytes),
      millions(count.import),
      millions(count.import + count.first),
      millions(count.warm),
      ratio(count.import, zod.count.import),
      ratio(count.import + count.first, zod.count.import + zod.count.first),
      ratio(count.warm, sdk.count.warm),
    ];
  });
  const floorLabel: Record<FloorKind, string> = { sdk: 'SDK only', 'sdk-zod': 'SDK + zod' };
  const coldStartRows = [
    ['Node.js alone (`node -e 0`)', '', millions(nodeStart), '', '', '', millions(nodeStart), ''],
    ...FUNCTIONS.flatMap(({ name, operation }) =>
      [floorName('sdk', operation), floorName('sdk-zod', operation), name].map((bundleName) => {
        const { bundle, count } = of(bundleName);
        return [
          bundle.kind === 'function' ? `\`${name}\`` : `${floorLabel[bundle.kind]}, ${operation}`,
          thousands(bundle.bytes),
          ...[nodeStart, count.import, count.first, count.import + count.first, nodeStart + count.import + count.first, count.warm].map(
            millions,
          ),
        ];
      }),
    ),
  ];
  return `## CPU instructions: cold start and warm invocations

Instructions (valgrind callgrind, Ir, millions) each bundle executes in a fresh
\`node --single-threaded --predictable --predictable-gc-schedule\` with the production functions'
environment, against the local store in another process (not counted): the **import** (\`require\`,
as Lambda's runtime loads \`index.js\`, until what it started has settled), the **first**
invocation, then ${WARM_INVOCATIONS} **warm** invocations (per invocation). The same code counts the same to
about 0.2 %; docs/performance.md says how, and what the flags change (infra/bench/instructions.ts).

Each function runs the request its floor answers: \`list-pets\` \`GET /pets?status=available\`, \`create-pet\`
\`POST /pets\`, \`get-pet\` \`GET /pets/{id}\`. The floors are plain esbuild bundles (CommonJS, minified,
the functions' \`mainFields\`) that create the DynamoDB document client at load and make the
operation's one store call (GetItem; a Query with Limit 21 on a (status, id) index of a table holding
the pets' own fields alone, infra/bench/floor-table.ts; a conditional PutItem): **SDK only**
(infra/bench/floor-handler.ts), and **SDK + zod**, NewPet (zod/mini) parsed per invocation too
(infra/bench/floor-zod-handler.ts). A function's first invocation also looks its API key up. The
functions' bundles (infra/cdk/bundling.ts) carry only the environment's credentials of the SDK's
chain and no test for a web stream body (docs/performance.md, "Cold start"). Targets: import ≤ ${t.import.toFixed(2)}× and
import + first ≤ ${t.importAndFirst.toFixed(2)}× the SDK + zod floor's, warm ≤ ${t.warm.toFixed(2)}× the SDK-only floor's, bundle ≤ the SDK-only floor + ${t.bundleDeltaKb} KB.

${markdownTable(
  [
    'function',
    'bytes',
    'KB over SDK floor',
    'import M',
    'import + first M',
    'warm M / invocation',
    'import ÷ SDK+zod floor',
    'import + first ÷ SDK+zod floor',
    'warm ÷ SDK floor',
  ],
  functionRows,
)}

How a cold start divides between Node.js, the SDK and ours: Node.js starting with the same flags
and running nothing (\`node -e 0\`), then each bundle's import and first invocation; the floors are
what the SDK (and zod) cost bundled plainly. Lambda's runtime client, loaded before the bundle, is
not counted.

${markdownTable(['bundle', 'bytes', 'Node.js start M', 'import M', 'first M', 'import + first M', 'Node.js + import + first M', 'warm M / invocation'], coldStartRows)}

### What a function bundle adds to its SDK-only floor, by package (esbuild metafile)

${markdownTable(['package', ...FUNCTIONS.map((f) => `\`${f.name}\` KB`)], packageDeltas(rows))}
`;
}

export function render(run: BenchRun): string {
  const m = run.machine;
  const sizes = [...new Set(run.scaling.map((r) => r.pets))].sort((a, b) => a - b);
  const [small = 0, large = 0] = [sizes[0], sizes.at(-1)];

  const throughputRows = run.throughput.map((r) => [
    labelOf(r.scenario),
    thousands(r.api.rps),
    thousands(r.adapter.rps),
    thousands(r.baseline.rps),
    `**${fixed(r.api.rps / r.baseline.rps, 2)}×**`,
    `${fixed(r.adapter.rps / r.baseline.rps, 2)}×`,
    `${fixed(r.api.rps / r.adapter.rps, 2)}×`,
    r.api.roundsRps.map((rps, i) => fixed(rps / (r.baseline.roundsRps[i] ?? Number.NaN), 2)).join(' / '),
  ]);
  const triple = (r: ThroughputRow, f: (l: LoadResult) => number, digits: number) =>
    [r.api, r.adapter, r.baseline].map((l) => fixed(f(l), digits)).join(' / ');
  const detailRows = run.throughput.map((r) => [
    labelOf(r.scenario),
    triple(r, (l) => l.p50Ms, 1),
    triple(r, (l) => l.p99Ms, 1),
    triple(r, (l) => l.serverCpuMs, 3),
    fixed(r.api.serverCpuMs - r.adapter.serverCpuMs, 3),
    fixed(r.adapter.serverCpuMs - r.baseline.serverCpuMs, 3),
    fixed(r.api.storeCpuMs, 3),
  ]);
  const measurements = [
    ...run.throughput.flatMap((r) =>
      (['api', 'adapter', 'baseline'] as const).map((who) => ({ what: `${labelOf(r.scenario)}, ${who}`, result: r[who] })),
    ),
    ...run.scaling.flatMap((r) =>
      (['api', 'baseline'] as const).map((who) => ({
        what: `${labelOf(r.scenario)} at ${thousands(r.pets)} pets, ${who}`,
        result: r[who],
      })),
    ),
  ];
  const problems = measurements.filter((m) => m.result.non2xx > 0 || m.result.errors > 0);

  const scalingRows = (['list', 'list-status'] as const).flatMap((scenario) =>
    (['api', 'baseline'] as const).map((who) => {
      const at = (pets: number) => run.scaling.find((r) => r.scenario === scenario && r.pets === pets)?.[who];
      const a = at(small);
      const b = at(large);
      return [
        `${labelOf(scenario)}, ${who === 'api' ? 'local API' : 'baseline'}`,
        fixed(a?.p50Ms ?? Number.NaN),
        fixed(b?.p50Ms ?? Number.NaN),
        `**${fixed(scalingRatio(run, scenario, who, 'p50Ms'), 2)}**`,
        fixed(a?.p99Ms ?? Number.NaN),
        fixed(b?.p99Ms ?? Number.NaN),
        fixed(scalingRatio(run, scenario, who, 'p99Ms'), 2),
        thousands(a?.rps ?? Number.NaN),
        thousands(b?.rps ?? Number.NaN),
      ];
    }),
  );

  const walkRows = run.walks.map((w) => [
    thousands(w.tablePets),
    thousands(w.statusPets),
    String(w.limit),
    thousands(w.pages),
    thousands(w.calls),
    fixed(w.readUnits, 1),
    `**${fixed(w.readUnits / w.pages, 2)}**`,
  ]);

  const timingRows = run.handlerTimings.map((t) => [
    labelOf(t.scenario),
    String(t.invocations),
    fixed(t.medianMs, 2),
    fixed(t.meanMs, 2),
    fixed(t.p99Ms, 2),
    fixed(t.cpuMs, 3),
    fixed(t.billedMeanMs, 2),
    fixed(t.logBytesPerInvocation, 0),
    Object.entries(t.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', '),
  ]);

  return `# Benchmarks

Generated by \`${run.command}\` on ${run.startedAt.toISOString()} in ${fixed(run.seconds, 0)} s. Do not edit by hand: run it again.

| machine | |
|:---|:---|
| CPU | ${m.cpuModel} |
| cores | ${m.cores} |
| memory | ${m.memoryGiB} GiB |
| Node.js | ${m.node} |
| OS | ${m.platform} |

Instruction counts repeat from run to run; the wall-clock figures (throughput, latency, durations)
are this machine's in this run, and move by 5–10 % between runs on a shared machine: compare ratios
within this file, not absolute values across machines. docs/performance.md explains the figures.

${renderInstructions(run.instructions, run.nodeStart)}

## Throughput and latency: local API vs. a bare node:http baseline

autocannon in the benchmark process, ${run.load.connections} connections, ${run.load.durationSeconds} s per measurement after a
${run.load.warmupSeconds} s warm-up; every measurement is taken ${run.rounds} time(s), the servers' order reversed each round
(req/s: mean of the rounds; latency percentiles: of all their responses).

Process model: every server is a child process started the same way (\`fork\`, Node.js ${m.node}), one
measured at a time, all on one shared store process (embedded dynalite, in memory) with the same
tables and data (1,000 seeded pets; creates add more and run last):
- **local API**: \`startLocalStack\`, as \`npm start\` runs it: node:http adapter → API Gateway proxy
  event → middy chain (access log, auth, errors) → handler → store; log lines written to /dev/null;
- **adapter + bare handlers**: the same adapter (\`startLocalApi\`) with handlers that make only the
  single DynamoDB call and return its JSON (infra/bench/workers/adapter.ts);
- **baseline**: a bare node:http server making the same single DynamoDB call per route with the same
  \`createDocumentClient\` client, and returning the JSON (infra/bench/workers/baseline.ts).

Local API ÷ baseline is what the service adds to the least any server of these routes does. The two other ratios split it: adapter ÷ baseline is the
local adapter, which API Gateway replaces on AWS; API ÷ adapter is the handler chain Lambda runs.
The ${m.cores} cores are shared by autocannon, the server and the store. "By round" is API ÷ baseline
for each round's pair of measurements, a few seconds apart: how far this machine's drift moves one
measurement of the same code.

${markdownTable(['scenario', 'local API req/s', 'adapter + bare req/s', 'baseline req/s', 'API ÷ baseline', 'adapter ÷ baseline', 'API ÷ adapter', 'API ÷ baseline by round'], throughputRows)}

Latency and CPU, as local API / adapter + bare handlers / baseline. CPU ms/req is the server
process's user + system CPU time during the measurement divided by its responses; the last columns
split the local API's extra CPU per request into handler chain (API − adapter) and adapter
(adapter − baseline); "store" is dynalite's CPU per request during the local API's measurement.

${markdownTable(['scenario', 'p50 ms', 'p99 ms', 'CPU ms/req', 'chain CPU ms/req', 'adapter CPU ms/req', 'store CPU ms/req'], detailRows)}
${problems.length > 0 ? `\n**Warning:** non-2xx responses or errors in ${problems.map((p) => `${p.what} (${p.result.non2xx} non-2xx, ${p.result.errors} errors of ${p.result.requests})`).join('; ')}.\n` : '\nEvery response was 2xx; no errors or timeouts.\n'}
## List latency with ${thousands(small)} and ${thousands(large)} pets

A separate table (and a fresh local API and baseline on it), seeded with BatchWriteItem (25 items a call, 8 calls in flight) straight through the
SDK: ${thousands(small)} pets in ${fixed(run.seedSeconds.first, 1)} s, then ${thousands(run.seedSeconds.restCount)} more in ${fixed(run.seedSeconds.rest, 1)} s. A quarter of
the pets each are available, pending, sold and without status. Same servers, process model and
autocannon settings as above; the default page (limit 20).

${markdownTable(['scenario', `p50 ms ${thousands(small)}`, `p50 ms ${thousands(large)}`, 'p50 ratio', `p99 ms ${thousands(small)}`, `p99 ms ${thousands(large)}`, 'p99 ratio', `req/s ${thousands(small)}`, `req/s ${thousands(large)}`], scalingRows)}

## Read units of a whole status walk

\`GET /pets?status=available\` followed to its last page through the service's own store
(DynamoDbPetStore over the real SDK, infra/bench/walk.ts): every call asks for its consumed capacity
(\`ReturnConsumedCapacity: TOTAL\`), which the local store computes as DynamoDB bills it (each
call's items rounded up to 4 KB, half a unit eventually consistent). A small store of
${thousands(run.walks[0]?.tablePets ?? 0)} pets, then the table above at ${thousands(small)} and ${thousands(large)}.

${markdownTable(['pets in the table', 'pets of the status', 'limit', 'pages', 'store calls', 'read units', 'read units / page'], walkRows)}

## Handler duration in process (the estimate behind the cost figures)

The bundles above, imported once in one process and invoked one request at a time (after
warm-up invocations; the cases take turns, a share of their invocations at a time, infra/bench/workers/handler-timing.ts) with API Gateway proxy events built by the local API's adapter, against the
same local store. Lambda bills each invocation rounded up to the next millisecond ("billed" is the
mean of those). This is an estimate: on Lambda, DynamoDB is a network hop away (a few ms) and the
CPU is a share of a Graviton core sized by memory.

${markdownTable(['scenario', 'invocations', 'median ms', 'mean ms', 'p99 ms', 'CPU ms / invocation', 'billed ms (mean of ceil)', 'log bytes / invocation', 'statuses'], timingRows)}

## Cost per million requests (estimate)

Memory, architecture, log format and levels, log classes and the access log format from the synthesised template (${[...new Set(run.cost.map((r) => `${r.input.config.stage}: ${r.input.config.memoryMb} MB ${r.input.config.architecture} ${r.input.config.runtime}`))].join('; ')}).
Prices: ${PRICES.region}, ${PRICES.asOf}: Lambda $${PRICES.lambdaGbSecond.arm64}/GB-s (arm64), $${PRICES.lambdaPerMillionRequests}/M requests; API Gateway REST
$${PRICES.apiGatewayRestPerMillion}/M; DynamoDB on-demand $${PRICES.dynamodbPerMillionWru}/M WRU, $${PRICES.dynamodbPerMillionRru}/M RRU; CloudWatch Logs $${PRICES.cloudWatchLogsPerGb.STANDARD}/GB ingested (Standard), $${PRICES.cloudWatchLogsPerGb.INFREQUENT_ACCESS}/GB (Infrequent Access).
Free tiers, storage, data transfer, the cached API-key lookups and X-Ray (production traces with the default sampling rule, 1 a second and 5 % of the rest: about $0.25 per million at $5 per million traces) are left out (docs/performance.md).

${costTable(run.cost)}

${costArithmetic(run.cost)}
`;
}

function labelOf(scenario: ScenarioId): string {
  return SCENARIOS.find((s) => s.id === scenario)?.label ?? scenario;
}

function scalingRatio(run: BenchRun, scenario: 'list' | 'list-status', who: 'api' | 'baseline', metric: 'p50Ms' | 'p99Ms'): number {
  const rows = run.scaling.filter((r) => r.scenario === scenario).sort((a, b) => a.pets - b.pets);
  const first = rows[0]?.[who][metric];
  const last = rows.at(-1)?.[who][metric];
  return first === undefined || last === undefined ? Number.NaN : last / first;
}

/** Packages whose bytes differ between a function bundle and its SDK-only floor, largest first. */
function packageDeltas(rows: readonly InstructionRow[]): string[][] {
  const bundleOf = (name: string): Bundle => {
    const bundle = rows.find((r) => r.bundle.name === name)?.bundle;
    if (!bundle) throw new Error(`no bundle ${name}`);
    return bundle;
  };
  const pairs = FUNCTIONS.map((f) => ({ fn: bundleOf(f.name), floor: bundleOf(floorName('sdk', f.operation)) }));
  const names = new Set(pairs.flatMap((p) => [...p.fn.byPackage.keys(), ...p.floor.byPackage.keys()]));
  const deltas = [...names]
    .map((pkg) => ({ pkg, deltas: pairs.map((p) => (p.fn.byPackage.get(pkg) ?? 0) - (p.floor.byPackage.get(pkg) ?? 0)) }))
    .filter((r) => r.deltas.some((d) => Math.abs(d) >= 100))
    .sort((a, b) => Math.max(...b.deltas) - Math.max(...a.deltas));
  return [
    ...deltas.map((r) => [r.pkg === SERVICE_CODE ? 'lib/ + functions/ (ours)' : `\`${r.pkg}\``, ...r.deltas.map(signedKb)]),
    ['**bundle − floor**', ...pairs.map((p) => `**${signedKb(p.fn.bytes - p.floor.bytes)}**`)],
  ];
}
