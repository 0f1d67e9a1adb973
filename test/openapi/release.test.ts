/**
 * The release step (docs/openapi.md, "Releasing"), on a copy of the repository so that nothing it
 * writes can reach the real one. It refuses what the policy corpus (compat-corpus.ts) calls
 * breaking and a release without its changelog section; then, as a maintainer takes it, a change
 * to the source the document is generated from, its section at the top of docs/CHANGELOG.md and
 * `npm run openapi -- --release`, twice: a prose edit (a patch), then a new response (a minor
 * release). The version moves as the policy says, and the suites that read the version and the
 * changelog pass in the copy, whatever the release is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#lib/http/errors.ts';
import { operations } from '#lib/operations.ts';
import { errorsOf } from '#lib/operations/operation.ts';
import { bump, readReleased, versionOf } from '../../infra/cli/openapi-compat.ts';
import { CORPUS, type CorpusCase, type Json } from './compat-corpus.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SUITES = ['test/openapi/openapi.test.ts', 'test/openapi/compat.test.ts', 'test/openapi/compat-corpus.test.ts'];
/** What a release writes. */
const RELEASED_FILES = ['openapi.json', 'infra/openapi/contract.ts', 'docs/openapi-released.json'];
const [edited] = operations;
if (!edited) throw new Error('the API has no operation');
const DESCRIPTOR = `lib/operations/${edited.functionId}.ts`;

/** What vitest's json reporter writes, as far as this test reads it. */
interface VitestReport {
  readonly testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

const released = await readReleased();
let copy: string;
const read = (file: string) => readFile(path.join(copy, file), 'utf8');
const releasedVersion = async () => versionOf(JSON.parse(await read('docs/openapi-released.json')));

/** Replaces the one occurrence of `from` in a file of the copy. */
async function edit(file: string, from: string, to: string): Promise<void> {
  const parts = (await read(file)).split(from);
  if (parts.length !== 2)
    throw new Error(`${file} has ${parts.length - 1} occurrences of ${from}: the release test's edit no longer applies`);
  await writeFile(path.join(copy, file), parts.join(to));
}

/** What the docs say to do: the new version's changelog section first, then the release command. */
async function release(version: string, note: string) {
  const changelog = await read('docs/CHANGELOG.md');
  await writeFile(path.join(copy, 'docs/CHANGELOG.md'), changelog.replace('\n## ', `\n## ${version}\n\n- ${note}\n\n## `));
  return spawnSync('npm', ['run', 'openapi', '--', '--release'], { cwd: copy, encoding: 'utf8' });
}

/**
 * The release step against a corpus case reversed: the edited document as the release, the
 * generated one (the real release) as new, which is exactly what `--release` compares.
 */
async function releaseOver(c: CorpusCase) {
  const document: Json = structuredClone(released);
  c.edit(document);
  const file = path.join(copy, 'edited-release.json');
  await writeFile(file, JSON.stringify(document));
  const cli = path.join(copy, 'infra/cli/openapi.ts');
  return spawnSync(process.execPath, [cli, '--release'], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, OPENAPI_RELEASED_FILE: file },
  });
}
const reversed = (verdict: string) => CORPUS.filter((c) => c.reverse && c.verdict === verdict);
const title = (c: CorpusCase) => `${c.node}: ${c.change}`;
const releasedFiles = () => Promise.all(RELEASED_FILES.map(read));

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'release-'));
  // The working tree as a maintainer has it: its files, tracked or new and not ignored (a linked node_modules is no file).
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  const files = listed.split('\0').filter((file) => file !== '' && lstatSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile());
  await Promise.all(
    files.map(async (file) => {
      await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
      await copyFile(path.join(ROOT, file), path.join(copy, file));
    }),
  );
  // The dependencies linked one by one, all but the template cache (node_modules/.cache), which stays the copy's own.
  await mkdir(path.join(copy, 'node_modules'));
  for (const entry of await readdir(path.join(ROOT, 'node_modules'))) {
    if (entry !== '.cache') await symlink(path.join(ROOT, 'node_modules', entry), path.join(copy, 'node_modules', entry));
  }
});

afterAll(() => (copy ? rm(copy, { recursive: true, force: true }) : undefined));

