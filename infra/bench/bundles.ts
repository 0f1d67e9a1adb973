/**
 * Builds each function's bundle exactly as the CDK does (infra/cdk/bundling.ts handed to esbuild) and
 * the FLOOR bundle with the same options, and says what each bundle holds, by package.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, esbuildBuildOptions } from '../cdk/bundling.ts';
import { trimSourceMap } from '../cdk/source-maps.ts';
import { routes } from '#lib/routes.ts';

export const FLOOR = 'floor';
/**
 * The floor as esbuild bundles it by default, before infra/cdk/bundling.ts loaded Node's built-ins
 * through infra/cdk/builtins/ (its `alias`): the floor the issue #12 targets were set against.
 */
export const PLAIN_FLOOR = 'floor-plain';
/** The FLOOR with the service's zod schemas and one validation (infra/bench/floor-zod-handler.ts). */
export const FLOOR_WITH_ZOD = 'floor-zod';
export type BundleName = (typeof routes)[number]['functionName'] | typeof FLOOR | typeof PLAIN_FLOOR | typeof FLOOR_WITH_ZOD;

export interface Bundle {
  readonly name: BundleName;
  readonly file: string;
  readonly bytes: number;
  readonly sourceMapBytes: number;
  /** Bytes in the output by package (`@smithy/core`, `zod`, …; `(service code)` for lib/ and functions/). */
  readonly byPackage: ReadonlyMap<string, number>;
  readonly metafile: Metafile;
}

export const FUNCTION_NAMES = [...new Set(routes.map((r) => r.functionName))];
export const SERVICE_CODE = '(service code)';

export async function buildBundles(outDir: string): Promise<Bundle[]> {
  const entries: [BundleName, string][] = [
    ...FUNCTION_NAMES.map((name): [BundleName, string] => [name, `functions/${name}.ts`]),
    [FLOOR, 'infra/bench/floor-handler.ts'],
    [PLAIN_FLOOR, 'infra/bench/floor-handler.ts'],
    [FLOOR_WITH_ZOD, 'infra/bench/floor-zod-handler.ts'],
  ];
  return Promise.all(
    entries.map(async ([name, entry]) => {
      const file = join(outDir, name, BUNDLE_FILE);
      // metafile only adds esbuild's report of the inputs; the output bytes are the same.
      const options = esbuildBuildOptions(entry, file);
      if (name === PLAIN_FLOOR) options.alias = {};
      const result = await build({ ...options, metafile: true, logLevel: 'warning' });
      // As the CDK's afterBundling hook does (infra/cdk/constructs/api-function.ts).
      trimSourceMap(`${file}.map`);
      const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(BUNDLE_FILE))?.[1];
      if (!output) throw new Error(`esbuild wrote no ${BUNDLE_FILE} for ${entry}`);
      const byPackage = new Map<string, number>();
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const key = packageOf(input);
        byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
      }
      return {
        name,
        file,
        bytes: (await stat(file)).size,
        sourceMapBytes: (await stat(`${file}.map`)).size,
        byPackage,
        metafile: result.metafile,
      };
    }),
  );
}

function packageOf(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (match?.[1]) return match[1];
  if (/^(lib|functions)\//.test(input)) return SERVICE_CODE;
  return input;
}
