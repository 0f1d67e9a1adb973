/** Small statistics and formatting helpers of the benchmark. */
import { Latencies } from '../cli/loadtest/latency.ts';

/** Milliseconds: the 50th percentile, by the one definition the load test uses too (latency.ts). */
export function median(valuesMs: readonly number[]): number {
  const latencies = new Latencies();
  for (const value of valuesMs) latencies.record(value);
  return latencies.percentile(50);
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A markdown table; numbers are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const alignment = header.map((_, i) => align?.[i] ?? (i === 0 ? 'l' : 'r'));
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${alignment.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  return lines.join('\n');
}
