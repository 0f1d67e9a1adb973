/**
 * What a run reports: answers per operation and per layer, the warm-up apart, a ramp's steps and
 * where each limit was first met, what each method admitted against the stage's limits, the SLO
 * verdict; and all of it per second as JSON (`resultJson`), which the chart is drawn from.
 */
import { table as columns } from '../command-line.ts';
import { LIMITS, OUTCOMES, type Outcome } from './layers.ts';
import type { StageModel } from './model.ts';
import type { LoadTestResult, Tally } from './run.ts';
import { type LoadTestOptions, OPERATIONS, type Slo } from './scenario.ts';

const SERVER_ERRORS: readonly Outcome[] = ['lambda-503', 'store-503', 'timeout-504', '5xx', 'network', 'timeout'];
const NO_ANSWER: readonly Outcome[] = ['network', 'timeout'];
const STATUS_OF: Partial<Record<Outcome, number>> = { 'edge-401': 401, 'edge-429': 429, 'throttle-429': 429, '4xx': 0 };

export interface Verdict {
  readonly met: boolean;
  readonly checks: readonly { readonly name: string; readonly target: string; readonly actual: string; readonly met: boolean }[];
}

export function evaluate(tally: Tally, slo: Slo): Verdict {
  const requests = tally.select().requests;
  const answers = tally.select((_, o) => !NO_ANSWER.includes(o)).latencies;
  const errors = tally.select((_, o) => SERVER_ERRORS.includes(o)).requests;
  const unexpected = tally.select((_, o) => STATUS_OF[o] !== undefined && !slo.expected4xx.includes(STATUS_OF[o] as number)).requests;
  const errorRate = requests === 0 ? 1 : errors / requests;
  const p99 = answers.percentile(99);
  const expected = slo.expected4xx.length > 0 ? ` (expected: ${slo.expected4xx.join(', ')})` : '';
  const checks = [
    { name: 'responses', target: '> 0', actual: String(answers.count), met: answers.count > 0 },
    { name: 'p99 latency', target: `≤ ${slo.p99Ms} ms`, actual: `${fmt(p99)} ms`, met: answers.count > 0 && p99 <= slo.p99Ms },
    {
      name: 'error rate (5xx + network errors)',
      target: `≤ ${pct(slo.errorRate)}`,
      actual: `${pct(errorRate)} (${errors} of ${requests})`,
      met: errorRate <= slo.errorRate,
    },
    { name: `unexpected 4xx${expected}`, target: '0', actual: String(unexpected), met: unexpected === 0 },
  ];
  return { met: checks.every((c) => c.met), checks };
}

type Stats = Record<'requests', number> & Record<'p50' | 'p95' | 'p99' | 'max', number | null>;

/** Requests, outcomes and latency percentiles of a tally, per operation and per outcome. */
function summary(tally: Tally) {
  const stats = (keep: (op: string, o: Outcome) => boolean): Stats => {
    const { requests, latencies } = tally.select(keep);
    const p = (q: number) => round(latencies.percentile(q));
    return { requests, p50: p(50), p95: p(95), p99: p(99), max: round(latencies.max) };
  };
  // The outcomes of the operations `keep` selects, each with its count.
  const outcomes = (keep: (op: string) => boolean): Partial<Record<Outcome, number>> =>
    Object.fromEntries(
      (Object.keys(OUTCOMES) as Outcome[]).map((o) => [o, tally.select((op, x) => keep(op) && x === o).requests]).filter(([, n]) => n),
    );
  return {
    ...stats(() => true),
    operations: Object.fromEntries(OPERATIONS.map((op) => [op, { ...stats((o) => o === op), outcomes: outcomes((o) => o === op) }])),
    outcomes: Object.fromEntries(Object.keys(outcomes(() => true)).map((o) => [o, stats((_, x) => x === o)])) as Partial<
      Record<Outcome, Stats>
    >,
  };
}

/** The run as JSON: its settings, every phase and every second, and the verdict. */
export function resultJson(result: LoadTestResult, options: LoadTestOptions, verdict: Verdict, model?: StageModel) {
  const phaseAt = (second: number) => [...result.phases].reverse().find((p) => p.startedAt <= second + 0.5)?.name ?? '';
  return {
    runId: result.runId,
    startedAt: result.startedAt,
    target: options.baseUrl.href,
    mix: options.mix,
    slo: options.slo,
    createdPets: result.createdPets,
    phases: result.phases.map(({ tally, ...p }) => ({ ...p, rate: p.rate ?? null, ...summary(tally) })),
    seconds: result.seconds.map((tally, t) => ({ t, phase: phaseAt(t), ...summary(tally) })),
    measured: summary(result.measured),
    verdict,
    ...(model ? { model } : {}),
  };
}
export type ResultJson = ReturnType<typeof resultJson>;

