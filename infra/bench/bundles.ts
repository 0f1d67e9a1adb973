/**
 * The bundles the benchmark measures, one set per operation: the function's bundle exactly as the CDK builds it (infra/cdk/bundling.ts
 * handed to esbuild, the source map trimmed as the CDK's hook does), and its floor (infra/bench/floor-handler.ts) twice: bundled
 * plainly, and with the functions' own options.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, BUNDLE_PACKAGE_JSON, esbuildBuildOptions, esbuildOptions } from '../cdk/bundling.ts';
import { trimSourceMap } from '../cdk/source-maps.ts';
import { type Scenario, SCENARIOS } from './scenarios.ts';

/** `plain`: what a user who bundles plainly gets; `same`: built with the functions' own options. */
export type FloorKind = 'plain' | 'same';
export const FLOOR_KINDS = ['plain', 'same'] as const satisfies readonly FloorKind[];

/** Each function is counted on its operation's valid request. */
export const FUNCTION_SCENARIOS = SCENARIOS.filter((s) => !s.query);

export const floorName = (kind: FloorKind, s: Scenario): string => `floor-${kind}-${s.operation.functionId}`;

/** CommonJS for Lambda, minified, with the functions' package builds (the AWS SDK's ESM build): like for like. */
const PLAIN: BuildOptions = { bundle: true, platform: 'node', format: 'cjs', minify: true, mainFields: [...esbuildOptions.mainFields] };

export interface Bundle {
  readonly name: string;
  readonly scenario: Scenario;
  readonly kind: 'function' | FloorKind;
  readonly file: string;
  readonly bytes: number;
  /** Bytes in the output by package (`@smithy/core`, `zod`, …; `(service code)` for lib/ and functions/). */
  readonly byPackage: ReadonlyMap<string, number>;
}

export const SERVICE_CODE = '(service code)';

export async function buildBundles(outDir: string, root: string): Promise<Bundle[]> {
  // Every index.js here is CommonJS, as in a function's asset (infra/cdk/constructs/api-function.ts).
  await writeFile(join(outDir, 'package.json'), BUNDLE_PACKAGE_JSON);
  const one = async (name: string, scenario: Scenario, kind: Bundle['kind'], options: (file: string) => BuildOptions) => {
    const file = join(outDir, name, BUNDLE_FILE);
    const result = await build({ ...options(file), metafile: true, logLevel: 'warning' });
    // As the CDK's afterBundling hook does (infra/cdk/constructs/api-function.ts).
    if (kind === 'function') trimSourceMap(`${file}.map`);
    return described({ name, scenario, kind, file }, result.metafile);
  };
  return Promise.all(
    FUNCTION_SCENARIOS.flatMap((s) => [
      one(s.operation.functionId, s, 'function', (file) =>
        esbuildBuildOptions(join(root, 'functions', `${s.operation.functionId}.ts`), file),
      ),
      ...FLOOR_KINDS.map((kind) =>
        one(floorName(kind, s), s, kind, (outfile) => {
          const { entryPoints: _, ...same } = esbuildBuildOptions('', outfile);
          const contents = `import { ${s.call} as call } from './infra/bench/store-calls.ts';
import { floorHandler } from './infra/bench/floor-handler.ts';
export const handler = floorHandler(call);`;
          return { ...(kind === 'same' ? same : PLAIN), outfile, stdin: { contents, resolveDir: root, loader: 'ts' } };
        }),
      ),
    ]),
  );
}

async function described(bundle: Omit<Bundle, 'bytes' | 'byPackage'>, metafile: Metafile): Promise<Bundle> {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(path) === resolve(bundle.file))?.[1];
  if (!output) throw new Error(`esbuild wrote no ${bundle.file}`);
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = packageOf(input);
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
  }
  return { ...bundle, bytes: (await stat(bundle.file)).size, byPackage };
}

function packageOf(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (match?.[1]) return match[1];
  if (/^(lib|functions)\//.test(input)) return SERVICE_CODE;
  return input;
}
