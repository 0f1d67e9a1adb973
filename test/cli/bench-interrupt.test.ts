/**
 * An interrupted bench leaves nothing running: SIGINT or SIGTERM stops its workers and the whole
 * process group under valgrind (valgrind, and the callgrind_control and vgdb the measured process
 * starts), as infra/bench/child.ts's stopOnInterrupt does for `npm run bench`. Needs valgrind.
 */
import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../fixtures/bench-interrupt.ts', import.meta.url));

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly command: string;
}

function processes(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, pid, ppid, pgid, command]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), command: command as string }));
}

const alive = (pid: number) => processes().some((p) => p.pid === pid);

async function until<T>(find: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the bench, interrupted', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s stops its workers and every process under valgrind, and exits as the signal would',
    async (signal) => {
      const bench = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      bench.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      bench.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => bench.once('exit', (code) => resolve(code)));
      let group: number | undefined;
      try {
        const workerPid = Number(await until(() => /^ready (\d+)$/m.exec(stdout)?.[1], 'the store worker'));
        // valgrind, in a group of its own; its measured process marks "start" with callgrind_control.
        const valgrind = await until(
          () => processes().find((p) => p.ppid === bench.pid && /valgrind/.test(p.command)),
          'valgrind to start',
        );
        group = valgrind.pgid;
        expect(valgrind.pgid).toBe(valgrind.pid);
        expect(alive(workerPid)).toBe(true);

        bench.kill(signal);
        expect(await exited, stderr).toBe(128 + constants.signals[signal]);
        expect(stderr).toContain(`${signal}: stopping`);
        await until(
          () => (processes().some((p) => p.pgid === valgrind.pgid || p.pid === workerPid) ? undefined : true),
          'the processes to end',
          5_000,
        );
      } finally {
        // Whatever the outcome, nothing of this test outlives it.
        bench.kill('SIGKILL');
        if (group !== undefined) {
          try {
            process.kill(-group, 'SIGKILL');
          } catch {
            // Gone, as it should be.
          }
        }
      }
    },
    60_000,
  );
});
