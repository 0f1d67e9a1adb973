/**
 * What a run reports, from Artillery's results (one machine's or a fleet's, the processor's metrics) and the plan its script carries:
 * planned vs sent, answers per operation and per layer, the warm-up apart, a ramp's steps and where each limit was first met, what each
 * method admitted against the stage's limits, and the checks; all of it per second as JSON, which the chart draws.
 */
import { sum } from '../../cdk/capacity.ts';
import { table as columns } from '../command-line.ts';
import { LIMITS, OUTCOMES, type Outcome, REFUSED } from './layers.ts';
import type { StageModel } from './model.ts';
import { FLOWS, type Flow, flowSteps, OPERATIONS, type Plan } from './scenario.ts';

/** Artillery's `--output` file, as far as the report reads it. */
export interface ArtilleryResults {
  readonly aggregate: {
    readonly firstMetricAt?: number;
    readonly counters: Readonly<Record<string, number>>;
    readonly summaries: Readonly<Record<string, Summary>>;
  };
}
type Summary = { count: number; p50: number; p95: number; p99: number; max: number };

/**
 * A run's results in parts (its workers' or machines' files) as one: counters and counts add up. A file holds each histogram's summary,
 * not its sketch, so p50 is the parts' mean by count, an estimate, and p95, p99 and max the greatest part's: the whole's lies between.
 */
export function merge(parts: readonly ArtilleryResults[]): ArtilleryResults {
  const counters: Record<string, number> = {};
  const summaries: Record<string, Summary> = {};
  for (const { aggregate } of parts) {
    for (const [name, n] of Object.entries(aggregate.counters)) counters[name] = (counters[name] ?? 0) + n;
    for (const [name, b] of Object.entries(aggregate.summaries)) {
      const a = summaries[name];
      const [count, top] = [(a?.count ?? 0) + b.count, (q: 'p95' | 'p99' | 'max') => Math.max(a?.[q] ?? 0, b[q])];
      summaries[name] = a
        ? { count, p50: (a.p50 * a.count + b.p50 * b.count) / count, p95: top('p95'), p99: top('p99'), max: top('max') }
        : b;
    }
  }
  return { aggregate: { firstMetricAt: Math.min(...parts.map((p) => p.aggregate.firstMetricAt ?? 0)), counters, summaries } };
}

/** The runs these results are of: the processor counts each arrival under its run's id. */
export const runsOf = (results: ArtilleryResults) =>
  Object.keys(results.aggregate.counters).flatMap((name) => /^lt\|run\|(.+)$/.exec(name)?.[1] ?? []);

const SERVER_ERRORS: readonly Outcome[] = ['lambda-503', 'store-503', 'timeout-504', '5xx', 'network', 'timeout'];
const STATUS_OF: Partial<Record<Outcome, number>> = { 'edge-401': 401, 'edge-403': 403, 'edge-429': 429, 'throttle-429': 429, '4xx': 0 };
const OUTCOMES_4XX = Object.keys(STATUS_OF) as Outcome[];
/** A run offered its plan when it sent this share of the planned arrivals. */
const OFFERED = 0.99;

type Stats = Record<'requests', number> & Record<'p50' | 'p95' | 'p99' | 'max', number | null>;

/** The run as JSON: its plan, every phase and every second, the measurement, the checks. */
export function resultJson(results: ArtilleryResults, plan: Plan, model?: StageModel) {
  const json = measure(results, plan, model);
  return { ...json, verdict: evaluate(json) };
}
export type ResultJson = ReturnType<typeof resultJson>;
type Unjudged = ReturnType<typeof measure>;

