/**
 * `npm run loadtest -- --base-url URL [--ramp 10:100] [--warmup 5] [--stage staging] [--workers N] …`: the scenario written into its
 * run's folder and run by Artillery on this machine (or, with --workers, left for a fleet), then reported: each answer put down to its
 * layer, the checks, a JSON result and an HTML report (`--help`; docs/performance.md "Load testing").
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportHtml } from './loadtest/chart.ts';
import { ensureEngine, runArtillery, writeRunFolder } from './loadtest/engine.ts';
import { classify } from './loadtest/layers.ts';
import { stageModel } from './loadtest/model.ts';
import { HELP, parseOptions } from './loadtest/options.ts';
import { type ArtilleryResults, formatReport, merge, resultJson, runsOf } from './loadtest/report.ts';
import { artilleryScript, type LoadTestOptions, newRunId, type Plan } from './loadtest/scenario.ts';
import { UsageError } from './usage-error.ts';

export const EXIT = { met: 0, missed: 1, usage: 2, unusable: 3 } as const;
const say = (line: string) => process.stdout.write(`${line}\n`);

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
  if (options === 'install') return ensureEngine(say).then(() => EXIT.met);
  const runId = newRunId();
  const dir = path.join(options.outDir, runId);
  const script = artilleryScript(options);
  const load = script.config.petstore.phases.map((p) => `${p.name} ${p.seconds} s at ${p.rate} req/s`);
  await writeRunFolder(dir, script);
  if (options.workers !== undefined) {
    say(`Wrote ${dir} for ${options.workers} workers, each offering 1/${options.workers} of ${load.join(', ')}.`);
    const report = `npm run loadtest:report -- ${path.join(dir, '<id>.json')}`;
    say(`Run it as docs/performance.md "Past one machine" says, each execution a run named by ARTILLERY_TEST_RUN_ID=<id>; then: ${report}`);
    return EXIT.met;
  }
  say(`Pet Store load test ${runId}: ${options.baseUrl.href}; ${load.join(', ')}`);
  const check = await preflight(options);
  if (check) {
    process.stderr.write(`loadtest: ${check}\n`);
    return EXIT.unusable;
  }
  await ensureEngine(say);
  return reportRun([await runArtillery(dir, options.apiKey, runId)], options.cloudAssembly);
}

/**
 * Reports Artillery's results files of one run as one (the plan is the script beside the first): writes result.json and report.html
 * into the run's folder, that file's or a folder of the run's id beside it (a fleet's folder holds each execution's).
 */
export async function reportRun(files: readonly string[], cloudAssembly?: string): Promise<number> {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  const dir = path.dirname(files[0] ?? '');
  const results = merge(files.map((file) => read(file) as ArtilleryResults));
  const runs = runsOf(results);
  if (runs.length > 1)
    throw new UsageError(`${files.join(' ')} are results of ${runs.length} runs (${runs.join(', ')}): report each apart.`);
  const plan = (read(path.join(dir, 'script.json')) as { config: { petstore: Plan } }).config.petstore;
  const json = resultJson(results, plan, plan.stage === null ? undefined : await stageModel(plan.stage, cloudAssembly));
  const out = path.basename(dir) === json.runId ? dir : path.join(dir, json.runId);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'result.json'), `${JSON.stringify(json, null, 1)}\n`);
  writeFileSync(path.join(out, 'report.html'), reportHtml(json));
  say(`\n${formatReport(json)}result: ${path.join(out, 'result.json')}, report: ${path.join(out, 'report.html')}`);
  say(json.verdict.met ? 'RESULT: checks met' : 'RESULT: checks MISSED');
  return json.verdict.met ? EXIT.met : EXIT.missed;
}

/** One `GET /pets?limit=20`: the API is reachable, answers like the Pet Store API and takes the key. Undefined: usable. */
export async function preflight(options: Pick<LoadTestOptions, 'baseUrl' | 'apiKey' | 'timeoutSeconds'>): Promise<string | undefined> {
  const url = `${options.baseUrl.href.replace(/\/+$/, '')}/pets?limit=20`;
  let response: Response;
  try {
    // Only the URL given: a redirect is reported, never followed.
    const headers = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
    response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutSeconds * 1000) });
  } catch (error) {
    return `cannot reach ${url}: ${((error as Error & { cause?: Error }).cause ?? (error as Error)).message}`;
  }
  // The body is the server's to fill: one that echoes the request must not print the key.
  const text = (await response.text()).replaceAll(options.apiKey, '<api key>');
  const layer = classify(response.status, Object.fromEntries(response.headers), text);
  if (layer === 'edge-429')
    return `the web ACL (AWS WAF) is blocking this key or address (429 without X-Request-Id): wait out its window (Retry-After: ${response.headers.get('retry-after') ?? '?'} s) or declare the source.`;
  if (response.status === 401)
    return `the API refused the key (401${layer === 'edge-401' ? ', at the web ACL' : ''}): check --api-key against this stage.`;
  if (response.status >= 300 && response.status < 400)
    return `${url} answered ${response.status} (redirect to ${response.headers.get('location') ?? '?'}); give the final base URL.`;
  if (response.status !== 200) {
    const hint = response.status === 404 && !options.baseUrl.pathname.endsWith('/v1') ? ' The base URL should end in /v1.' : '';
    return `GET ${url} answered ${response.status}: ${text.slice(0, 200)}${hint}`;
  }
  return text.trimStart().startsWith('[') ? undefined : `GET ${url} did not answer with a JSON array of pets; is this the Pet Store API?`;
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
