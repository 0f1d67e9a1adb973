/**
 * Every `pattern` of the document means the same in ECMA-262, Python's `re` and RE2: it keeps to
 * their common subset (no lookaround, no `\u{…}` or `\p{…}`, no backreference), and Python compiles it
 * (what a pydantic-based client does at import).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const document: unknown = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

function patterns(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) patterns(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push(value);
      else patterns(value, found);
    }
  }
  return found;
}

const all = [...new Set(patterns(document))];

describe('the patterns of the document', () => {
  it('are there to check', () => {
    expect(all.length).toBeGreaterThan(3);
  });

  it.each(all)('%s keeps to the subset every engine reads alike', (pattern) => {
    for (const construct of ['(?=', '(?!', '(?<', '\\u{', '\\p{', '\\P{', '\\k<', '\\1']) expect(pattern).not.toContain(construct);
    expect(() => new RegExp(pattern)).not.toThrow();
    expect(() => new RegExp(pattern, 'u')).not.toThrow();
  });

  it("compiles, every one, with Python's re", () => {
    const script = 'import json, re, sys\nfor p in json.load(sys.stdin): re.compile(p)\nprint("ok")';
    const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(all), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('ok');
  });
});
