/**
 * The contract check against the policy's own cases (compat-corpus.ts): each edit of the released
 * document gets the policy's verdict and names the place a client meets it. `npm run openapi --
 * --release` runs the same check and refuses a breaking case; docs/openapi.md carries the table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bump, compareWithReleased, readReleased, versionOf } from '../../infra/cli/openapi-compat.ts';
import { CORPUS, type CorpusCase, type Json, policyTable } from './compat-corpus.ts';

// One parse of the released document; each case edits its own copy.
const released = await readReleased();

function compare(c: CorpusCase) {
  const edited = structuredClone(released);
  c.edit(edited);
  return c.reverse ? compareWithReleased(edited, released) : compareWithReleased(released, edited);
}

const title = (c: CorpusCase) => `${c.node}: ${c.change} is ${c.verdict}`;

describe('the policy corpus', () => {
  it('has at least 40 different cases, of every verdict', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    for (const verdict of ['breaking', 'compatible', 'docs']) expect(CORPUS.some((c) => c.verdict === verdict)).toBe(true);
    expect(new Set(CORPUS.map(title)).size, 'each case is a different change').toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [title(c), c] as const))('%s', (_, c) => {
    const comparison = compare(c);
    const lines = comparison.changes.map((change) => `${change.kind} ${change.where}: ${change.what}`).join('\n');
    const kinds = new Set(comparison.changes.map((change) => change.kind));
    const verdict = kinds.has('breaking') ? 'breaking' : kinds.has('compatible') ? 'compatible' : 'docs';
    expect(verdict, lines).toBe(c.verdict);
    expect(comparison.changes.length, 'a change is reported').toBeGreaterThan(0);
    expect(comparison.nextVersion).toBe(
      c.verdict === 'breaking' ? undefined : bump(comparison.releasedVersion, c.verdict === 'compatible' ? 'minor' : 'patch'),
    );
    for (const place of c.places) {
      const named = comparison.changes.some(
        (change) =>
          change.kind === c.verdict &&
          (change.where === place || change.where.startsWith(`${place} `) || change.where.endsWith(` ${place}`)),
      );
      expect(named, `no ${c.verdict} change at "${place}" among:\n${lines}`).toBe(true);
    }
  });
});

describe('docs/openapi.md', () => {
  it('carries the policy table generated from the corpus', async () => {
    const doc = await readFile(new URL('../../docs/openapi.md', import.meta.url), 'utf8');
    const table = doc.match(/<!-- policy-table -->\n([\s\S]*?)\n<!-- \/policy-table -->/)?.[1];
    expect(table, 'docs/openapi.md: replace the table between <!-- policy-table --> and <!-- /policy-table --> by this one').toBe(
      policyTable(),
    );
  });
});

describe('npm run openapi -- --release', () => {
  const cli = fileURLToPath(new URL('../../infra/cli/openapi.ts', import.meta.url));
  const guarded = ['../../openapi.json', '../../lib/openapi/contract.ts', '../../docs/openapi-released.json'].map(
    (file) => new URL(file, import.meta.url),
  );
  let dir: string;
  let before: string[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-release-'));
    before = await Promise.all(guarded.map((file) => readFile(file, 'utf8')));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /**
   * The generated document is the released one, so a reversed case (the edited document as the
   * release, the real one as new) is exactly what `--release` compares.
   */
  async function release(c: CorpusCase) {
    const edited: Json = structuredClone(released);
    c.edit(edited);
    const file = join(dir, 'released.json');
    await writeFile(file, JSON.stringify(edited));
    return spawnSync(process.execPath, [cli, '--release'], { encoding: 'utf8', env: { ...process.env, OPENAPI_RELEASED_FILE: file } });
  }
  const reversed = (verdict: string) => CORPUS.filter((c) => c.reverse && c.verdict === verdict);

  // Two cases show the release step runs the check the corpus runs in-process (each run costs a second).
  const refused = reversed('breaking').filter((c) => c.node === 'security requirement' || c.node === 'request body');
  it.each(refused.map((c) => [title(c), c] as const))('refuses %s, naming it, and writes nothing', async (_, c) => {
    const result = await release(c);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('breaks v1');
    for (const place of c.places) expect(result.stderr).toContain(`- ${place}`);
    expect(result.stderr).toContain('Nothing released.');
    expect(await Promise.all(guarded.map((file) => readFile(file, 'utf8')))).toEqual(before);
  });

  it('passes a compatible case on to the changelog check', async () => {
    const [c] = reversed('compatible');
    if (!c) throw new Error('the corpus has no reversed compatible case');
    const result = await release(c);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).not.toContain('breaks v1');
    const next = bump(versionOf(released), 'minor');
    expect(result.stderr).toContain(`docs/CHANGELOG.md has no "## ${next}" section yet. Nothing released.`);
    expect(await Promise.all(guarded.map((file) => readFile(file, 'utf8')))).toEqual(before);
  });
});
