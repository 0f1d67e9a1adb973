/**
 * CPU instructions of a cold start and of warm invocations, counted by valgrind's callgrind: unlike
 * wall-clock time on a shared machine, the count of the same code repeats closely from run to run.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInGroup } from '../cli/child-processes.ts';

export const WARM_INVOCATIONS = 20;
const SETTLE_MS = 300;

export interface Invocation {
  readonly event: unknown;
  /** The Lambda context's plain fields (getRemainingTimeInMillis is added in the process). */
  readonly context: unknown;
}

export interface InstructionCount {
  readonly import: number;
  readonly first: number;
  /** Per warm invocation. */
  readonly warm: number;
  /** Status codes of the invocations, first then warm. */
  readonly statuses: readonly number[];
}

/** Runs in the measured process: a CommonJS script, so nothing but the bundle needs the ESM loader. */
const SCRIPT = `
const { execSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { setTimeout: settle } = require('node:timers/promises');
const mark = (label) => execSync('callgrind_control -d ' + label + ' ' + process.pid, { stdio: 'ignore' });
(async () => {
  const [file, invocationsFile, settleMs] = process.argv.slice(1);
  const invocations = JSON.parse(readFileSync(invocationsFile, 'utf8'));
  const context = (c) => ({ ...c, getRemainingTimeInMillis: () => 10000 });
  // Lambda's runtime is itself an ES module: its ESM loader is ready before the handler loads.
  await import('data:text/javascript,export default 0');
  mark('start');
  const mod = require(file);
  await settle(Number(settleMs));
  mark('import');
  const statuses = [];
  const [first, ...warm] = invocations;
  statuses.push((await mod.handler(first.event, context(first.context))).statusCode);
  await settle(Number(settleMs));
  mark('first');
  for (const w of warm) statuses.push((await mod.handler(w.event, context(w.context))).statusCode);
  await settle(Number(settleMs));
  mark('warm');
  process.stdout.write('\\nSTATUSES ' + JSON.stringify(statuses) + '\\n');
  process.exit(0);
})();
`;

/** The binary running this process (valgrind cannot follow a shim such as node_modules/.bin/node). */
export const nodeBinary = (): string => realpathSync(process.execPath);

/** One fresh process under callgrind: `invocations[0]` is the first invocation, the rest warm. */
export async function countInstructions(
  file: string,
  invocations: readonly Invocation[],
  env: NodeJS.ProcessEnv,
): Promise<InstructionCount> {
  const { stdout, section } = await callgrind(file, env, async (dir) => {
    const invocationsFile = join(dir, 'invocations.json');
    await writeFile(invocationsFile, JSON.stringify(invocations));
    return ['-e', SCRIPT, file, invocationsFile, String(SETTLE_MS)];
  });
  const statuses = JSON.parse(/^STATUSES (.+)$/m.exec(stdout)?.[1] ?? 'null') as number[] | null;
  if (!statuses) throw new Error(`${file}: the measured process reported nothing: ${stdout.slice(-2000)}`);
  const warm = section('warm') / Math.max(1, invocations.length - 1);
  return { import: section('import'), first: section('first'), warm, statuses };
}

/** Node.js alone, `node -e 0` with the same flags: the part of any cold start that is Node's own. */
export async function countNodeStart(env: NodeJS.ProcessEnv): Promise<number> {
  return (await callgrind('node -e 0', env, async () => ['-e', '0'])).section('exit');
}

/** Node.js under callgrind with `args(dir)`; a section is what a dump labelled, `exit` the last one. */
async function callgrind(what: string, env: NodeJS.ProcessEnv, args: (dir: string) => Promise<string[]>) {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-callgrind-'));
  try {
    const node = [nodeBinary(), '--single-threaded', '--predictable', '--predictable-gc-schedule', ...(await args(dir))];
    // In a group of its own: an interrupted bench stops valgrind and the callgrind_control and vgdb it runs.
    const out = `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`;
    const run = await runInGroup('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', out, ...node], { env });
    if (run.status !== 0) throw new Error(`${what}: valgrind exited with ${run.status ?? run.signal}: ${run.stderr.slice(-2000)}`);
    const sections = new Map<string, number>();
    for (const name of await readdir(dir)) {
      if (!name.startsWith('callgrind.out.')) continue;
      const text = await readFile(join(dir, name), 'utf8');
      const label = /^desc: Trigger: dump (\S+)/m.exec(text)?.[1] ?? 'exit';
      sections.set(label, (sections.get(label) ?? 0) + instructionsOf(text));
    }
    const section = (label: string): number => {
      const value = sections.get(label);
      if (value === undefined) throw new Error(`${what}: no callgrind dump "${label}"`);
      return value;
    };
    return { stdout: run.stdout, section };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Ir of a dump file: its `summary:` lines (one per part), or its `totals:` lines. */
function instructionsOf(text: string): number {
  const sum = (key: string) =>
    [...text.matchAll(new RegExp(`^${key}: (\\d+)`, 'gm'))].reduce((total, match) => total + Number(match[1]), 0);
  return sum('summary') || sum('totals');
}
