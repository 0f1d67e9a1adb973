// cfn-lint over cdk.out catches what template assertions cannot (a dependency cycle, say); cfn-lint missing is a failure, never a pass.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from './command-line.ts';
import { runInGroup } from './child-processes.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

const USAGE = `Usage: npm run lint:cfn [-- --dir DIR]    cdk synth into cdk.out, then cfn-lint every template in it
       node infra/cli/lint-cfn.ts [--dir DIR]   cfn-lint the templates already in DIR (default cdk.out)
  --synth      run \`cdk synth --quiet\` first (what npm run lint:cfn does)
  --dir DIR    the cloud assembly folder (default cdk.out)
  -h, --help   this text
Exit status: 0 clean (no error, no warning), 1 findings, 2 cfn-lint or the templates missing.
Needs cfn-lint (pip install cfn-lint).
`;

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

export async function lintCfn(dir: string, out: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<number> {
  const version = await runInGroup('cfn-lint', ['--version']).catch(() => undefined);
  if (version === undefined || version.status !== 0) {
    out('cfn-lint is not installed (AWS CloudFormation Linter): install it with `pip install cfn-lint`, then run this again.');
    return 2;
  }
  const templates = templatesIn(dir);
  if (templates.length === 0) {
    out(`No *.template.json in ${dir}: run \`npm run synth\` first.`);
    return 2;
  }
  const run = await runInGroup('cfn-lint', ['--format', 'parseable', '--', ...templates]);
  const findings = `${run.stdout}${run.stderr}`.trim();
  if (findings) out(findings);
  const failed = run.status === null || (run.status & ~INFORMATIONAL) !== 0;
  out(
    `${version.stdout.trim()}: ${templates.length} templates (${templates.map((t) => path.basename(t)).join(', ')}) ${failed ? 'FAILED' : 'clean: no error, no warning'}.`,
  );
  return failed ? 1 : 0;
}

if (import.meta.main) {
  const { values } = parseCommandLine(USAGE, {
    options: { dir: { type: 'string', default: 'cdk.out' }, synth: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.synth) {
    process.stderr.write(`cdk synth --quiet --output ${values.dir} …\n`);
    const cdk = path.join(REPO_ROOT, 'node_modules/.bin/cdk');
    const synth = await runInGroup(cdk, ['synth', '--quiet', '--output', path.resolve(values.dir)], { cwd: REPO_ROOT });
    if (synth.status !== 0) {
      process.stderr.write(`${synth.stdout}${synth.stderr}cdk synth failed (${synth.status ?? synth.signal}).\n`);
      process.exit(1);
    }
  }
  process.exit(await lintCfn(values.dir));
}