function measure(results: ArtilleryResults, plan: Plan, model?: StageModel) {
  const { counters, summaries } = results.aggregate;
  const stats = (scope: string, op: string, o: string): Stats => {
    const name = `lt|${scope}|${op}|${o}`;
    const h = summaries[name];
    const requests = (h?.count ?? 0) + (counters[name] ?? 0);
    return { requests, p50: h?.p50 ?? null, p95: h?.p95 ?? null, p99: h?.p99 ?? null, max: h?.max ?? null };
  };
  const summary = (scope: string) => {
    const outcomes = (op: string) =>
      Object.fromEntries(
        (Object.keys(OUTCOMES) as Outcome[]).map((o) => [o, stats(scope, op, o)]).filter(([, s]) => (s as Stats).requests),
      );
    return {
      ...stats(scope, '*', '*'),
      operations: Object.fromEntries(
        OPERATIONS.map((op) => [op, { ...stats(scope, op, '*'), outcomes: counts(outcomes(op) as Partial<Record<Outcome, Stats>>) }]),
      ),
      outcomes: outcomes('*') as Partial<Record<Outcome, Stats>>,
    };
  };
  let startedAt = 0;
  const phases = plan.phases.map((p, i) => {
    const at = startedAt;
    startedAt += p.seconds;
    return { ...p, startedAt: at, planned: p.arrivals * plan.workers, ...summary(`p${i}`) };
  });
  const named = [...Object.keys(counters), ...Object.keys(summaries)];
  const last = Math.max(startedAt, ...named.map((n) => Number(/^lt\|s(\d+)\|/.exec(n)?.[1] ?? -1) + 1));
  const seconds = Array.from({ length: last }, (_, t) => {
    const phase = phases.find((p) => t >= p.startedAt && t < p.startedAt + p.seconds);
    const planned = phase ? phase.planned / phase.seconds : 0;
    return { t, phase: phase?.name ?? 'after', planned, arrivals: counters[`lt|s${t}|arrivals`] ?? 0, ...summary(`s${t}`) };
  });
  const measured = { ...summary('m'), seconds: sum(phases.map((p) => (p.warmup ? 0 : p.seconds))) };
  const [planned, arrivals] = [sum(phases.map((p) => p.planned)), sum(seconds.map((s) => s.arrivals))];
  // Arrivals a generator sends late are not the plan (a stalled generator catches up later): each
  // phase counts those of its own seconds (and the next, as timers drift), up to its plan.
  const sent = (p: (typeof phases)[number]) => sum(seconds.slice(p.startedAt, p.startedAt + p.seconds + 1).map((s) => s.arrivals));
  const inTime = sum(phases.map((p) => Math.min(p.planned, sent(p))));
  return {
    // Results without the processor's run count (a script that carried its id) are the script's run.
    runId: runsOf(results)[0] ?? (plan as { runId?: string }).runId ?? '?',
    ...plan,
    startedAt: new Date(results.aggregate.firstMetricAt ?? 0).toISOString(),
    offered: { planned, arrivals, inTime, skipped: counters['vusers.skipped'] ?? 0 },
    // Requests without an answer, by Artillery's error code (ETIMEDOUT, ECONNRESET…).
    errors: Object.fromEntries(Object.entries(counters).flatMap(([name, n]) => (name.startsWith('errors.') ? [[name.slice(7), n]] : []))),
    createdPets: sum(phases.map((p) => p.operations.createPet?.outcomes.ok ?? 0)),
    phases,
    seconds,
    measured,
    ...(model ? { model } : {}),
  };
}

const counts = (outcomes: Partial<Record<Outcome, Stats>>) =>
  Object.fromEntries(Object.entries(outcomes).map(([o, s]) => [o, s.requests])) as Partial<Record<Outcome, number>>;

/** The 4xx a run expects: the SLO's, and the gateway's 429 when a ramp is meant to reach a method's limit. */
const expected4xx = (json: Pick<Unjudged, 'slo' | 'ramp'>) =>
  new Set<Outcome>([
    ...OUTCOMES_4XX.filter((o) => json.slo.expected4xx.includes(STATUS_OF[o] as number)),
    ...(json.ramp ? (['throttle-429'] as const) : []),
  ]);

