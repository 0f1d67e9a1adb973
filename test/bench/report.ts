/** Renders one benchmark run as markdown: BENCHMARKS.md, also printed to the terminal. */
import { type Bundle, FLOOR, FUNCTION_NAMES, SERVICE_CODE } from './bundles.ts';
import type { ColdStartResult } from './cold-start.ts';
import { type CostRow, costArithmetic, costTable, PRICES } from './cost.ts';
import type { LoadResult, LoadSettings } from './load.ts';
import type { Machine } from './machine.ts';
import { SCENARIOS, type ScenarioId } from './scenarios.ts';
import { fixed, kb, markdownTable, median, thousands, verdict } from './stats.ts';
import type { HandlerTiming } from './workers/handler-timing.ts';

export const TARGETS = {
  importRatio: 1.15,
  bundleDeltaKb: 60,
  throughputRatio: 0.8,
  listScalingRatio: 1.2,
} as const;

export interface ThroughputRow {
  readonly scenario: ScenarioId;
  readonly api: LoadResult;
  /** The local adapter with bare handlers (test/bench/workers/adapter.ts). */
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
  readonly coldStartRuns: number;
  readonly load: LoadSettings;
  readonly rounds: number;
  readonly bundles: readonly Bundle[];
  readonly coldStarts: readonly ColdStartResult[];
  readonly handlerTimings: readonly HandlerTiming[];
  readonly throughput: readonly ThroughputRow[];
  readonly scaling: readonly ScalingRow[];
  readonly seedSeconds: { readonly first: number; readonly rest: number; readonly restCount: number };
  readonly cost: readonly CostRow[];
}

interface Check {
  readonly target: string;
  readonly subject: string;
  readonly measured: string;
  readonly met: boolean;
}

export function checks(run: BenchRun): Check[] {
  const out: Check[] = [];
  const floor = bundleOf(run, FLOOR);
  const floorImport = importMedian(run, FLOOR);
  for (const name of FUNCTION_NAMES) {
    const ratio = importMedian(run, name) / floorImport;
    out.push({
      target: `import ≤ ${TARGETS.importRatio}× floor`,
      subject: name,
      measured: `${fixed(ratio, 2)}×`,
      met: ratio <= TARGETS.importRatio,
    });
  }
  for (const name of FUNCTION_NAMES) {
    const delta = (bundleOf(run, name).bytes - floor.bytes) / 1024;
    out.push({
      target: `bundle ≤ floor + ${TARGETS.bundleDeltaKb} KB`,
      subject: name,
      measured: `+${fixed(delta)} KB`,
      met: delta <= TARGETS.bundleDeltaKb,
    });
  }
  for (const row of run.throughput) {
    const ratio = row.api.rps / row.baseline.rps;
    out.push({
      target: `throughput ≥ ${TARGETS.throughputRatio}× baseline`,
      subject: labelOf(row.scenario),
      measured: `${fixed(ratio, 2)}×`,
      met: ratio >= TARGETS.throughputRatio,
    });
  }
  for (const scenario of ['list', 'list-status'] as const) {
    const ratio = scalingRatio(run, scenario, 'api', 'p50Ms');
    out.push({
      target: `list latency 50k/1k ≤ ${TARGETS.listScalingRatio}`,
      subject: labelOf(scenario),
      measured: `${fixed(ratio, 2)} (p50)`,
      met: ratio <= TARGETS.listScalingRatio,
    });
  }
  return out;
}

