/**
 * How every function is bundled, as plain esbuild options. The CDK app maps them onto
 * `NodejsFunction` bundling (infra/cdk/constructs/api-function.ts), and anything else (the cold-start
 * benchmark) can hand them to esbuild directly and get the very bundle Lambda runs:
 *
 *   await build(esbuildBuildOptions('functions/list-pets.ts', 'out/list-pets/index.mjs'));
 *
 * Only the keys below differ from esbuild's defaults; keep the two in step through this object.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/**
 * ESM output has no `require`. Today no bundled module needs one, but a CommonJS dependency that
 * calls `require('node:…')` would otherwise fail only at run time ("Dynamic require of … is not
 * supported"); this gives it one. The unusual local name cannot clash with minified code.
 */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);";

/**
 * Every Node.js built-in the bundles import, mapped to a one-line CommonJS file that hands over
 * `process.getBuiltinModule(…)`. An ESM `import … from 'node:http'` makes Node build the module's
 * ESM facade, which reads every export, and `node:http`'s lazy ones load Node's bundled undici:
 * measured on Node 24, 34 ms for `import('node:http')` against 4 ms through the CommonJS loader,
 * and 8 ms against 0.2 ms for `node:process`. The SDK imports both, so every cold start paid ~40 ms
 * for exports it never uses. One file per built-in in infra/cdk/builtins/ (`fs/promises` → `fs-promises.cjs`);
 * test/cdk/bundling.test.ts fails if a bundle still imports a built-in as ESM.
 */
export const NODE_BUILTIN_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  readdirSync(fileURLToPath(new URL('builtins/', import.meta.url)))
    .filter((file) => file.endsWith('.cjs'))
    .map((file) => [
      `node:${file.slice(0, -'.cjs'.length).replace('-', '/')}`,
      fileURLToPath(new URL(`builtins/${file}`, import.meta.url)),
    ]),
);

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
  // Linked source maps (index.mjs.map), read only when a stack is logged (lib/http/source-mapped-stack.ts),
  // so logged stacks name our .ts files and lines. Without a copy of every source (most of it the
  // AWS SDK's): ~1.9 MB → ~0.65 MB a function.
  sourcemap: true,
  sourcesContent: false,
  // ESM entry points of dependencies first: the AWS SDK's ESM build tree-shakes better.
  mainFields: ['module', 'main'],
  // Nothing external: the AWS SDK is bundled, so the code runs against the SDK version we tested.
  external: [],
  banner: { js: ESM_REQUIRE_SHIM },
  alias: NODE_BUILTIN_ALIASES,
} as const satisfies BuildOptions;

/** Full esbuild options for one entry, written where NodejsFunction would write it. */
export function esbuildBuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    external: [...esbuildOptions.external],
    banner: { ...esbuildOptions.banner },
    alias: { ...esbuildOptions.alias },
    entryPoints: [entry],
    outfile,
  };
}