export function formatReport(json: ResultJson, seconds: number, model?: StageModel): string {
  const { measured: m, slo } = json;
  const warmup = json.phases.find((p) => p.warmup);
  const steps = json.phases.filter((p) => !p.warmup);
  const list = (counts: object) => Object.entries(counts).map(([o, n]) => `${o} ${typeof n === 'number' ? n : n.requests}`);
  const opRows = [...OPERATIONS.filter((op) => m.operations[op]?.requests), 'all'].map((op) => {
    const s = m.operations[op] ?? { ...m, outcomes: m.outcomes };
    return [
      op,
      String(s.requests),
      (s.requests / seconds).toFixed(1),
      ...[s.p50, s.p95, s.p99, s.max].map(fmt),
      list(s.outcomes).join(', '),
    ];
  });
  // The second each outcome was first seen (the warm-up included), in which phase, at what rate.
  const first = (o: Outcome) => json.seconds.find((s) => s.outcomes[o]);
  const at = (o: Outcome) => {
    const s = first(o);
    const rate = json.phases.find((p) => p.name === s?.phase)?.rate;
    return s ? `${s.t} s (${s.phase}${rate ? `, ${rate} req/s offered` : ''})` : 'never';
  };
  const layerRows = (Object.keys(OUTCOMES) as Outcome[])
    .filter(first)
    .map((o) => [o, String(m.outcomes[o]?.requests ?? 0), at(o), OUTCOMES[o][0]]);
  const limitFirst = LIMITS.filter(first).sort((a, b) => (first(a)?.t ?? 0) - (first(b)?.t ?? 0))[0];
  const out = [
    `Measured: ${seconds.toFixed(1)} s${warmup ? ` after a ${warmup.elapsed.toFixed(1)} s warm-up` : ''}`,
    columns([['operation', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'outcomes'], ...opRows], true),
    '\nBy layer (each answer told apart by what it carries)',
    columns([['outcome', 'measured', 'first seen', 'answered by'], ...layerRows], true),
    `limit met first: ${limitFirst ? `${limitFirst} at ${at(limitFirst)}` : 'none'}`,
  ];
  if (warmup) out.push(`warm-up (apart from the measurement; cold starts): ${warmup.requests} requests, ${percentiles(warmup)}`);
  if (steps.length > 1) {
    const stepRows = steps.map((p) => {
      const perSecond = (n = 0) => (n / p.elapsed).toFixed(1);
      const limits = list(p.outcomes).filter((text) => LIMITS.some((o) => text.startsWith(`${o} `)));
      return [p.name, String(p.rate), perSecond(p.requests), perSecond(p.outcomes.ok?.requests), fmt(p.p99), limits.join(', ') || '-'];
    });
    const crossed = steps.find((p) => (p.p99 ?? 0) > slo.p99Ms);
    out.push('\nRamp', columns([['step', 'offered/s', 'sent/s', 'ok/s', 'p99 ms', 'limits met'], ...stepRows], true));
    out.push(
      `p99 ${crossed ? `crosses the SLO (${slo.p99Ms} ms) at ${crossed.name} (${crossed.rate} req/s offered)` : `stayed within the SLO (${slo.p99Ms} ms) at every step`}`,
    );
  }
  if (model) out.push('', ...formatModel(json, seconds, model));
  const checks = json.verdict.checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED']);
  out.push('\nSLO (measured requests)', columns([['check', 'target', 'actual', ''], ...checks], true));
  out.push(
    `pets created: ${json.createdPets} answered, named loadtest-${json.runId}-<n> (npm run loadtest:cleanup -- ${json.runId} finds all)`,
  );
  return `${out.join('\n')}\n`;
}

/** What each method admitted (answers past the edge and its bucket) against B + r × T, and the run's busiest window against each web ACL rule. */
function formatModel(json: ResultJson, seconds: number, model: StageModel): string[] {
  const rows = OPERATIONS.filter((op) => json.measured.operations[op]?.requests).map((op) => {
    const { method, rateLimit: r, burstLimit: b } = model.methods[op];
    const { requests = 0, outcomes = {} } = json.measured.operations[op] ?? {};
    const refused = ['throttle-429', 'edge-429', 'edge-401'] as const;
    const admitted = requests - refused.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
    const ceiling = b + r * seconds;
    return [
      op,
      method,
      String(r),
      String(b),
      String(admitted),
      (admitted / seconds).toFixed(1),
      ceiling.toFixed(0),
      pct(admitted / ceiling),
      String(outcomes['throttle-429'] ?? 0),
    ];
  });
  const counts = json.seconds.map((s) => s.requests);
  const edge = json.seconds.some((s) => s.outcomes['edge-429']);
  const rules = model.rateRules.map(({ name, limit, windowSeconds: w }) => {
    const n = Math.max(0, ...counts.map((_, i) => counts.slice(i, i + w).reduce((a, b) => a + b, 0)));
    const verdict = n <= limit ? 'within' : edge ? 'over: the edge answered 429' : 'over, with no edge 429: a source the web ACL exempts';
    return `  ${name}: ${limit} per ${w} s; this run's busiest ${w} s: ${n} (${verdict})`;
  });
  return [
    `Against the stage's limits (${model.source}; r and B from the capacity model)`,
    columns([['operation', 'method', 'r/s', 'B', 'admitted', 'admitted/s', 'B + r×T', 'of it', 'gateway 429'], ...rows], true),
    "web ACL rate rules (one key and one address: this run's requests)",
    ...rules,
    'Both layers are approximate and act late (AWS WAF counts over its window; API Gateway throttles best-effort): read these as targets.',
  ];
}

const percentiles = (s: { p50: number | null; p99: number | null; max: number | null }) =>
  `p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms`;
const round = (ms: number): number | null => (Number.isNaN(ms) ? null : Math.round(ms * 10) / 10);
const fmt = (ms: number | null | undefined): string => (ms === null || ms === undefined || Number.isNaN(ms) ? '-' : ms.toFixed(1));
const pct = (fraction: number): string => `${(fraction * 100).toFixed(fraction < 0.001 && fraction > 0 ? 3 : 2)}%`;
