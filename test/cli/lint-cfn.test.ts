/**
 * `npm run lint:cfn` (infra/cli/lint-cfn.ts): fails on a template CloudFormation would refuse, passes a
 * clean one, and never passes without cfn-lint or without templates. (.ci/run lints the real ones.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintCfn } from '../../infra/cli/lint-cfn.ts';

const dirs: string[] = [];
function withTemplate(resources: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-cfn-lint-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'Test.template.json'), JSON.stringify({ Resources: resources }));
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const lint = async (dir: string) => {
  const lines: string[] = [];
  const code = await lintCfn(dir, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
};

describe('lint:cfn', () => {
  it('fails on a circular dependency, naming it', async () => {
    const { code, output } = await lint(
      withTemplate({
        A: { Type: 'AWS::SNS::Topic', DependsOn: 'B' },
        B: { Type: 'AWS::SNS::Topic', DependsOn: 'A' },
      }),
    );
    expect(code).toBe(1);
    expect(output).toMatch(/E3004/);
    expect(output).toContain('FAILED');
  });

  it('passes a clean template', async () => {
    expect(await lint(withTemplate({ Topic: { Type: 'AWS::SNS::Topic' } }))).toMatchObject({
      code: 0,
      output: expect.stringContaining('clean'),
    });
  });

  it('fails, saying what to do, without templates or without cfn-lint', async () => {
    expect(await lint(path.join(tmpdir(), 'no-such-cdk-out'))).toMatchObject({ code: 2, output: expect.stringContaining('npm run synth') });
    const savedPath = process.env.PATH;
    process.env.PATH = path.dirname(process.execPath);
    try {
      expect(await lint(withTemplate({ Topic: { Type: 'AWS::SNS::Topic' } }))).toMatchObject({
        code: 2,
        output: expect.stringContaining('pip install cfn-lint'),
      });
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
