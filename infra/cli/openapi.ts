/**
 * `npm run openapi`: writes `openapi.json` at the repository root from the zod schemas and the route table (infra/openapi/document.ts),
 * and says how it differs from the released contract (docs/openapi-released.json).
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../openapi/document.ts';
import { parseCommandLine } from './command-line.ts';
import { CHANGELOG_FILE, compareWithReleased, RELEASED_FILE, readReleased, summarise } from './openapi-compat.ts';

const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));
const CONTRACT_FILE = fileURLToPath(new URL('../openapi/contract.ts', import.meta.url));
const API_VERSION_DECLARATION = /export const API_VERSION = '[^']*';/g;

/** The release in git HEAD (a snapshot named by OPENAPI_RELEASED_FILE, or no git, reads the file). */
async function lastCommittedRelease(): ReturnType<typeof readReleased> {
  const committed = process.env.OPENAPI_RELEASED_FILE
    ? undefined
    : spawnSync('git', ['show', `HEAD:./${path.basename(RELEASED_FILE)}`], { cwd: path.dirname(RELEASED_FILE), encoding: 'utf8' });
  return committed?.status === 0 ? JSON.parse(committed.stdout) : readReleased();
}

const USAGE =
  'usage: npm run openapi [-- --check | --release]\n' +
  '  (no option)  write openapi.json and compare it with the released contract\n' +
  '  --check      write nothing; exit 1 if openapi.json is out of date\n' +
  '  --release    release the generated document: bump info.version, update openapi.json and docs/openapi-released.json\n';

// Strict: a mistyped --check must not quietly turn a CI check into a rewrite that passes.
const { values: options } = parseCommandLine(USAGE, {
  options: { check: { type: 'boolean' }, release: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

const document = buildOpenApiDocument();
const text = serializeOpenApiDocument(document);
if (options.check) {
  const committed = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
  if (committed !== text) {
    process.stderr.write('openapi.json is out of date with the schemas and routes: run npm run openapi\n');
    process.exit(1);
  }
  process.stdout.write('openapi.json is up to date\n');
} else if (options.release) {
  const comparison = compareWithReleased(await lastCommittedRelease(), JSON.parse(text));
  const { nextVersion, releasedVersion, breaking } = comparison;
  if (breaking.length > 0 || !nextVersion) {
    process.stderr.write(`${summarise(comparison)}\n${breaking.length > 0 ? 'Nothing released.' : 'Nothing to release.'}\n`);
    process.exit(breaking.length > 0 ? 1 : 0);
  }
  const changelog = await readFile(CHANGELOG_FILE, 'utf8');
  if (!new RegExp(`^## ${nextVersion.replaceAll('.', '\\.')}\\b`, 'm').test(changelog)) {
    process.stderr.write(`${summarise(comparison)}\ndocs/CHANGELOG.md has no "## ${nextVersion}" section yet. Nothing released.\n`);
    process.exit(1);
  }
  // The one source of info.version: the API_VERSION constant (the released one, or this release's when redone).
  const contract = await readFile(CONTRACT_FILE, 'utf8');
  if (contract.match(API_VERSION_DECLARATION)?.length !== 1) {
    process.stderr.write('infra/openapi/contract.ts must declare API_VERSION once\n');
    process.exit(1);
  }
  await writeFile(CONTRACT_FILE, contract.replace(API_VERSION_DECLARATION, `export const API_VERSION = '${nextVersion}';`));
  const released = serializeOpenApiDocument({ ...document, info: { ...document.info, version: nextVersion } });
  await writeFile(OPENAPI_FILE, released);
  await writeFile(RELEASED_FILE, released);
  process.stdout.write(
    `released ${nextVersion} (was ${releasedVersion}): infra/openapi/contract.ts, openapi.json and docs/openapi-released.json\n`,
  );
} else {
  await writeFile(OPENAPI_FILE, text);
  process.stdout.write(`wrote ${OPENAPI_FILE} (${Buffer.byteLength(text)} bytes)\n`);
  process.stdout.write(`${summarise(compareWithReleased(await lastCommittedRelease(), JSON.parse(text)))}\n`);
}
