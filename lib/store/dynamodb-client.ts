// Bounded timeouts and retries: a slow store becomes a 503 well inside the function timeout, not a hang.
import type { Readable } from 'node:stream';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { timeoutScale } from '../config.ts';

export interface ClientOptions {
  readonly endpoint?: string; // local mode and tests; AWS's when absent
}

// Worst case of one call: 3 × (0.5 s + 1 s) plus back-off, about 5 s, inside the 10 s function timeout.
export const STORE_TIMEOUTS = { connectionTimeoutMs: 500, requestTimeoutMs: 1_000, maxAttempts: 3 } as const;

/**
 * A deadline on the whole attempt: the SDK's own timeouts end at the response headers, so a store
 * that stalls mid-body would hold the call. A TimeoutError is retried and classified as a 503.
 */
class AttemptDeadlineHandler extends NodeHttpHandler {
  readonly #deadlineMs: number;

  constructor(options: { connectionTimeout: number; requestTimeout: number; throwOnRequestTimeout: boolean }) {
    super(options);
    this.#deadlineMs = options.connectionTimeout + options.requestTimeout;
  }

  override async handle(...args: Parameters<NodeHttpHandler['handle']>): ReturnType<NodeHttpHandler['handle']> {
    const started = Date.now();
    const result = await super.handle(...args);
    const body = result.response.body as Readable | undefined;
    if (body && typeof body.destroy === 'function' && !body.readableEnded) {
      const timer = setTimeout(
        () => {
          const message = `the store's response did not complete within ${this.#deadlineMs} ms`;
          body.destroy(Object.assign(new Error(message), { name: 'TimeoutError' }));
        },
        Math.max(0, started + this.#deadlineMs - Date.now()),
      );
      body.once('close', () => clearTimeout(timer));
    }
    return result;
  }
}

const drop = (): void => {};

// No `info` on purpose: the SDK then skips filtering every call's input and output (docs/performance.md, "Warm invocations").
const SDK_LOGGER = { debug: drop, warn: drop, error: drop } as unknown as NonNullable<DynamoDBClientConfig['logger']>;

export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const local = options.endpoint !== undefined;
  // A local store only (never AWS's): one on a busy machine may answer late without being down.
  const scale = local ? timeoutScale() : 1;
  const client = new DynamoDBClient({
    maxAttempts: STORE_TIMEOUTS.maxAttempts,
    logger: SDK_LOGGER,
    requestHandler: new AttemptDeadlineHandler({
      connectionTimeout: STORE_TIMEOUTS.connectionTimeoutMs * scale,
      requestTimeout: STORE_TIMEOUTS.requestTimeoutMs * scale,
      // Without it the SDK only logs a warning when requestTimeout passes, and keeps waiting.
      throwOnRequestTimeout: true,
    }),
    ...(local
      ? {
          endpoint: options.endpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          // A local server accepts any credentials; these keep the SDK from searching for real ones.
          credentials: process.env.AWS_ACCESS_KEY_ID ? undefined : { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
