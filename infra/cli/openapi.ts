/**
 * `npm run openapi`: writes `openapi.json` at the repository root from the zod schemas and the
 * route table (lib/openapi/document.ts). `npm run openapi -- --check` writes nothing and fails when
 * the committed file differs from a fresh generation.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument, serializeOpenApiDocument } from '#lib/openapi/document.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));

const USAGE =
  'usage: npm run openapi [-- --check]\n  (no option)  write openapi.json\n  --check      write nothing; exit 1 if openapi.json is out of date\n';

let options: { check?: boolean; help?: boolean };
try {
  // Strict: a mistyped --check must not quietly turn a CI check into a rewrite that passes.
  ({ values: options } = parseArgs({ options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const text = serializeOpenApiDocument(buildOpenApiDocument());
if (options.check) {
  const committed = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
  if (committed !== text) {
    process.stderr.write('openapi.json is out of date with the schemas and routes: run npm run openapi\n');
    process.exit(1);
  }
  process.stdout.write('openapi.json is up to date\n');
} else {
  await writeFile(OPENAPI_FILE, text);
  process.stdout.write(`wrote ${OPENAPI_FILE} (${Buffer.byteLength(text)} bytes)\n`);
}
