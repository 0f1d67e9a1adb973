/**
 * How every function is bundled, as plain esbuild options. The CDK app maps them onto
 * `NodejsFunction` bundling (infra/constructs/api-function.ts), and anything else (the cold-start
 * benchmark) can hand them to esbuild directly and get the very bundle Lambda runs:
 *
 *   await build(esbuildBuildOptions('functions/list-pets.ts', 'out/list-pets/index.mjs'));
 *
 * Only the keys below differ from esbuild's defaults; keep the two in step through this object.
 */
import type { BuildOptions } from 'esbuild';

/**
 * ESM output has no `require`. Today no bundled module needs one, but a CommonJS dependency that
 * calls `require('node:…')` would otherwise fail only at run time ("Dynamic require of … is not
 * supported"); this gives it one. The unusual local name cannot clash with minified code.
 */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);";

/** Lambda's Node.js 24 runtime. */
export const NODE_TARGET = 'node24';

/** The output file name NodejsFunction writes for ESM (and the handler module Lambda loads). */
export const BUNDLE_FILE = 'index.mjs';

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  target: NODE_TARGET,
  format: 'esm',
  minify: true,
  // Linked source maps (index.mjs.map), read at run time via --enable-source-maps: stack traces name
  // our .ts files and lines. Without a copy of every source (most of it the AWS SDK's): the map
  // shrinks from ~1.9 MB to a fraction, and every cold start parses it.
  sourcemap: true,
  sourcesContent: false,
  // ESM entry points of dependencies first: the AWS SDK's ESM build tree-shakes better.
  mainFields: ['module', 'main'],
  // Nothing external: the AWS SDK is bundled, so the code runs against the SDK version we tested.
  external: [],
  banner: { js: ESM_REQUIRE_SHIM },
} as const satisfies BuildOptions;

/** Full esbuild options for one entry, written where NodejsFunction would write it. */
export function esbuildBuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [...esbuildOptions.external],
    banner: { ...esbuildOptions.banner },
    entryPoints: [entry],
    outfile,
  };
}
