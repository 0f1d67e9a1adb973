/** Small statistics and formatting helpers of the benchmark. */

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A markdown table; the first column left-aligned, the others (numbers) right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const alignment = header.map((_, i) => (i === 0 ? 'l' : 'r'));
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${alignment.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  return lines.join('\n');
}
