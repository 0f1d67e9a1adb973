// Each child in its own process group, so stopping it stops what it started; SIGINT/SIGTERM kill every group, then exit 128 + signal.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const groups = new Set<number>();

/** Kills every running group now (SIGKILL: a measured process under valgrind may not stop on SIGTERM). */
export function stopChildProcesses(): void {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  stopChildProcesses();
  process.exit(128 + constants.signals[signal]);
}

function watch(pid: number): void {
  if (groups.size === 0) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('exit', stopChildProcesses);
  }
  groups.add(pid);
}

function unwatch(pid: number): void {
  groups.delete(pid);
  if (groups.size === 0) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', stopChildProcesses);
  }
}

export interface Finished {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Rejects only when it cannot start; a failure is a non-zero `status`. */
export function runInGroup(
  command: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('spawn', () => watch(child.pid as number));
    child.once('error', (error) => {
      if (child.pid !== undefined) unwatch(child.pid);
      reject(error);
    });
    child.once('close', (status, signal) => {
      if (child.pid !== undefined) unwatch(child.pid);
      resolve({ status, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}
