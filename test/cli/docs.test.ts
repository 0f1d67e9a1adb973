/**
 * The docs' generated sections: the committed ones are what the code generates (`npm run docs`
 * rewrites them), and the rewriting itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteSections, staleFiles } from '../../infra/docs/generate.ts';
import { SECTIONS } from '../../infra/docs/sections.ts';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings, STAGE_NAMES, STAGE_SETTING_KEYS, type StageSettings } from '../../infra/cdk/stages.ts';
import { accountSummary } from '../../infra/docs/stage-tables.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('generated sections of the docs', () => {
  it('are up to date in README.md and docs/ (npm run docs rewrites them)', () => {
    expect(staleFiles(ROOT, SECTIONS).map((s) => path.relative(ROOT, s.file))).toEqual([]);
  });

  it("list every stage setting in the operators' table", () => {
    const table = SECTIONS['stage-settings']?.() ?? '';
    for (const key of STAGE_SETTING_KEYS) expect(table).toContain(`| \`${key}\` |`);
  });

  it('word the account summary from the figures: within, or above, the quota and the part Lambda lets an account reserve', () => {
    const [staging, production] = STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined)) as [StageSettings, StageSettings];
    const sentence = (accountConcurrency: number) => accountSummary([staging, { ...production, accountConcurrency }]);
    const total = stageCapacity(staging).concurrencyNeed + stageCapacity(production).concurrencyNeed;
    expect(sentence(total + 100)).toMatch(/concurrent executions, within its [\d,]+; .* the same [\d,]+, within the [\d,]+ Lambda lets/);
    expect(sentence(total + 99)).toMatch(/concurrent executions, within its [\d,]+; .* the same [\d,]+, above the [\d,]+ Lambda lets/);
    expect(sentence(total - 1)).toMatch(/concurrent executions, above its [\d,]+; .* the same [\d,]+, above the [\d,]+ Lambda lets/);
  });

  it('replace only what lies between the markers, and refuse an unknown name or an unclosed marker', () => {
    const markdown = 'before\n<!-- generated: one -->\nold\n<!-- end generated -->\nafter\n';
    expect(rewriteSections(markdown, { one: () => 'new\n' })).toBe('before\n<!-- generated: one -->\nnew\n<!-- end generated -->\nafter\n');
    expect(() => rewriteSections(markdown, {}, 'x.md')).toThrow('x.md: no generator for section "one"');
    expect(() => rewriteSections('<!-- generated: one -->\nold\n', { one: () => 'new' }, 'x.md')).toThrow(
      /x.md: .* has no "<!-- end generated -->"/,
    );
  });
});
