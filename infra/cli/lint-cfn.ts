/**
 * `npm run lint:cfn`: AWS's CloudFormation linter (cfn-lint) over every template the app
 * synthesises into cdk.out, which `npm run lint:cfn` synthesises first. It catches what template
 * assertions cannot, such as a dependency cycle CloudFormation would refuse. Exit 0 only with no
 * error and no warning; cfn-lint missing is a failure that says how to get it, never a pass.
 *
 *   node infra/cli/lint-cfn.ts [--dir cdk.out]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** cfn-lint's exit code is a bit mask: 2 errors, 4 warnings, 8 informational findings (1: it failed). */
const INFORMATIONAL = 8;

export function templatesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.template.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function lintCfn(dir: string, out: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): number {
  const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    out('cfn-lint is not installed (AWS CloudFormation Linter): install it with `pip install cfn-lint`, then run this again.');
    return 2;
  }
  const templates = templatesIn(dir);
  if (templates.length === 0) {
    out(`No *.template.json in ${dir}: run \`npm run synth\` first.`);
    return 2;
  }
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', ...templates], { encoding: 'utf8' });
  const findings = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  if (findings) out(findings);
  const status = run.status ?? 1;
  const failed = run.error !== undefined || (status & ~INFORMATIONAL) !== 0;
  out(
    `${version.stdout.trim()}: ${templates.length} templates (${templates.map((t) => path.basename(t)).join(', ')}) ${failed ? 'FAILED' : 'clean: no error, no warning'}.`,
  );
  return failed ? 1 : 0;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { dir: { type: 'string', default: 'cdk.out' } } });
  process.exit(lintCfn(values.dir as string));
}
