/**
 * `npm run loadtest -- --base-url URL [--ramp 10:100] [--warmup 5] [--stage staging] …`: a request mix,
 * each answer put down to its layer, a JSON result and a chart, an SLO (`--help`; docs/performance.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chartSvg } from './loadtest/chart.ts';
import { stageModel } from './loadtest/model.ts';
import { HELP, parseOptions } from './loadtest/options.ts';
import { evaluate, formatReport, resultJson } from './loadtest/report.ts';
import { preflight, runLoad } from './loadtest/run.ts';
import { artilleryScript, newRunId, phases } from './loadtest/scenario.ts';
import { UsageError } from './usage-error.ts';

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
  const load = phases(options).map((p) => `${p.name} ${p.seconds} s${p.rate === undefined ? '' : ` at ${p.rate} req/s`}`);
  if (options.artillery !== undefined) {
    writeFileSync(options.artillery, `${JSON.stringify(artilleryScript(options, runId), null, 2)}\n`);
    process.stdout.write(`Wrote ${options.artillery}: run ${runId}, ${load.join(', ')}; the key comes from $PETSTORE_API_KEY.\n`);
    return EXIT.met;
  }
  process.stdout.write(`Pet Store load test ${runId}: ${options.baseUrl.href}, ${options.connections} connections; ${load.join(', ')}\n`);
  const check = await preflight(options);
  if (!check.ok) {
    process.stderr.write(`loadtest: ${check.message}\n`);
    return EXIT.unusable;
  }
  const model = options.stage === undefined ? undefined : await stageModel(options.stage);
  const result = await runLoad(options, runId, { knownIds: check.ids, progress: (line) => process.stderr.write(`${line}\n`) });
  const json = resultJson(result, options, evaluate(result.measured, options.slo), model);
  mkdirSync(options.outDir, { recursive: true });
  const file = path.join(options.outDir, runId);
  writeFileSync(`${file}.json`, `${JSON.stringify(json, null, 1)}\n`);
  writeFileSync(`${file}.svg`, chartSvg(json));
  process.stdout.write(`\n${formatReport(json, result.measuredSeconds, model)}result: ${file}.json, chart: ${file}.svg\n`);
  if (options.ramp) return EXIT.met;
  process.stdout.write(json.verdict.met ? 'RESULT: SLO met\n' : 'RESULT: SLO MISSED\n');
  return json.verdict.met ? EXIT.met : EXIT.missed;
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
