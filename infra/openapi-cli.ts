/**
 * `npm run openapi`: writes `openapi.json` at the repository root from the zod schemas and the
 * route table (lib/openapi/document.ts). `npm run openapi -- --check` writes nothing and fails when
 * the committed file differs from a fresh generation.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../lib/openapi/document.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

const text = serializeOpenApiDocument(buildOpenApiDocument());
if (process.argv.includes('--check')) {
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