export function render(run: BenchRun): string {
  const m = run.machine;
  const floor = bundleOf(run, FLOOR);
  const floorImport = importMedian(run, FLOOR);
  const floorImportNoMaps = median(coldOf(run, FLOOR).withoutSourceMaps.map((s) => s.importMs));
  const floorFirst = median(coldOf(run, FLOOR).deployed.map((s) => s.firstInvocationMs));
  const all = checks(run);
  const sizes = [...new Set(run.scaling.map((r) => r.pets))].sort((a, b) => a - b);
  const [small = 0, large = 0] = [sizes[0], sizes.at(-1)];

  const coldRows = [...FUNCTION_NAMES, FLOOR].map((name) => {
    const b = bundleOf(run, name);
    const cold = coldOf(run, name);
    const imp = median(cold.deployed.map((s) => s.importMs));
    const first = median(cold.deployed.map((s) => s.firstInvocationMs));
    const noMaps = median(cold.withoutSourceMaps.map((s) => s.importMs));
    const isFloor = name === FLOOR;
    return [
      isFloor ? '**FLOOR** (client + one GetCommand)' : `\`${name}\``,
      thousands(b.bytes),
      kb(b.bytes),
      isFloor ? '–' : `+${kb(b.bytes - floor.bytes)}`,
      fixed(imp),
      isFloor ? '–' : `${fixed(imp / floorImport, 2)}×`,
      fixed(noMaps),
      isFloor ? '–' : `${fixed(noMaps / floorImportNoMaps, 2)}×`,
      fixed(first),
      isFloor ? '–' : `${fixed(first / floorFirst, 2)}×`,
    ];
  });

  const packages = packageDeltas(run);

  const throughputRows = run.throughput.map((r) => [
    labelOf(r.scenario),
    thousands(r.api.rps),
    thousands(r.adapter.rps),
    thousands(r.baseline.rps),
    `**${fixed(r.api.rps / r.baseline.rps, 2)}×**`,
    `${fixed(r.adapter.rps / r.baseline.rps, 2)}×`,
    `${fixed(r.api.rps / r.adapter.rps, 2)}×`,
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

  const timingRows = run.handlerTimings.map((t) => [
    t.scenario === 'floor' ? 'FLOOR handler (one GetCommand)' : labelOf(t.scenario),
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

Numbers from one machine and one run: compare ratios within this file, not absolute values across
machines. docs/performance.md explains the targets, what they mean for Lambda, and the costs.

## Targets

${markdownTable(
  ['target', 'subject', 'measured', ''],
  all.map((c) => [c.target, c.subject, c.measured, verdict(c.met)]),
  ['l', 'l', 'r', 'l'],
)}

**${all.filter((c) => c.met).length} of ${all.length} met.**

## Cold start: bundle size and import time

Each bundle is built in this run by esbuild with \`esbuildBuildOptions()\` from infra/bundling.ts,
the options the CDK's NodejsFunction uses (minified ESM, node24, AWS SDK bundled, linked source
map). The FLOOR (test/bench/floor-handler.ts) is built with the same options: it only creates
\`DynamoDBDocumentClient.from(new DynamoDBClient({}))\` at load and sends one \`GetCommand\`.

Import time: median over ${run.coldStartRuns} fresh \`node\` processes per bundle (spawned round-robin),
of \`await import(bundle)\` measured inside the process, with the function's environment
(table names, \`AWS_REGION=us-east-1\`, dummy credentials, \`LOG_LEVEL=info\`, \`API_KEY_CACHE_SECONDS\`).
"As deployed" adds \`NODE_OPTIONS=--enable-source-maps\`, which the CDK app sets on every function;
the target is judged on it. "First invocation" is the handler's first call in the same process,
right after the import, against the local store (the functions authenticate first: two DynamoDB
calls against the floor's one; they build their client on this call, the floor at import).

${markdownTable(
  [
    'bundle',
    'bytes',
    'KB',
    'Δ floor KB',
    'import ms (as deployed)',
    '× floor',
    'import ms (no source maps)',
    '× floor',
    'first invocation ms',
    '× floor',
  ],
  coldRows,
)}

Source maps: ${FUNCTION_NAMES.map((n) => `\`${n}\` ${kb(bundleOf(run, n).sourceMapBytes)} KB`).join(', ')}, floor ${kb(floor.sourceMapBytes)} KB.

### What a function bundle adds to the floor, by package (esbuild metafile)

${markdownTable(['package', ...FUNCTION_NAMES.map((n) => `\`${n}\` KB`), 'floor KB'], packages)}

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
  single DynamoDB call and return its JSON (test/bench/workers/adapter.ts);
- **baseline**: a bare node:http server making the same single DynamoDB call per route with the same
  \`createDocumentClient\` client, and returning the JSON (test/bench/workers/baseline.ts).

The target is local API ÷ baseline. The two other ratios split the gap: adapter ÷ baseline is the
local adapter, which API Gateway replaces on AWS; API ÷ adapter is the handler chain Lambda runs.
The ${m.cores} cores are shared by autocannon, the server and the store.

${markdownTable(['scenario', 'local API req/s', 'adapter + bare req/s', 'baseline req/s', 'API ÷ baseline', 'adapter ÷ baseline', 'API ÷ adapter'], throughputRows)}

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

## Handler duration in process (the estimate behind the cost figures)

The bundles above, imported once in one process and invoked one request at a time (after
warm-up invocations) with API Gateway proxy events built by the local API's adapter, against the
same local store; the floor's handler is timed the same way, for comparison with get. Lambda bills each invocation rounded up to the next millisecond ("billed" is the
mean of those). This is an estimate: on Lambda, DynamoDB is a network hop away (a few ms) and the
CPU is a share of a Graviton core sized by memory.

${markdownTable(['scenario', 'invocations', 'median ms', 'mean ms', 'p99 ms', 'CPU ms / invocation', 'billed ms (mean of ceil)', 'log bytes / invocation', 'statuses'], timingRows)}

## Cost per million requests (estimate)

Memory and architecture from the synthesised template (${[...new Set(run.cost.map((r) => `${r.input.config.stage}: ${r.input.config.memoryMb} MB ${r.input.config.architecture} ${r.input.config.runtime}`))].join('; ')}).
Prices: ${PRICES.region}, ${PRICES.asOf}: Lambda $${PRICES.lambdaGbSecond.arm64}/GB-s (arm64), $${PRICES.lambdaPerMillionRequests}/M requests; API Gateway REST
$${PRICES.apiGatewayRestPerMillion}/M; DynamoDB on-demand $${PRICES.dynamodbPerMillionWru}/M WRU, $${PRICES.dynamodbPerMillionRru}/M RRU; CloudWatch Logs $${PRICES.cloudWatchLogsPerGb}/GB ingested.
Free tiers, storage, data transfer and the cached API-key lookups are left out (docs/performance.md).

${costTable(run.cost)}

${costArithmetic(run.cost)}
`;
}

function labelOf(scenario: ScenarioId): string {
  return SCENARIOS.find((s) => s.id === scenario)?.label ?? scenario;
}

function bundleOf(run: BenchRun, name: string): Bundle {
  const bundle = run.bundles.find((b) => b.name === name);
  if (!bundle) throw new Error(`no bundle ${name}`);
  return bundle;
}

function coldOf(run: BenchRun, name: string): ColdStartResult {
  const cold = run.coldStarts.find((c) => c.name === name);
  if (!cold) throw new Error(`no cold-start result for ${name}`);
  return cold;
}

function importMedian(run: BenchRun, name: string): number {
  return median(coldOf(run, name).deployed.map((s) => s.importMs));
}

function scalingRatio(run: BenchRun, scenario: 'list' | 'list-status', who: 'api' | 'baseline', metric: 'p50Ms' | 'p99Ms'): number {
  const rows = run.scaling.filter((r) => r.scenario === scenario).sort((a, b) => a.pets - b.pets);
  const first = rows[0]?.[who][metric];
  const last = rows.at(-1)?.[who][metric];
  return first === undefined || last === undefined ? Number.NaN : last / first;
}

/** Packages whose bytes differ between a function bundle and the floor, largest first. */
function packageDeltas(run: BenchRun): string[][] {
  const floor = bundleOf(run, FLOOR).byPackage;
  const names = new Set<string>();
  for (const name of FUNCTION_NAMES) for (const pkg of bundleOf(run, name).byPackage.keys()) names.add(pkg);
  const rows = [...names]
    .map((pkg) => {
      const sizes = FUNCTION_NAMES.map((name) => bundleOf(run, name).byPackage.get(pkg) ?? 0);
      return { pkg, sizes, floor: floor.get(pkg) ?? 0 };
    })
    .filter((r) => r.sizes.some((s) => Math.abs(s - r.floor) >= 100))
    .sort((a, b) => Math.max(...b.sizes) - b.floor - (Math.max(...a.sizes) - a.floor));
  const total = FUNCTION_NAMES.map((name) => bundleOf(run, name).bytes - bundleOf(run, FLOOR).bytes);
  return [
    ...rows.map((r) => [r.pkg === SERVICE_CODE ? 'lib/ + functions/ (ours)' : `\`${r.pkg}\``, ...r.sizes.map((s) => kb(s)), kb(r.floor)]),
    ['**bundle − floor**', ...total.map((t) => `**+${kb(t)}**`), '–'],
  ];
}
