/** Renders one benchmark run as markdown: BENCHMARKS.md, also printed to the terminal. */
import { type Bundle, FLOOR, FLOOR_WITH_ZOD, FUNCTION_NAMES, PLAIN_FLOOR, SERVICE_CODE } from './bundles.ts';
import type { ColdStartResult } from './cold-start.ts';
import { type CostRow, costArithmetic, costTable, PREVIOUS_COSTS, PRICES } from './cost.ts';
import type { LoadResult, LoadSettings } from './load.ts';
import type { Machine } from './machine.ts';
import { SCENARIOS, type ScenarioId } from './scenarios.ts';
import { fixed, kb, markdownTable, median, thousands, verdict } from './stats.ts';
import type { HandlerTiming } from './workers/handler-timing.ts';

/** Issue #12's targets, and the earlier ones it kept (bundle size, list scaling). */
export const TARGETS = {
  importRatio: 1.05,
  firstInvocationRatio: 1.2,
  bundleDeltaKb: 60,
  throughputRatio: 0.9,
  /** Below this a throughput ratio is not only short of the target but a regression. */
  throughputFloorRatio: 0.8,
  handlerCpuRatio: 1.05,
  listScalingRatio: 1.2,
  /** Dollars per million requests, production. */
  costPerMillion: { list: 4, 'list-status': 4, get: 4, create: 5 },
} as const;

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
  /** The production functions' NODE_OPTIONS in the template, if any. */
  readonly deployedNodeOptions: string | undefined;
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
  const plainFloorImport = importMedian(run, PLAIN_FLOOR);
  const floorFirst = firstInvocationMedian(run, FLOOR);
  for (const name of FUNCTION_NAMES) {
    const ratio = importMedian(run, name) / floorImport;
    out.push({
      target: `import ≤ ${TARGETS.importRatio}× floor (as deployed)`,
      subject: name,
      measured: `${fixed(ratio, 2)}×`,
      met: ratio <= TARGETS.importRatio,
    });
  }
  for (const name of FUNCTION_NAMES) {
    const ms = importMedian(run, name);
    out.push({
      target: 'import as deployed ≤ plain floor without source maps',
      subject: name,
      measured: `${fixed(ms)} ms vs ${fixed(plainFloorImport)} ms`,
      met: ms <= plainFloorImport,
    });
  }
  for (const name of FUNCTION_NAMES) {
    const ratio = firstInvocationMedian(run, name) / floorFirst;
    out.push({
      target: `first invocation ≤ ${TARGETS.firstInvocationRatio}× floor's`,
      subject: name,
      measured: `${fixed(ratio, 2)}×`,
      met: ratio <= TARGETS.firstInvocationRatio,
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
      target: `throughput ≥ ${TARGETS.throughputRatio}× baseline (must: ≥ ${TARGETS.throughputFloorRatio}×)`,
      subject: labelOf(row.scenario),
      measured: `${fixed(ratio, 2)}×${ratio < TARGETS.throughputRatio && ratio >= TARGETS.throughputFloorRatio ? ' (≥ must)' : ''}`,
      met: ratio >= TARGETS.throughputRatio,
    });
  }
  const getCpu = run.handlerTimings.find((t) => t.scenario === 'get')?.cpuMs ?? Number.NaN;
  const floorCpu = run.handlerTimings.find((t) => t.scenario === 'floor')?.cpuMs ?? Number.NaN;
  out.push({
    target: `handler CPU per invocation ≤ ${TARGETS.handlerCpuRatio}× floor's`,
    subject: labelOf('get'),
    measured: `${fixed(getCpu / floorCpu, 2)}×`,
    met: getCpu / floorCpu <= TARGETS.handlerCpuRatio,
  });
  for (const row of run.cost) {
    const limit = TARGETS.costPerMillion[row.input.scenario];
    out.push({
      target: `production cost ≤ $${limit.toFixed(2)} per million`,
      subject: row.input.label,
      measured: `$${row.total.toFixed(2)}`,
      met: row.total <= limit,
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
  const floorFirst = firstInvocationMedian(run, FLOOR);
  const floorWithMaps = importWithSourceMapsMedian(run, FLOOR);
  const all = checks(run);
  const sizes = [...new Set(run.scaling.map((r) => r.pets))].sort((a, b) => a - b);
  const [small = 0, large = 0] = [sizes[0], sizes.at(-1)];
  const deployedOptions = run.deployedNodeOptions ? `\`NODE_OPTIONS=${run.deployedNodeOptions}\`` : 'no `NODE_OPTIONS`';

  const floorLabel = (name: string) =>
    name === FLOOR
      ? '**FLOOR** (client + one GetCommand)'
      : name === PLAIN_FLOOR
        ? 'FLOOR, plain esbuild (built-ins as ESM)'
        : name === FLOOR_WITH_ZOD
          ? "FLOOR + the service's zod schemas (one validation)"
          : `\`${name}\``;
  /** Rows compared with the FLOOR: the functions, and the floor with zod (what the validator alone adds). */
  const comparedNames: readonly string[] = [...FUNCTION_NAMES, FLOOR_WITH_ZOD];
  const versusFloor = (name: string, value: number, floorValue: number) =>
    comparedNames.includes(name) ? `${fixed(value / floorValue, 2)}×` : '–';
  const coldNames = [...FUNCTION_NAMES, FLOOR, FLOOR_WITH_ZOD, PLAIN_FLOOR];
  const coldRows = coldNames.map((name) => {
    const b = bundleOf(run, name);
    const imp = importMedian(run, name);
    const withMaps = importWithSourceMapsMedian(run, name);
    return [
      floorLabel(name),
      thousands(b.bytes),
      kb(b.bytes),
      comparedNames.includes(name) ? `+${kb(b.bytes - floor.bytes)}` : '–',
      fixed(imp),
      versusFloor(name, imp, floorImport),
      fixed(withMaps),
      versusFloor(name, withMaps, floorWithMaps),
    ];
  });
  const coldPathRows = coldNames.map((name) => {
    const imp = importMedian(run, name);
    const first = firstInvocationMedian(run, name);
    return [
      floorLabel(name),
      fixed(imp),
      fixed(first),
      versusFloor(name, first, floorFirst),
      `**${fixed(imp + first)}**`,
      versusFloor(name, imp + first, floorImport + floorFirst),
    ];
  });
  const costBeforeAfter = run.cost.map((r) => {
    const before = PREVIOUS_COSTS.rows[r.input.scenario];
    return [
      r.input.label,
      `$${before.logs.toFixed(3)}`,
      `$${r.logs.toFixed(3)}`,
      `$${before.lambdaCompute.toFixed(3)}`,
      `$${r.lambdaCompute.toFixed(3)}`,
      `$${before.total.toFixed(2)}`,
      `**$${r.total.toFixed(2)}**`,
      `$${TARGETS.costPerMillion[r.input.scenario].toFixed(2)}`,
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

Each bundle is built in this run by esbuild with \`esbuildBuildOptions()\` from infra/cdk/bundling.ts,
the options the CDK's NodejsFunction uses (minified ESM, node24, AWS SDK bundled, linked source
map, Node's built-ins loaded through infra/cdk/builtins/). The FLOOR (infra/bench/floor-handler.ts) is
built with the same options: it only creates \`DynamoDBDocumentClient.from(new DynamoDBClient({}))\`
at load and sends one \`GetCommand\`. The plain FLOOR is the same source bundled as esbuild does by
default (no built-in aliases), the floor issue #12's absolute import target was set against.
"FLOOR + the service's zod schemas" (infra/bench/floor-zod-handler.ts) is the FLOOR with the request
schemas of lib/domain built at load and one path parameter validated per invocation: its ratio is
what zod, the design's validator, costs a cold start by itself.

Import time: median over ${run.coldStartRuns} fresh \`node\` processes per bundle (spawned round-robin),
of \`await import(bundle)\` measured inside the process, with the production functions' environment
from the synthesised template (${deployedOptions}, \`LOG_LEVEL\`, \`API_KEY_CACHE_SECONDS\`) plus table
names, \`AWS_REGION=us-east-1\` and dummy credentials: "as deployed". "With --enable-source-maps"
adds that flag, as the functions were deployed before 2026-11-24; it shows what the flag costs.

${markdownTable(
  ['bundle', 'bytes', 'KB', 'Δ floor KB', 'import ms (as deployed)', '× floor', 'import ms (with --enable-source-maps)', '× floor'],
  coldRows,
)}

### Cold path: import + first invocation, as deployed

"First invocation" is the handler's first call in the same process, right after the import,
against the local store: for a function, the API-key lookup and the operation's store call (a GET
makes them concurrently, create one after the other), the floor its one \`GetCommand\`. Every
bundle creates its DynamoDB client at import. On Lambda both phases run in the init and first
invoke of a new instance; a real DynamoDB round trip (a few ms) adds to both the function's and the floor's.

${markdownTable(['bundle', 'import ms', 'first invocation ms', '× floor', 'import + first ms', '× floor'], coldPathRows)}

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
  single DynamoDB call and return its JSON (infra/bench/workers/adapter.ts);
- **baseline**: a bare node:http server making the same single DynamoDB call per route with the same
  \`createDocumentClient\` client, and returning the JSON (infra/bench/workers/baseline.ts).

The target is local API ÷ baseline. The two other ratios split the gap: adapter ÷ baseline is the
local adapter, which API Gateway replaces on AWS; API ÷ adapter is the handler chain Lambda runs.
The ${m.cores} cores are shared by autocannon, the server and the store. "By round" is API ÷ baseline
for each round's pair of measurements, a few seconds apart: how far this machine's drift moves one
measurement of the same code (the verdict is on the ratio of the means).

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

## Handler duration in process (the estimate behind the cost figures)

The bundles above, imported once in one process and invoked one request at a time (after
warm-up invocations; the cases take turns, a share of their invocations at a time, infra/bench/workers/handler-timing.ts) with API Gateway proxy events built by the local API's adapter, against the
same local store; the floor's handler is timed the same way, for comparison with get. Lambda bills each invocation rounded up to the next millisecond ("billed" is the
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

### Before and after the logging changes

Before: ${PREVIOUS_COSTS.source}, from that template (Text log format with START/END/REPORT, the
functions' request line at \`info\` in production, Standard log groups, the longer access line).
After: this run, from this template. docs/operators.md ("Logs") says what an operator gives up.

${markdownTable(['operation', 'logs before', 'logs after', 'Lambda compute before', 'Lambda compute after', 'total before', 'total after', 'target'], costBeforeAfter)}
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

function importWithSourceMapsMedian(run: BenchRun, name: string): number {
  return median(coldOf(run, name).withSourceMaps.map((s) => s.importMs));
}

function firstInvocationMedian(run: BenchRun, name: string): number {
  return median(coldOf(run, name).deployed.map((s) => s.firstInvocationMs));
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