export function evaluate(json: Unjudged) {
  const { slo, measured: m, offered } = json;
  const requests = m.requests;
  const of = (o: Outcome) => m.outcomes[o]?.requests ?? 0;
  const [answers, errors, allowed] = [requests - of('network') - of('timeout'), sum(SERVER_ERRORS.map(of)), expected4xx(json)];
  const unexpected = sum(OUTCOMES_4XX.map((o) => (allowed.has(o) ? 0 : of(o))));
  const errorRate = requests === 0 ? 1 : errors / requests;
  const p99 = m.p99 ?? Number.NaN;
  const checks = [
    {
      name: 'offered (arrivals sent in time of planned)',
      target: `≥ ${pct(OFFERED)}`,
      actual: `${pct(offered.inTime / Math.max(1, offered.planned))} (${offered.inTime} of ${offered.planned})`,
      met: offered.inTime >= OFFERED * offered.planned,
    },
    { name: 'responses', target: '> 0', actual: String(answers), met: answers > 0 },
    { name: 'p99 latency', target: `≤ ${slo.p99Ms} ms`, actual: `${fmt(p99)} ms`, met: answers > 0 && p99 <= slo.p99Ms },
    {
      name: 'error rate (5xx + network errors)',
      target: `≤ ${pct(slo.errorRate)}`,
      actual: `${pct(errorRate)} (${errors} of ${requests})`,
      met: errorRate <= slo.errorRate,
    },
    {
      name: `unexpected 4xx${allowed.size ? ` (expected: ${[...allowed].join(', ')})` : ''}`,
      target: '0',
      actual: String(unexpected),
      met: unexpected === 0,
    },
  ];
  return { met: checks.every((c) => c.met), checks };
}

export function formatReport(json: ResultJson): string {
  const { measured: m, slo, offered } = json;
  const T = m.seconds;
  const warmup = json.phases.find((p) => p.warmup);
  const steps = json.phases.filter((p) => !p.warmup);
  const list = (counted: Readonly<Record<string, number | undefined>>) => Object.entries(counted).map(([o, n]) => `${o} ${n}`);
  const opRows = [...OPERATIONS.filter((op) => m.operations[op]?.requests), 'all'].map((op) => {
    const s = m.operations[op] ?? { ...m, outcomes: counts(m.outcomes) };
    return [op, String(s.requests), (s.requests / T).toFixed(1), ...[s.p50, s.p95, s.p99, s.max].map(fmt), list(s.outcomes).join(', ')];
  });
  // Where each outcome was first met: the first phase that has it, and its first second.
  const first = (o: Outcome) => {
    const phase = json.phases.find((p) => p.outcomes[o]);
    const s = json.seconds.find((x) => x.outcomes[o]);
    return phase && s ? `${s.t} s (${phase.name}, ${phase.rate} req/s offered)` : undefined;
  };
  const layerRows = (Object.keys(OUTCOMES) as Outcome[])
    .filter(first)
    .map((o) => [o, String(m.outcomes[o]?.requests ?? 0), first(o) ?? '', OUTCOMES[o][0]]);
  // A request counts in the second and the phase it was sent in: the first second is in the first phase.
  const at = (o: Outcome) => json.seconds.findIndex((s) => s.outcomes[o]);
  const limitFirst = LIMITS.filter(first).sort((a, b) => at(a) - at(b))[0];
  const flows = (Object.keys(FLOWS) as Flow[]).filter((f) => json.mix[f]).map((f) => `${f} ${json.mix[f]} (${flowSteps(f).join(' → ')})`);
  const out = [
    `Pet Store load test ${json.runId}: ${json.target}${json.workers > 1 ? `, ${json.workers} workers` : ''}; flows ${flows.join(', ')}; think ${json.thinkSeconds} s`,
    `Offered: ${offered.inTime} of ${offered.planned} planned arrivals in time (${pct(offered.inTime / Math.max(1, offered.planned))}), ${Math.max(0, offered.arrivals - offered.inTime)} late${offered.skipped ? `, ${offered.skipped} skipped at --max-vusers` : ''}; ${m.requests} requests measured in ${T} s after ${warmup ? `a ${warmup.seconds} s warm-up` : 'no warm-up'}`,
    columns([['operation', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'outcomes'], ...opRows], true),
    '\nBy layer (each answer told apart by what it carries)',
    columns([['outcome', 'measured', 'first seen', 'answered by'], ...layerRows], true),
    `limit met first: ${limitFirst ? `${limitFirst} at ${first(limitFirst)}` : 'none'}`,
  ];
  if (Object.keys(json.errors).length) out.push(`no answer, by error: ${list(json.errors).join(', ')}`);
  if (json.ramp) out.push("throttle-429 expected: a ramp is meant to reach the methods' buckets");
  if (warmup)
    out.push(
      `warm-up (apart from the measurement; cold starts): ${warmup.requests} requests, p50 ${fmt(warmup.p50)} ms, p99 ${fmt(warmup.p99)} ms, max ${fmt(warmup.max)} ms`,
    );
  if (steps.length > 1) {
    const stepRows = steps.map((p) => {
      const perSecond = (n = 0) => (n / p.seconds).toFixed(1);
      const limits = list(counts(p.outcomes)).filter((text) => LIMITS.some((o) => text.startsWith(`${o} `)));
      const admitted = p.requests - sum(REFUSED.map((o) => p.outcomes[o]?.requests ?? 0));
      const rates = [p.requests, admitted, p.outcomes.ok?.requests].map(perSecond);
      return [p.name, String(p.rate), ...rates, fmt(p.p99), limits.join(', ') || '-'];
    });
    const crossed = steps.find((p) => (p.p99 ?? 0) > slo.p99Ms);
    out.push('\nRamp', columns([['step', 'planned/s', 'sent/s', 'admitted/s', 'ok/s', 'p99 ms', 'limits met'], ...stepRows], true));
    out.push(
      `p99 ${crossed ? `crosses the SLO (${slo.p99Ms} ms) at ${crossed.name} (${crossed.rate} req/s offered)` : `stayed within the SLO (${slo.p99Ms} ms) at every step`}`,
    );
  }
  if (json.model) out.push('', ...formatModel(json, json.model));
  const checks = json.verdict.checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED']);
  out.push('\nChecks (measured requests)', columns([['check', 'target', 'actual', ''], ...checks], true));
  out.push(
    `pets created: ${json.createdPets} answered, named loadtest-${json.runId}-<n> (npm run loadtest:cleanup -- ${json.runId} finds all)`,
  );
  return `${out.join('\n')}\n`;
}

