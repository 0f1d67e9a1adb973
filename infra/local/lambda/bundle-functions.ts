// Bundle mode: each function runs from its CDK asset in worker threads played as Lambda environments (docs/local-mode.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { timeoutScale } from '#lib/config.ts';
import type { FunctionInvoker, Invocation } from '../gateway/rest-api.ts';
import { references, type LambdaFunctionDefinition } from '../gateway/template.ts';

/** Per function; enough for the test suites' bursts on two cores. */
export const MAX_ENVIRONMENTS = 8;

export interface BundleFunctionsOptions {
  readonly assetDirs: ReadonlyMap<string, string>;
  readonly resolveRef: (logicalId: string) => string | undefined;
  readonly extraEnvironment: Readonly<Record<string, string>>;
  readonly onOutput?: (chunk: string) => void;
}

interface Environment {
  readonly worker: Worker;
  busy: boolean;
}

interface Reply {
  readonly ok: boolean;
  readonly result?: unknown;
  readonly reason?: string;
}

const WORKER = path.join(import.meta.dirname, 'lambda-worker.ts');

export class BundleFunctions {
  readonly #options: BundleFunctionsOptions;
  readonly #pools = new Map<string, Environment[]>();
  readonly #waiting = new Map<string, (() => void)[]>();
  #closed = false;

  constructor(options: BundleFunctionsOptions) {
    this.#options = options;
  }

  readonly invoke: FunctionInvoker = async (fn, event, requestId) => {
    const environment = await this.#acquire(fn);
    try {
      return await this.#run(fn, environment, event, requestId);
    } finally {
      environment.busy = false;
      this.#waiting.get(fn.logicalId)?.shift()?.();
    }
  };

  async close(): Promise<void> {
    this.#closed = true;
    const workers = [...this.#pools.values()].flat().map((e) => e.worker);
    this.#pools.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  async #acquire(fn: LambdaFunctionDefinition): Promise<Environment> {
    for (;;) {
      if (this.#closed) throw new Error('The local functions are stopped');
      const pool = this.#pools.get(fn.logicalId) ?? [];
      this.#pools.set(fn.logicalId, pool);
      const idle = pool.find((e) => !e.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (pool.length < MAX_ENVIRONMENTS) {
        const environment = { worker: this.#start(fn), busy: true };
        pool.push(environment);
        return environment;
      }
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(fn.logicalId) ?? [];
        queue.push(resolve);
        this.#waiting.set(fn.logicalId, queue);
      });
    }
  }

  #start(fn: LambdaFunctionDefinition): Worker {
    const assetDir = this.#options.assetDirs.get(fn.logicalId);
    if (!assetDir) throw new Error(`No asset for function ${fn.logicalId} in the cloud assembly`);
    const [moduleName, exportName] = splitHandler(fn.handler);
    const environment = this.#environment(fn, assetDir);
    const worker = new Worker(WORKER, {
      env: environment,
      workerData: {
        modulePath: handlerModule(assetDir, moduleName),
        exportName,
        functionName: fn.functionName,
        sourceMaps: /--enable-source-maps\b/.test(environment.NODE_OPTIONS ?? ''),
        limits: { memoryMb: fn.memoryMb, timeoutSeconds: fn.timeoutSeconds },
      },
      // The function's memory as its heap limit: a function that outgrows it fails as on Lambda.
      resourceLimits: { maxOldGenerationSizeMb: fn.memoryMb },
      stdout: true,
      stderr: true,
    });
    const output = this.#options.onOutput ?? ((chunk: string) => process.stdout.write(chunk));
    worker.stdout.setEncoding('utf8').on('data', output);
    worker.stderr.setEncoding('utf8').on('data', output);
    // Errors surface through the invocation that is running; an idle environment just goes away.
    worker.on('error', () => undefined);
    worker.unref();
    return worker;
  }

  #environment(fn: LambdaFunctionDefinition, assetDir: string): Record<string, string> {
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(fn.environment)) {
      if (typeof value === 'string' || typeof value === 'number') {
        variables[name] = String(value);
        continue;
      }
      const [target, ...rest] = references(value);
      const resolved = target === undefined || rest.length > 0 ? undefined : this.#options.resolveRef(target);
      if (resolved === undefined) throw new Error(`${fn.functionName}: local mode cannot resolve ${name} = ${JSON.stringify(value)}`);
      variables[name] = resolved;
    }
    return {
      // What Lambda's Node.js runtime sets.
      AWS_LAMBDA_FUNCTION_NAME: fn.functionName,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      LAMBDA_TASK_ROOT: assetDir,
      TZ: ':UTC',
      ...this.#options.extraEnvironment,
      ...variables,
    };
  }

  async #run(fn: LambdaFunctionDefinition, environment: Environment, event: APIGatewayProxyEvent, requestId: string): Promise<Invocation> {
    const { worker } = environment;
    return new Promise<Invocation>((resolve) => {
      const discard = (reason: string) => {
        this.#discard(fn, environment);
        resolve({ ok: false, reason });
      };
      const timeoutMs = fn.timeoutSeconds * 1000 * timeoutScale(this.#options.extraEnvironment);
      const timer = setTimeout(() => {
        cleanup();
        discard(`Task timed out after ${fn.timeoutSeconds}.00 seconds`);
      }, timeoutMs);
      const onMessage = (reply: Reply) => {
        cleanup();
        resolve(reply.ok ? { ok: true, result: reply.result } : { ok: false, reason: reply.reason ?? 'function error' });
      };
      const onError = (error: Error) => {
        cleanup();
        discard(`Runtime exited: ${error.message}`);
      };
      const onExit = (code: number) => {
        cleanup();
        discard(`Runtime exited with code ${code}`);
      };
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ event, requestId });
    });
  }

  #discard(fn: LambdaFunctionDefinition, environment: Environment): void {
    const pool = this.#pools.get(fn.logicalId);
    if (pool) pool.splice(pool.indexOf(environment), 1);
    void environment.worker.terminate();
  }
}

// As Lambda's Node.js runtime finds it: `.js`, else `.mjs`, else `.cjs`.
function handlerModule(assetDir: string, moduleName: string): string {
  const candidates = ['.js', '.mjs', '.cjs'].map((extension) => path.join(assetDir, `${moduleName}${extension}`));
  return candidates.find((file) => existsSync(file)) ?? (candidates[0] as string);
}

function splitHandler(handler: string): [string, string] {
  const at = handler.lastIndexOf('.');
  return [handler.slice(0, at), handler.slice(at + 1)];
}
