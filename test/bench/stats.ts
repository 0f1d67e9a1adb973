/** Small statistics and formatting helpers of the benchmark. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Linear-interpolated percentile (p in 0..100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] as number;
  return lowValue + ((sorted[high] as number) - lowValue) * (rank - low);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
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

export function verdict(met: boolean): string {
  return met ? 'met' : '**MISSED**';
}
