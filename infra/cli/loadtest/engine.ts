/**
 * Artillery, the load test's engine, in a package of its own (engine/package.json), installed into
 * `.loadtest/engine` on first use; and a run's folder: the script, its processor bundled for
 * Artillery's workers (ours or a fleet's), the payload file, then Artillery's results.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../local/cloud-assembly.ts';

const run = promisify(execFile);
const PACKAGE = path.join(import.meta.dirname, 'engine');
export const ENGINE_DIR = path.join(REPO_ROOT, '.loadtest', 'engine');
export const ARTILLERY = path.join(ENGINE_DIR, 'node_modules', 'artillery', 'bin', 'run');
export const RESULTS = 'results.json';

/** `npm ci` of the engine's package unless its lockfile is what is installed. */
export async function ensureEngine(say: (line: string) => void): Promise<void> {
  const lock = readFileSync(path.join(PACKAGE, 'package-lock.json'), 'utf8');
  const installed = path.join(ENGINE_DIR, 'node_modules', '.package-lock.json');
  if (existsSync(ARTILLERY) && existsSync(installed) && readFileSync(path.join(ENGINE_DIR, 'package-lock.json'), 'utf8') === lock) return;
  say(`Installing the load-test engine (Artillery, about 460 MB) into ${path.relative(process.cwd(), ENGINE_DIR)}: once.`);
  mkdirSync(ENGINE_DIR, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(PACKAGE, file), path.join(ENGINE_DIR, file));
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  await run('npm', ['ci', '--prefix', ENGINE_DIR, '--no-audit', '--no-fund', '--loglevel', 'error'], { env, maxBuffer: 1 << 26 });
}

/** Writes the run's folder: `script.json`, `processor.cjs`, `pets.csv`. */
export async function writeRunFolder(dir: string, script: object): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'script.json');
  writeFileSync(file, `${JSON.stringify(script, null, 2)}\n`);
  copyFileSync(path.join(PACKAGE, 'pets.csv'), path.join(dir, 'pets.csv'));
  const processor = path.join(import.meta.dirname, 'processor.ts');
  await build({
    entryPoints: [processor],
    outfile: path.join(dir, 'processor.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'error',
  });
  return file;
}

/** `artillery run` of the folder's script as run `runId`, the key in the workers' environment; its results beside it. */
export async function runArtillery(dir: string, apiKey: string, runId: string): Promise<string> {
  const results = path.join(dir, RESULTS);
  const env = { ...process.env, PETSTORE_API_KEY: apiKey, ARTILLERY_DISABLE_TELEMETRY: 'true', ARTILLERY_TEST_RUN_ID: runId };
  const script = path.join(dir, 'script.json');
  await run(process.execPath, [ARTILLERY, 'run', script, '--output', results, '--quiet'], { env, maxBuffer: 1 << 28 });
  return results;
}
