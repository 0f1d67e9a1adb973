/**
 * Renders one benchmark run as markdown (BENCHMARKS.md, also printed): the tables, each with a link
 * to the section of docs/performance.md that says what it measures and how.
 */
import { type Bundle, FLOOR_KINDS, type FloorKind, floorName, FUNCTION_SCENARIOS, SERVICE_CODE } from './bundles.ts';
import { costArithmetic, costTable, type CostRow, PRICES } from './cost.ts';
import { type InstructionCount, WARM_INVOCATIONS } from './instructions.ts';
import type { LoadResult, LoadSettings } from './load.ts';
import type { Machine } from './machine.ts';
import type { Scenario } from './scenarios.ts';
import { fixed, kb, markdownTable, thousands } from './stats.ts';
import type { HandlerTiming } from './workers/handler-timing.ts';
import type { WalkUnits } from './walk.ts';

export interface InstructionRow {
  readonly bundle: Bundle;
  readonly count: InstructionCount;
}

export interface ThroughputRow {
  readonly scenario: Scenario;
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
  /** Whole walks of one status through the service's store, with their read units. */
  readonly walks: readonly WalkUnits[];
  readonly cost: readonly CostRow[];
}

const DOC = 'docs/performance.md';
const millions = (ir: number): string => (ir / 1e6).toFixed(2);
const signedKb = (bytes: number): string => `${bytes >= 0 ? '+' : ''}${kb(bytes)}`;
const ratio = (value: number, floor: number): string => `${fixed(value / floor, 3)}×`;
const FLOOR_LABEL: Record<FloorKind, string> = { plain: 'plain floor', same: 'same-options floor' };

/** The instruction tables: each function against its operation's floors, every bundle, and the bytes by package. */
export function renderInstructions(rows: readonly InstructionRow[], nodeStart: number): string {
  const of = (name: string): InstructionRow => {
    const row = rows.find((r) => r.bundle.name === name);
    if (!row) throw new Error(`no instruction count for ${name}`);
    return row;
  };
  const functionRows = FUNCTION_SCENARIOS.map((s) => {
    const { bundle, count } = of(s.operation.functionId);
    const [plain, same] = FLOOR_KINDS.map((kind) => of(floorName(kind, s)).count);
    if (!plain || !same) throw new Error(`no floors for ${s.id}`);
    return [
      s.label,
      thousands(bundle.bytes),
      signedKb(bundle.bytes - of(floorName('same', s)).bundle.bytes),
      millions(count.import),
      millions(count.import + count.first),
      millions(count.warm),
      ...[plain, same].flatMap((floor) => [
        ratio(count.import, floor.import),
        ratio(count.import + count.first, floor.import + floor.first),
      ]),
      ratio(count.warm, same.warm),
    ];
  });
  const bundleRows = [
    ['Node.js alone (`node -e 0`)', '', '', '', '', millions(nodeStart), ''],
    ...FUNCTION_SCENARIOS.flatMap((s) =>
      [...FLOOR_KINDS.map((kind) => floorName(kind, s)), s.operation.functionId].map((name) => {
        const { bundle, count } = of(name);
        return [
          bundle.kind === 'function' ? `\`${name}\`` : `${FLOOR_LABEL[bundle.kind]}, ${s.operation.operationId}`,
          thousands(bundle.bytes),
          ...[count.import, count.first, count.import + count.first, nodeStart + count.import + count.first, count.warm].map(millions),
        ];
      }),
    ),
  ];
  return `## CPU instructions: cold start and warm invocations

Millions of instructions (valgrind callgrind): the import, the first invocation, and the mean of ${WARM_INVOCATIONS} warm ones,
each bundle in a fresh process on its operation's valid request. How, what the floors are, and the
targets: [${DOC}, "Measuring CPU"](${DOC}#measuring-cpu-instruction-counts).

${markdownTable(
  [
    'function',
    'bytes',
    'KB over same-options floor',
    'import M',
    'import + first M',
    'warm M',
    'import ÷ plain floor',
    'import + first ÷ plain floor',
    'import ÷ same-options floor',
    'import + first ÷ same-options floor',
    'warm ÷ same-options floor',
  ],
  functionRows,
)}

${markdownTable(['bundle', 'bytes', 'import M', 'first M', 'import + first M', 'Node.js + import + first M', 'warm M'], bundleRows)}

### What a function bundle adds to its same-options floor, by package (esbuild metafile)

${markdownTable(['package', ...FUNCTION_SCENARIOS.map((s) => `\`${s.operation.functionId}\` KB`)], packageDeltas(rows))}
`;
}

export function render(run: BenchRun): string {
  const m = run.machine;
  const who = ['api', 'baseline'] as const;
  const throughputRows = run.throughput.map((r) => [
    r.scenario.label,
    ...who.map((w) => thousands(r[w].rps)),
    `**${fixed(r.api.rps / r.baseline.rps, 2)}×**`,
    r.api.roundsRps.map((rps, i) => fixed(rps / (r.baseline.roundsRps[i] ?? Number.NaN), 2)).join(' / '),
  ]);
  const triple = (r: ThroughputRow, f: (l: LoadResult) => number, digits: number) => who.map((w) => fixed(f(r[w]), digits)).join(' / ');
  const detailRows = run.throughput.map((r) => [
    r.scenario.label,
    triple(r, (l) => l.p50Ms, 1),
    triple(r, (l) => l.p99Ms, 1),
    triple(r, (l) => l.serverCpuMs, 3),
    fixed(r.api.serverCpuMs - r.baseline.serverCpuMs, 3),
    fixed(r.api.storeCpuMs, 3),
  ]);
  const problems = run.throughput
    .flatMap((r) => who.map((w) => ({ what: `${r.scenario.id}, ${w}`, result: r[w] })))
    .filter((p) => p.result.non2xx > 0 || p.result.errors > 0);
  const walkRows = run.walks.map((w) => [
    ...[w.tablePets, w.statusPets, w.limit, w.pages, w.calls].map(thousands),
    fixed(w.readUnits, 1),
    `**${fixed(w.readUnits / w.pages, 2)}**`,
  ]);
  const timingRows = run.handlerTimings.map((t) => [
    t.scenario,
    String(t.invocations),
    ...[t.medianMs, t.meanMs, t.p99Ms].map((ms) => fixed(ms, 2)),
    fixed(t.cpuMs, 3),
    fixed(t.billedMeanMs, 2),
    fixed(t.logBytesPerInvocation, 0),
    Object.entries(t.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', '),
  ]);

  return `# Benchmarks

