/**
 * `npm run loadtest:report -- FILE… [--cloud-assembly DIR]`: the report of Artillery's results of one run (its own, a fleet's
 * `run-fargate --output`, or its workers' files apart, merged), beside the script it ran: the same layer table, model comparison,
 * checks and HTML report as `npm run loadtest`. Exits 1 if a check missed.
 */
import { parseCommandLine, usageMistake } from './command-line.ts';
import { reportRun } from './loadtest.ts';
import { UsageError } from './usage-error.ts';

const USAGE = 'Usage: npm run loadtest:report -- FILE… [--cloud-assembly DIR]\nFILE…: Artillery results of one run, reported as one.\n';
const { values, positionals } = parseCommandLine(USAGE, {
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { 'cloud-assembly': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
if (positionals.length === 0) usageMistake(USAGE, 'Give the results file(s) of a run.');
process.exitCode = await reportRun(positionals, values['cloud-assembly']).catch((error: unknown) => {
  if (error instanceof UsageError) usageMistake(USAGE, error.message);
  throw error;
});
