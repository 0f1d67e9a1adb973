/**
 * The contract check against the policy's own cases (compat-corpus.ts): each edit of the released
 * document gets the policy's verdict and names the place a client meets it; docs/openapi.md carries
 * the table. That `npm run openapi -- --release` runs the same check: release.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bump, compareWithReleased, readReleased } from '../../infra/cli/openapi-compat.ts';
import { CORPUS, type CorpusCase, policyTable } from './compat-corpus.ts';

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
