/**
 * The bundles the benchmark measures: each function's bundle exactly as the CDK builds it
 * (infra/cdk/bundling.ts handed to esbuild, then the source map trimmed as the CDK's hook does),
 * and the two floors of each operation, bundled with plain esbuild as CommonJS.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, BUNDLE_PACKAGE_JSON, esbuildBuildOptions } from '../cdk/bundling.ts';
import { trimSourceMap } from '../cdk/source-maps.ts';
import type { FunctionId } from '#lib/operations.ts';
import type { ScenarioId } from './scenarios.ts';

/** The operations the floors implement: the one DynamoDB call each function makes. */
export type Operation = 'get' | 'list' | 'create';

export const FUNCTIONS = [
  { name: 'list-pets', operation: 'list', scenario: 'list-status' },
  { name: 'create-pet', operation: 'create', scenario: 'create' },
  { name: 'get-pet', operation: 'get', scenario: 'get' },
] as const satisfies readonly { name: FunctionId; operation: Operation; scenario: ScenarioId }[];

/**
 * `sdk`: the document client and the operation's call (infra/bench/floor-handler.ts); `sdk-zod`:
 * the same plus NewPet parsed once per invocation (infra/bench/floor-zod-handler.ts).
 */
export type FloorKind = 'sdk' | 'sdk-zod';
const FLOOR_SOURCES: Record<FloorKind, string> = {
  sdk: './infra/bench/floor-handler.ts',
  'sdk-zod': './infra/bench/floor-zod-handler.ts',
};
export const floorName = (kind: FloorKind, operation: Operation): string => `floor-${kind}-${operation}`;

/**
 * A floor as plain esbuild bundles it as CommonJS, taking the same build of each package as the
 * functions (the AWS SDK's ESM build, `module` before `main`), so that like is compared with like.
 */
const FLOOR_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  minify: true,
  mainFields: ['module', 'main'],
} as const satisfies BuildOptions;

export interface Bundle {
  readonly name: string;
  readonly operation: Operation;
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
  const functions = FUNCTIONS.map(async ({ name, operation }) => {
    const file = join(outDir, name, BUNDLE_FILE);
    const result = await build({
      ...esbuildBuildOptions(join(root, 'functions', `${name}.ts`), file),
      metafile: true,
      logLevel: 'warning',
    });
    // As the CDK's afterBundling hook does (infra/cdk/constructs/api-function.ts).
    trimSourceMap(`${file}.map`);
    return described({ name, operation, kind: 'function', file }, result.metafile);
  });
  const floors = (['sdk', 'sdk-zod'] as const).flatMap((kind) =>
    (['get', 'list', 'create'] as const).map(async (operation) => {
      const name = floorName(kind, operation);
      const file = join(outDir, name, BUNDLE_FILE);
      const result = await build({
        ...FLOOR_OPTIONS,
        stdin: { contents: `export { ${operation} as handler } from '${FLOOR_SOURCES[kind]}';`, resolveDir: root, loader: 'ts' },
        outfile: file,
        metafile: true,
        logLevel: 'warning',
      });
      return described({ name, operation, kind, file }, result.metafile);
    }),
  );
  return Promise.all([...functions, ...floors]);
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
