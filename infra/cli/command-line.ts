// Strict: a mistyped option is a mistake (usage on stderr, exit 2); `--help` exits 0 before any work.
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function parseCommandLine<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    return usageMistake(usage, (error as Error).message);
  }
  if ((parsed.values as { help?: unknown }).help === true) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return parsed;
}

/** A mistake the parser cannot see (a value out of range): the message and the usage, exit 2. */
export function usageMistake(usage: string, message: string): never {
  process.stderr.write(`${message}\n${usage}`);
  process.exit(2);
}

/** Rows as columns two spaces apart; with `numbers`, a number right-aligned (but in the first and last column). */
export function table(rows: readonly (readonly string[])[], numbers = false): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number, last: boolean) =>
    numbers && i > 0 && !last && !Number.isNaN(Number.parseFloat(text)) ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  return rows
    .map((r) =>
      r
        .map((text, i) => cell(text, i, i === r.length - 1))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