// Each step is a child process or a whole vitest run; a busy machine may take minutes.
describe('npm run openapi -- --release, on a copy of the repository', () => {
  // Two cases show the release step runs the check the corpus runs in-process (each run costs a second).
  const refused = reversed('breaking').filter((c) => c.node === 'security requirement' || c.node === 'request body');
  it.each(refused.map((c) => [title(c), c] as const))('refuses a breaking change (%s), naming it, and writes nothing', async (_, c) => {
    const before = await releasedFiles();
    const result = await releaseOver(c);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('breaks v1');
    for (const place of c.places) expect(result.stderr).toContain(`- ${place}`);
    expect(result.stderr).toContain('Nothing released.');
    expect(await releasedFiles()).toEqual(before);
  });

  it('refuses a compatible change whose version has no changelog section yet, and writes nothing', async () => {
    const [c] = reversed('compatible');
    if (!c) throw new Error('the corpus has no reversed compatible case');
    const before = await releasedFiles();
    const result = await releaseOver(c);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).not.toContain('breaks v1');
    const next = bump(versionOf(released), 'minor');
    expect(result.stderr).toContain(`docs/CHANGELOG.md has no "## ${next}" section yet. Nothing released.`);
    expect(await releasedFiles()).toEqual(before);
  });

  it('releases a prose edit as a patch and a new response as a minor release, as documented, and the version suites pass on the result', async () => {
    const before = versionOf(released);
    await edit(DESCRIPTOR, `summary: '${edited.summary}'`, `summary: '${edited.summary}, reworded'`);
    const patch = bump(before, 'patch');
    const first = await release(patch, `\`${edited.operationId}\`: its summary reworded.`);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`released ${patch} (was ${before})`);
    expect(await releasedVersion()).toBe(patch);

    // An error status the operation does not document yet: a new response, compatible.
    const documented = new Set([edited.success.status, ...errorsOf(edited).map((code) => ERROR_CODES[code])]);
    // The last such: the corpus itself adds the first (a 404 on the listing) to the released document.
    const code = (Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]).reverse().find((c) => !documented.has(ERROR_CODES[c]));
    await edit(DESCRIPTOR, 'errors: [', `errors: ['${code}', `);
    const minor = bump(patch, 'minor');
    const second = await release(minor, `\`${edited.operationId}\`: may answer ${code}.`);
    expect(second.status, second.stderr).toBe(0);
    expect(await releasedVersion()).toBe(minor);
    expect(JSON.parse(await read('openapi.json')).info.version).toBe(minor);
    expect(await read('infra/openapi/contract.ts')).toContain(`export const API_VERSION = '${minor}';`);

    // The copy's own suites, on its own vitest configuration (vitest's variables would make it a worker of this run).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
    const vitest = path.join(copy, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--reporter=json', '--outputFile=report.json', ...SUITES];
    const run = spawnSync(process.execPath, args, { cwd: copy, env, encoding: 'utf8' });
    const report = JSON.parse(await read('report.json').catch(() => '{"testResults":[]}')) as VitestReport;
    const failed = report.testResults.flatMap((file) =>
      file.assertionResults
        .filter((t) => t.status !== 'passed')
        .map((t) => `${t.fullName}: ${t.status} ${t.failureMessages[0]?.split('\n')[0] ?? ''}`),
    );
    expect(failed).toEqual([]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(report.testResults.map((file) => path.relative(copy, file.name)).sort()).toEqual([...SUITES].sort());
  });
  it('redone before the commit, releases from the last committed release: the same version, not the next one', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=release', '-c', 'user.email=release@example.com', '-c', 'commit.gpgsign=false', ...args], {
        cwd: copy,
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'the last release');
    const before = await releasedVersion();
    await edit(DESCRIPTOR, "summary: '", "summary: 'Now: ");
    const patch = bump(before, 'patch');
    const first = await release(patch, `\`${edited.operationId}\`: its summary reworded again.`);
    expect(first.status, first.stderr).toBe(0);
    // The prose fixed after the release, and the release run again.
    await edit(DESCRIPTOR, "summary: 'Now: ", "summary: 'Now, ");
    const again = spawnSync('npm', ['run', 'openapi', '--', '--release'], { cwd: copy, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`released ${patch} (was ${before})`);
    expect(await releasedVersion()).toBe(patch);
    expect(JSON.parse(await read('openapi.json')).info.version).toBe(patch);
    expect(await read('infra/openapi/contract.ts')).toContain(`export const API_VERSION = '${patch}';`);
  });
});