/** Each method's offered and admitted rates against B + r × T, and the run's busiest window against each web ACL rule. */
function formatModel(json: ResultJson, model: StageModel): string[] {
  const T = json.measured.seconds;
  const rows = OPERATIONS.filter((op) => json.measured.operations[op]?.requests).map((op) => {
    const { method, rateLimit: r, burstLimit: b } = model.methods[op];
    const { requests = 0, outcomes = {} } = json.measured.operations[op] ?? {};
    const [admitted, ceiling] = [requests - sum(REFUSED.map((o) => outcomes[o] ?? 0)), b + r * T];
    const peak = Math.max(...json.seconds.filter((s) => s.phase !== 'warm-up').map((s) => s.operations[op]?.requests ?? 0));
    const [reached, share] = [peak >= r ? 'yes' : 'no', pct(admitted / Math.min(ceiling, Math.max(1, requests)))];
    return [op, method, ...[r, b, peak].map(String), reached, String(admitted), (admitted / T).toFixed(1), ceiling.toFixed(0), share];
  });
  const totals = json.seconds.map((s) => s.requests);
  const edge = json.seconds.some((s) => s.outcomes['edge-429']);
  let declared = false;
  const rules = model.rateRules.map(({ name, limit, windowSeconds: w }) => {
    const n = Math.max(0, ...totals.map((_, i) => totals.slice(i, i + w).reduce((a, b) => a + b, 0)));
    declared ||= n > limit && !edge;
    const verdict = n <= limit ? 'within' : edge ? 'over: the edge answered 429' : 'over, with no edge 429: a source the web ACL exempts';
    return `  ${name}: ${limit} per ${w} s; this run's busiest ${w} s: ${n} (${verdict})`;
  });
  const header = ['operation', 'method', 'r/s', 'B', 'peak sent/s', 'reached r', 'admitted', 'admitted/s', 'B + r×T', 'of what it could'];
  return [
    `Against the stage's limits (${model.source}; r and B from the capacity model)`,
    columns([header, ...rows], true),
    "web ACL rate rules (one key and one address: this run's requests)",
    ...rules,
    declared
      ? 'This source is declared (loadTestSources): exempt from the per-client rules, so this run measures the stage, not what one client sees.'
      : 'This source is not declared: the per-client rules apply, so this run rehearses what one client sees.',
    'Both layers are approximate and act late (AWS WAF counts over its window; API Gateway throttles best-effort): read these as targets.',
  ];
}

const fmt = (ms: number | null | undefined): string => (ms === null || ms === undefined || Number.isNaN(ms) ? '-' : ms.toFixed(1));
const pct = (fraction: number): string => `${(fraction * 100).toFixed(fraction < 0.001 && fraction > 0 ? 3 : 2)}%`;
