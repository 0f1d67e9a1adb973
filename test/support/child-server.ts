/**
 * `npm start` as a child process, for tests that stop, kill and restart the service: the server
 * prints its URL, the test talks to it over HTTP, and `stop()`/`kill()` end it. Every child
 * started here is killed when the test process exits, whatever happens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface ChildServer {
  readonly url: string;
  /** The server's process id, to read its memory and open files under /proc. */
  readonly pid: number;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to flush or close anything. */
  kill(): Promise<void>;
}

export async function startChildServer(env: Record<string, string>, args: readonly string[] = []): Promise<ChildServer> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(path.join(root, 'node_modules/.bin/node'), ['infra/local/start.ts', ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 120 s:\n${output}`)), 120_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid as number,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
