/**
 * How every command reads its arguments: strictly (a mistyped option is a mistake, never ignored),
 * `--help` prints the usage on stdout and exits 0 before any work, and a mistake prints the message
 * and the usage on stderr and exits 2.
 */
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
