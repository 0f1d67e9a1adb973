/**
 * `npm run docs`: rewrites every generated section of README.md and docs/ from the code
 * (infra/docs/generate.ts). `--check` writes nothing and exits 1 when a section is out of date.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { staleFiles } from '../docs/generate.ts';
import { SECTIONS } from '../docs/sections.ts';
import { parseCommandLine } from './command-line.ts';

/** The repository's root. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

const USAGE =
  'usage: npm run docs [-- --check]\n  (no option)  rewrite the generated sections\n  --check      write nothing; exit 1 if a section is out of date\n';

const { values: options } = parseCommandLine(USAGE, {
  options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

const stale = staleFiles(REPO_ROOT, SECTIONS);
for (const { file, generated } of stale) {
  const name = path.relative(REPO_ROOT, file);
  if (options.check) process.stderr.write(`${name}: a generated section is out of date (npm run docs)\n`);
  else {
    writeFileSync(file, generated);
    process.stdout.write(`${name}: rewritten\n`);
  }
}
process.exit(options.check && stale.length > 0 ? 1 : 0);
