/**
 * What a run reports: answers per operation and per layer, the warm-up apart, a ramp's steps and
 * where each limit was first met, what each method admitted against the stage's limits, the SLO
 * verdict; and all of it per second as JSON (`resultJson`), which the chart is drawn from.
 */
import { LIMITS, OUTCOMES, type Outcome } from './layers.ts';
import type { StageModel } from './model.ts';
import { type LoadTestResult, Tally } from './run.ts';
import { type LoadTestOptions, OPERATIONS, type Slo } from './scenario.ts';

const SERVER_ERRORS: readonly Outcome[] = ['lambda-503', 'store-503', 'timeout-504', '5xx', 'network', 'timeout'];
const NO_ANSWER: readonly Outcome[] = ['network', 'timeout'];
const STATUS_OF: Partial<Record<Outcome, number>> = { 'edge-401': 401, 'edge-429': 429, 'throttle-429': 429, '4xx': 0 };

export interface Verdict {
  readonly met: boolean;
  readonly checks: readonly { readonly name: string; readonly target: string; readonly actual: string; readonly met: boolean }[];
}

/** Every phase but the warm-up, and how long they ran. */
export function measured(result: LoadTestResult): { readonly tally: Tally; readonly seconds: number } {
  const phases = result.phases.filter((p) => !p.warmup);
  return { tally: Tally.merge(phases.map((p) => p.tally)), seconds: phases.reduce((sum, p) => sum + p.elapsed, 0) };
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

/** Requests, outcomes and latency percentiles of a tally, per operation and per outcome. */
function summary(tally: Tally) {
  const stats = (keep: (op: string, o: Outcome) => boolean) => {
    const { requests, latencies } = tally.select(keep);
    const p = (q: number) => round(latencies.percentile(q));
    return { requests, p50: p(50), p95: p(95), p99: p(99), max: round(latencies.max) };
  };
  const outcomes = (keep: (op: string) => boolean) =>
    Object.fromEntries(
      (Object.keys(OUTCOMES) as Outcome[]).flatMap((o) => {
        const n = tally.select((op, outcome) => keep(op) && outcome === o).requests;
        return n > 0 ? [[o, n]] : [];
      }),
    ) as Partial<Record<Outcome, number>>;
  return {
    ...stats(() => true),
    operations: Object.fromEntries(OPERATIONS.map((op) => [op, { ...stats((o) => o === op), outcomes: outcomes((o) => o === op) }])),
    outcomes: Object.fromEntries(Object.keys(outcomes(() => true)).map((o) => [o, stats((_, outcome) => outcome === o)])),
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
    measured: summary(measured(result).tally),
    verdict,
    ...(model ? { model } : {}),
  };
}
export type ResultJson = ReturnType<typeof resultJson>;

export function formatReport(json: ResultJson, seconds: number, model?: StageModel): string {
  const warmup = json.phases.find((p) => p.warmup);
  const steps = json.phases.filter((p) => !p.warmup);
  const m = json.measured;
  const opRows = [...OPERATIONS.filter((op) => m.operations[op]?.requests), 'all' as const].map((op) => {
    const s =
      op === 'all' ? { ...m, outcomes: Object.fromEntries(Object.entries(m.outcomes).map(([o, v]) => [o, v.requests])) } : m.operations[op];
    const rate = ((s?.requests ?? 0) / Math.max(seconds, 0.001)).toFixed(1);
    const outcomes = Object.entries(s?.outcomes ?? {})
      .map(([o, n]) => `${o} ${n}`)
      .join(', ');
    return [op, String(s?.requests ?? 0), rate, fmt(s?.p50), fmt(s?.p95), fmt(s?.p99), fmt(s?.max), outcomes];
  });
  // The first second each outcome was seen (the warm-up included), and in which phase at what rate.
  const first = (o: Outcome) => json.seconds.find((s) => s.outcomes[o]);
  const at = (o: Outcome) => {
    const s = first(o);
    const phase = json.phases.find((p) => p.name === s?.phase);
    return s ? `${s.t} s (${s.phase}${phase?.rate ? `, ${phase.rate} req/s offered` : ''})` : 'never';
  };
  const seen = new Set(json.seconds.flatMap((s) => Object.keys(s.outcomes)));
  const layerRows = (Object.keys(OUTCOMES) as Outcome[])
    .filter((o) => seen.has(o))
    .map((o) => [o, String(m.outcomes[o]?.requests ?? 0), at(o), OUTCOMES[o]]);
  const limitFirst = LIMITS.filter((o) => first(o)).sort((a, b) => (first(a)?.t ?? 0) - (first(b)?.t ?? 0))[0];
  const crossed = steps.find((p) => p.p99 !== null && p.p99 > json.slo.p99Ms);
  const out = [
    `Measured: ${seconds.toFixed(1)} s${warmup ? ` after a ${warmup.elapsed.toFixed(1)} s warm-up` : ''}`,
    table([['operation', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'outcomes'], ...opRows]),
    '',
    'By layer (each answer told apart by what it carries)',
    table([['outcome', 'measured', 'first seen', 'answered by'], ...layerRows]),
    `limit met first: ${limitFirst ? `${limitFirst} at ${at(limitFirst)}` : 'none'}`,
  ];
  if (warmup) {
    out.push(
      `warm-up (apart from the measurement; cold starts): ${warmup.requests} requests, p50 ${fmt(warmup.p50)} ms, p99 ${fmt(warmup.p99)} ms, max ${fmt(warmup.max)} ms`,
    );
  }
  if (steps.length > 1) {
    const stepRows = steps.map((p) => {
      const limits = LIMITS.filter((o) => p.outcomes[o]).map((o) => `${o} ${p.outcomes[o]?.requests}`);
      const perSecond = (n: number) => (n / Math.max(p.elapsed, 0.001)).toFixed(1);
      return [
        p.name,
        String(p.rate ?? '-'),
        perSecond(p.requests),
        perSecond(p.outcomes.ok?.requests ?? 0),
        fmt(p.p99),
        limits.join(', ') || '-',
      ];
    });
    out.push('', 'Ramp', table([['step', 'offered/s', 'sent/s', 'ok/s', 'p99 ms', 'limits met'], ...stepRows]));
    out.push(
      crossed
        ? `p99 crosses the SLO (${json.slo.p99Ms} ms) at ${crossed.name} (${crossed.rate} req/s offered)`
        : `p99 stayed within the SLO (${json.slo.p99Ms} ms) at every step`,
    );
  }
  if (model) out.push('', ...formatModel(json, seconds, model));
  out.push(
    '',
    'SLO (measured requests)',
    table([['check', 'target', 'actual', ''], ...json.verdict.checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED'])]),
  );
  out.push(
    `pets created: ${json.createdPets} answered, named loadtest-${json.runId}-<n> (npm run loadtest:cleanup -- ${json.runId} finds all)`,
  );
  return `${out.join('\n')}\n`;
}

/** What each method admitted (answers past the edge and its bucket) against B + r × T, and the web ACL's rules. */
function formatModel(json: ResultJson, seconds: number, model: StageModel): string[] {
  const rows = OPERATIONS.filter((op) => json.measured.operations[op]?.requests).map((op) => {
    const { method, rateLimit: r, burstLimit: b } = model.methods[op];
    const s = json.measured.operations[op];
    const throttled = s?.outcomes['throttle-429'] ?? 0;
    const admitted = (s?.requests ?? 0) - throttled - (s?.outcomes['edge-429'] ?? 0) - (s?.outcomes['edge-401'] ?? 0);
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
      String(throttled),
    ];
  });
  const busiest = (window: number) => {
    const counts = json.seconds.map((s) => s.requests);
    return Math.max(0, ...counts.map((_, i) => counts.slice(i, i + window).reduce((a, b) => a + b, 0)));
  };
  const edge = json.seconds.some((s) => s.outcomes['edge-429']);
  const rules = model.rateRules.map((rule) => {
    const n = busiest(rule.windowSeconds);
    const verdict =
      n <= rule.limit ? 'within' : edge ? 'over: the edge answered 429' : 'over, with no edge 429: a source the web ACL exempts';
    return `  ${rule.name}: ${rule.limit} per ${rule.windowSeconds} s; this run's busiest ${rule.windowSeconds} s: ${n} (${verdict})`;
  });
  return [
    `Against the stage's limits (${model.source}; r and B from the capacity model)`,
    table([['operation', 'method', 'r/s', 'B', 'admitted', 'admitted/s', 'B + r×T', 'of it', 'gateway 429'], ...rows]),
    "web ACL rate rules (one key and one address: this run's requests)",
    ...rules,
    'Both layers are approximate and act late (AWS WAF counts over its window; API Gateway throttles best-effort): read these as targets.',
  ];
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number, last: boolean) =>
    i === 0 || last || Number.isNaN(Number.parseFloat(text)) ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0);
  return rows
    .map((r) =>
      r
        .map((text, i) => cell(text, i, i === r.length - 1))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const round = (ms: number): number | null => (Number.isNaN(ms) ? null : Math.round(ms * 10) / 10);
const fmt = (ms: number | null | undefined): string => (ms === null || ms === undefined || Number.isNaN(ms) ? '-' : ms.toFixed(1));
const pct = (fraction: number): string => `${(fraction * 100).toFixed(fraction < 0.001 && fraction > 0 ? 3 : 2)}%`;