Generated by \`${run.command}\` on ${run.startedAt.toISOString()} in ${fixed(run.seconds, 0)} s on ${m.cpuModel}, ${m.cores} cores,
${m.memoryGiB} GiB, Node.js ${m.node}, ${m.platform}. Do not edit by hand: run it again. What each table
measures, and how to read it: [${DOC}](${DOC}).

${renderInstructions(run.instructions, run.nodeStart)}
## Throughput and latency: local API and baseline

${run.load.connections} connections, ${run.load.durationSeconds} s per measurement after ${run.load.warmupSeconds} s of warm-up, ${run.rounds} round(s), the servers' order reversed each
round ([${DOC}, "Wall clock"](${DOC}#wall-clock-latency-and-throughput)).

${markdownTable(['scenario', 'local API req/s', 'baseline req/s', 'API ÷ baseline', 'API ÷ baseline by round'], throughputRows)}

${markdownTable(['scenario (API / baseline)', 'p50 ms', 'p99 ms', 'CPU ms/req', 'API − baseline CPU ms/req', 'store CPU ms/req'], detailRows)}
${problems.length > 0 ? `\n**Warning:** non-2xx responses or errors in ${problems.map((p) => `${p.what} (${p.result.non2xx} non-2xx, ${p.result.errors} errors of ${p.result.requests})`).join('; ')}.\n` : '\nEvery response was 2xx; no errors or timeouts.\n'}
## Read units of a whole status walk

A page costs O(limit) reads whatever the table holds ([docs/data-model.md](docs/data-model.md#listing)).

${markdownTable(['pets in the table', 'pets of the status', 'limit', 'pages', 'store calls', 'read units', 'read units / page'], walkRows)}

## Handler duration in process

${markdownTable(['scenario', 'invocations', 'median ms', 'mean ms', 'p99 ms', 'CPU ms / invocation', 'billed ms (mean of ceil)', 'log bytes / invocation', 'statuses'], timingRows)}

## Cost per million requests (estimate)

${[...new Set(run.cost.map((r) => `${r.input.config.stage}: ${r.input.config.memoryMb} MB ${r.input.config.architecture} ${r.input.config.runtime}`))].join('; ')}; prices
${PRICES.region}, ${PRICES.asOf} ([${DOC}, "Cost per million requests"](${DOC}#cost-per-million-requests)).

${costTable(run.cost)}

${costArithmetic(run.cost)}
`;
}

/** Packages whose bytes differ between a function bundle and its same-options floor, largest first. */
function packageDeltas(rows: readonly InstructionRow[]): string[][] {
  const bundleOf = (name: string): Bundle => {
    const bundle = rows.find((r) => r.bundle.name === name)?.bundle;
    if (!bundle) throw new Error(`no bundle ${name}`);
    return bundle;
  };
  const pairs = FUNCTION_SCENARIOS.map((s) => ({ fn: bundleOf(s.operation.functionId), floor: bundleOf(floorName('same', s)) }));
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
