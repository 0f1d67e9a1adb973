/**
 * `npm run loadtest -- --base-url URL --api-key KEY [--duration S] [--connections N] [--mix ...]`:
 * a realistic request mix against local mode or a deployed stage, judged against an SLO. `--help`
 * lists every flag, the SLO defaults and the exit statuses (docs/performance.md explains them).
 */
import { formatMix, HELP, parseOptions } from './loadtest/options.ts';
import { UsageError } from './usage-error.ts';
import { evaluate, formatReport } from './loadtest/report.ts';
import { newRunId, preflight, runLoad } from './loadtest/run.ts';

export const EXIT = { met: 0, missed: 1, usage: 2, unusable: 3 } as const;

export async function main(argv: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`loadtest: ${error.message}\nRun with --help for usage.\n`);
    return EXIT.usage;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return EXIT.met;
  }

  const runId = newRunId();
  const target = options.baseUrl.href;
  process.stdout.write(
    `Pet Store load test ${runId}: ${target}, ${options.durationSeconds} s x ${options.connections} connections` +
      `${options.rate === undefined ? '' : ` at most ${options.rate} req/s`}, mix ${formatMix(options.mix)}\n`,
  );
  const check = await preflight(options);
  if (!check.ok) {
    process.stderr.write(`loadtest: ${check.message}\n`);
    return EXIT.unusable;
  }
  const result = await runLoad(options, runId, {
    knownIds: check.ids,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  const verdict = evaluate(result, options.slo);
  process.stdout.write(`\n${formatReport(result, verdict)}`);
  return verdict.met ? EXIT.met : EXIT.missed;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`loadtest failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = EXIT.unusable;
    },
  );
}
