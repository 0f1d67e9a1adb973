/** Starts a benchmark worker (infra/bench/workers/<name>.ts) as a child process and talks to it. */
import { type ChildProcess, fork } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stopChildProcesses } from '../cli/child-processes.ts';
import type { RpcReply } from './workers/rpc.ts';

export interface WorkerProcess {
  readonly pid: number;
  call<T>(type: string, args?: Record<string, unknown>): Promise<T>;
  /** User + system CPU time of the worker so far, in milliseconds. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
  /** Ends it at once, as an interrupted bench must (stop() waits for the worker's answer). */
  kill(): void;
}

export interface WorkerOptions {
  /** Where the worker's stdout goes: 'ignore' (/dev/null, the default) writes it nowhere, cheaply. */
  readonly stdout?: 'ignore' | 'inherit';
  readonly env?: NodeJS.ProcessEnv;
}

export function startWorker(name: string, options: WorkerOptions = {}): WorkerProcess {
  const child: ChildProcess = fork(fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url)), [], {
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit', 'ipc'],
    execArgv: [],
    ...(options.env ? { env: options.env } : {}),
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: RpcReply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(new Error(`worker ${name}: ${reply.error}`));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`worker ${name} exited (${code})`));
    pending.clear();
  });
  const call = <T>(type: string, args: Record<string, unknown> = {}): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, type, ...args });
    });
  return {
    pid: child.pid ?? -1,
    call,
    cpuMs: async () => {
      const usage = await call<NodeJS.CpuUsage>('cpu');
      return (usage.user + usage.system) / 1000;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await call('stop').catch(() => undefined);
      await exited;
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * On SIGINT or SIGTERM: kills `workers` (as the array holds them then) and every process group
 * started with runInGroup (valgrind and what runs under it), then exits as the signal would have.
 */
export function stopOnInterrupt(workers: readonly WorkerProcess[]): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping the workers and the processes under valgrind\n`);
      stopChildProcesses();
      for (const worker of workers) worker.kill();
      process.exit(128 + constants.signals[signal]);
    });
  }
}
