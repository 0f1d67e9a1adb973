/**
 * `npm run loadtest:report -- FILE… [--cloud-assembly DIR]`: the report of Artillery results (a
 * fleet's `run-fargate --output`, or a run's own), each beside the script it ran: the same layer
 * table, model comparison, checks and HTML report as `npm run loadtest`. Exits 1 if any missed.
 */
import { parseCommandLine } from './command-line.ts';
import { reportRun } from './loadtest.ts';

const USAGE = 'Usage: npm run loadtest:report -- FILE… [--cloud-assembly DIR]\n';
const { values, positionals } = parseCommandLine(USAGE, {
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { 'cloud-assembly': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
let code = 0;
for (const file of positionals) code = Math.max(code, await reportRun(file, values['cloud-assembly']));
process.exitCode = code;
