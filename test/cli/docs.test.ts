/**
 * The docs' generated sections: the committed ones are what the code generates (`npm run docs`
 * rewrites them), and the rewriting itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteSections, staleFiles } from '../../infra/docs/generate.ts';
import { SECTIONS } from '../../infra/docs/sections.ts';
import { routes } from '#lib/routes.ts';
import { stageCapacity, sum } from '../../infra/cdk/capacity.ts';
import { readStageSettings, STAGE_NAMES, STAGE_SETTING_KEYS, type StageSettings, settingDescription } from '../../infra/cdk/stages.ts';
import { accountSummary } from '../../infra/docs/stage-tables.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('generated sections of the docs', () => {
  it('are up to date in README.md and docs/ (npm run docs rewrites them)', () => {
    expect(staleFiles(ROOT, SECTIONS).map((s) => path.relative(ROOT, s.file))).toEqual([]);
  });

  it("give every stage setting what it does in the operators' table, from its record", () => {
    for (const key of STAGE_SETTING_KEYS) expect(settingDescription(key), key).toMatch(/^\S.{20,}/);
  });

  it('word the account summary from the figures: within, or above, the quota and the part Lambda lets an account reserve', () => {
    const [staging, production] = STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined)) as [StageSettings, StageSettings];
    const sentence = (accountConcurrency: number) => accountSummary([staging, { ...production, accountConcurrency }]);
    const total = stageCapacity(staging).concurrencyNeed + stageCapacity(production).concurrencyNeed;
    expect(sentence(total + 100)).toMatch(/concurrent executions, within its [\d,]+; .* the same [\d,]+, within the [\d,]+ Lambda lets/);
    expect(sentence(total + 99)).toMatch(/concurrent executions, within its [\d,]+; .* the same [\d,]+, above the [\d,]+ Lambda lets/);
    expect(sentence(total - 1)).toMatch(/concurrent executions, above its [\d,]+; .* the same [\d,]+, above the [\d,]+ Lambda lets/);
    // One more API method in each stage: the synth's refusal, worded from the figures.
    const oneMore = sum([staging, production].map((s) => stageCapacity(s, [...routes, ...routes.slice(0, 1)]).concurrencyNeed));
    const both = (accountConcurrency: number) => accountSummary([staging, production].map((s) => ({ ...s, accountConcurrency })));
    expect(both(oneMore)).toMatch(/With one more API method each, they would need [\d,]+ \+ [\d,]+ = [\d,]+, within its [\d,]+\.$/);
    expect(both(oneMore - 1)).toMatch(/= [\d,]+, above its [\d,]+: the synth refuses it until a decision lands in cdk.json/);
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
