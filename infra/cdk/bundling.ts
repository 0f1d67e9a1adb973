/** How every function is bundled, as plain esbuild options. */
import type { BuildOptions } from 'esbuild';

/** Lambda's Node.js 24 runtime. */
export const NODE_TARGET = 'node24';

/** The output file name NodejsFunction writes for CommonJS (and the handler module Lambda loads). */
export const BUNDLE_FILE = 'index.js';

/** Written beside the bundle: index.js is CommonJS even inside a folder whose package.json says "type": "module". */
export const BUNDLE_PACKAGE_JSON = '{"type":"commonjs"}';

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  target: NODE_TARGET,
  // CommonJS: Lambda's runtime require()s index.js, and Node's built-ins load through the CommonJS
  // loader without building their ESM facades (npm run bench measures both formats' instructions).
  format: 'cjs', // NodejsFunction: OutputFormat.CJS (infra/cdk/constructs/api-function.ts)
  minify: true,
  // import() becomes require(): the SDK loads some built-ins lazily with import('node:http'), which in
  // a CommonJS bundle would start Node's ESM loader and build the module's ESM facade on the first
  // request (docs/performance.md, "Cold start"). The bundle never touches the ESM loader.
  supported: { 'dynamic-import': false },
  // Linked source maps (index.js.map), read only when a stack is logged (lib/source-mapped-stack.ts), so logged stacks name our .ts
  // files and lines. Without a copy of every source, most of it the AWS SDK's, which a stack never needs.
  sourcemap: true,
  sourcesContent: false,
  // ESM entry points of dependencies first: the AWS SDK's ESM build tree-shakes better.
  mainFields: ['module', 'main'],
  // Nothing external: the AWS SDK is bundled, so the code runs against the SDK version we tested.
  external: [],
  // Lambda's credentials are in the environment: the SDK's other providers stay out of the bundle
  // (docs/performance.md, "Cold start"). From the repository root, where esbuild and NodejsFunction run.
  alias: { '@aws-sdk/credential-provider-node': './infra/cdk/lambda-credentials.ts' },
  // The SDK's test for a web stream body (bodies here are strings and node:http streams) would
  // load Node's web streams on the first request.
  define: { ReadableStream: 'undefined' },
} as const satisfies BuildOptions;

/** Full esbuild options for one entry, written where NodejsFunction would write it. */
export function esbuildBuildOptions(entry: string, outfile: string): BuildOptions {
  // A copy, so that no build can change what every other reads.
  return { ...(structuredClone(esbuildOptions) as BuildOptions), entryPoints: [entry], outfile };
}
