/**
 * Cold start: the median time to import a bundle in a fresh Node.js process, with the environment
 * the deployed function has, then (in the same process) the time of the first invocation against
 * the local store. Bundles are spawned round-robin, so drift of the machine hits all alike.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { Bundle, BundleName } from './bundles.ts';

export interface ColdStartSample {
  readonly importMs: number;
  readonly firstInvocationMs: number;
  readonly status: number;
}

export interface ColdStartResult {
  readonly name: BundleName;
  /** With the deployed environment (the template's, NODE_OPTIONS included if it sets one). */
  readonly deployed: readonly ColdStartSample[];
  /** The same plus NODE_OPTIONS=--enable-source-maps, as the functions were deployed until 2026-11-24. */
  readonly withSourceMaps: readonly ColdStartSample[];
}

/** Runs in the fresh process: time the import, then one invocation. */
const SCRIPT = `
const t0 = performance.now();
const mod = await import(process.env.BENCH_MODULE_URL);
const t1 = performance.now();
const context = { ...JSON.parse(process.env.BENCH_CONTEXT), getRemainingTimeInMillis: () => 10000 };
const result = await mod.handler(JSON.parse(process.env.BENCH_EVENT), context);
const t2 = performance.now();
process.stdout.write('\\nBENCH_RESULT ' + JSON.stringify({ importMs: t1 - t0, firstInvocationMs: t2 - t1, status: result.statusCode }) + '\\n');
process.exit(0);
`;

export interface ColdStartInput {
  readonly bundles: readonly Bundle[];
  readonly runs: number;
  /** Environment of every process: the deployed function's variables (NODE_OPTIONS included, if any). */
  readonly env: NodeJS.ProcessEnv;
  /** The first invocation's event and context for each bundle, as JSON. */
  readonly invocation: (name: BundleName) => { event: string; context: string };
}

export async function measureColdStarts(input: ColdStartInput): Promise<ColdStartResult[]> {
  const results = new Map<BundleName, { deployed: ColdStartSample[]; withSourceMaps: ColdStartSample[] }>(
    input.bundles.map((b) => [b.name, { deployed: [], withSourceMaps: [] }]),
  );
  for (let run = 0; run < input.runs; run++) {
    for (const sourceMaps of [false, true]) {
      // Rotate the order each run: no bundle always goes first.
      const order = input.bundles.map((_, i) => input.bundles[(i + run) % input.bundles.length] as Bundle);
      for (const bundle of order) {
        const { event, context } = input.invocation(bundle.name);
        const sample = await spawnOnce({
          ...input.env,
          ...(sourceMaps ? { NODE_OPTIONS: `${input.env.NODE_OPTIONS ?? ''} --enable-source-maps`.trim() } : {}),
          BENCH_MODULE_URL: pathToFileURL(bundle.file).href,
          BENCH_EVENT: event,
          BENCH_CONTEXT: context,
        });
        const entry = results.get(bundle.name);
        (sourceMaps ? entry?.withSourceMaps : entry?.deployed)?.push(sample);
      }
    }
  }
  return input.bundles.map((b) => ({
    name: b.name,
    ...(results.get(b.name) as { deployed: ColdStartSample[]; withSourceMaps: ColdStartSample[] }),
  }));
}

function spawnOnce(env: NodeJS.ProcessEnv): Promise<ColdStartSample> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = /^BENCH_RESULT (.+)$/m.exec(stdout)?.[1];
      if (code !== 0 || !line) return reject(new Error(`cold-start process failed (${code}): ${stderr || stdout}`));
      resolve(JSON.parse(line) as ColdStartSample);
    });
  });
}
