/**
 * What a run prints: latency percentiles per operation, responses by status, and the SLO verdict.
 */
import { OPERATIONS, type Slo } from './options.ts';
import { Latencies } from './latency.ts';
import type { LoadTestResult, OperationStats } from './run.ts';

export interface SloCheck {
  readonly name: string;
  readonly target: string;
  readonly actual: string;
  readonly met: boolean;
}

export interface Verdict {
  readonly met: boolean;
  readonly checks: readonly SloCheck[];
  readonly totals: {
    readonly requests: number;
    readonly responses: number;
    readonly status5xx: number;
    readonly unexpected4xx: number;
    readonly errorRate: number;
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
  };
}

export function evaluate(result: LoadTestResult, slo: Slo): Verdict {
  const stats = OPERATIONS.map((op) => result.operations[op]);
  const latencies = Latencies.merge(stats.map((s) => s.latencies));
  const statuses = mergeStatuses(stats);
  const responses = latencies.count;
  const requests = responses + result.networkErrors;
  const status5xx = sum([...statuses].filter(([code]) => code >= 500).map(([, n]) => n));
  const unexpected4xx = sum(
    [...statuses].filter(([code]) => code >= 400 && code < 500 && !slo.expected4xx.includes(code)).map(([, n]) => n),
  );
  const errorRate = requests === 0 ? 1 : (status5xx + result.networkErrors) / requests;
  const p99 = latencies.percentile(99);
  const checks: SloCheck[] = [
    { name: 'responses', target: '> 0', actual: String(responses), met: responses > 0 },
    { name: 'p99 latency', target: `≤ ${slo.p99Ms} ms`, actual: `${fmt(p99)} ms`, met: responses > 0 && p99 <= slo.p99Ms },
    {
      name: 'error rate (5xx + network errors)',
      target: `≤ ${pct(slo.errorRate)}`,
      actual: `${pct(errorRate)} (${status5xx + result.networkErrors} of ${requests})`,
      met: errorRate <= slo.errorRate,
    },
    {
      name: `unexpected 4xx${slo.expected4xx.length > 0 ? ` (expected: ${slo.expected4xx.join(', ')})` : ''}`,
      target: '0',
      actual: String(unexpected4xx),
      met: unexpected4xx === 0,
    },
  ];
  return {
    met: checks.every((c) => c.met),
    checks,
    totals: { requests, responses, status5xx, unexpected4xx, errorRate, p50: latencies.percentile(50), p95: latencies.percentile(95), p99 },
  };
}

export function formatReport(result: LoadTestResult, verdict: Verdict): string {
  const rows: string[][] = [['operation', 'responses', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'statuses']];
  const line = (name: string, stats: readonly OperationStats[]) => {
    const latencies = Latencies.merge(stats.map((s) => s.latencies));
    rows.push([
      name,
      String(latencies.count),
      (latencies.count / Math.max(result.durationSeconds, 0.001)).toFixed(1),
      fmt(latencies.percentile(50)),
      fmt(latencies.percentile(95)),
      fmt(latencies.percentile(99)),
      fmt(latencies.max),
      formatStatuses(mergeStatuses(stats)),
    ]);
  };
  for (const op of OPERATIONS) if (result.operations[op].requests > 0) line(op, [result.operations[op]]);
  line(
    'all',
    OPERATIONS.map((op) => result.operations[op]),
  );

  const statuses = mergeStatuses(OPERATIONS.map((op) => result.operations[op]));
  const out = [
    table(rows),
    '',
    `responses by status: ${formatStatuses(statuses) || 'none'}`,
    `network errors: ${result.networkErrors} (of which timeouts: ${result.timeouts})`,
    `latency (all requests): p50 ${fmt(verdict.totals.p50)} ms, p95 ${fmt(verdict.totals.p95)} ms, p99 ${fmt(verdict.totals.p99)} ms`,
    `pets created: ${result.createdPets}, named loadtest-${result.runId}-<n>`,
    '',
    'SLO',
    table([['check', 'target', 'actual', ''], ...verdict.checks.map((c) => [c.name, c.target, c.actual, c.met ? 'met' : 'MISSED'])]),
    '',
    verdict.met ? 'RESULT: SLO met' : 'RESULT: SLO MISSED',
  ];
  return `${out.join('\n')}\n`;
}

function mergeStatuses(stats: readonly OperationStats[]): Map<number, number> {
  const merged = new Map<number, number>();
  for (const s of stats) for (const [code, n] of s.statuses) merged.set(code, (merged.get(code) ?? 0) + n);
  return new Map([...merged].sort(([a], [b]) => a - b));
}

function formatStatuses(statuses: ReadonlyMap<number, number>): string {
  return [...statuses].map(([code, n]) => `${code}: ${n}`).join(', ');
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function fmt(ms: number): string {
  return Number.isNaN(ms) ? '-' : ms.toFixed(1);
}

function pct(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction < 0.001 && fraction > 0 ? 3 : 2)}%`;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
