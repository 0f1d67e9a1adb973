/**
 * One DynamoDB document client per process. Timeouts and retries are explicit and bounded, so a
 * slow or unreachable store turns into a 503 well inside the function timeout instead of a hang.
 */
import type { Readable } from 'node:stream';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { timeoutScale } from '../config.ts';

export interface ClientOptions {
  /** A DynamoDB-compatible endpoint (local mode, tests); AWS's regional endpoint when absent. */
  readonly endpoint?: string;
}

/**
 * DynamoDB answers in milliseconds; these bound the worst case of one call to 3 attempts of
 * (0.5 s connect + 1 s response) plus back-off, about 5 s, inside the functions' 10 s timeout.
 */
export const STORE_TIMEOUTS = { connectionTimeoutMs: 500, requestTimeoutMs: 1_000, maxAttempts: 3 } as const;

/**
 * The SDK's HTTP handler with a deadline on the whole attempt. Its own timeouts end when the
 * response headers arrive (requestTimeout) or after a silence, so a store that sends headers and
 * then stalls, or trickles the body, would hold the call until the function times out. Past the
 * deadline the body fails with a TimeoutError: the SDK retries it like any timeout, and
 * classifyStoreError makes the last one a 503.
 */
class AttemptDeadlineHandler extends NodeHttpHandler {
  /** The most one attempt may take, from sending the request to the last byte of the response. */
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

/**
 * The SDK's logger: it drops what it is given, as the SDK's default (NoOpLogger) does, and has no
 * `info`. The SDK logs every call as `logger?.info?.({ input: filter(input), output: filter(output), … })`,
 * copying both through the operation's schema first, even for a logger that drops them; without
 * `info` the call is skipped, arguments and all (docs/performance.md, "Warm invocations").
 */
// The type requires `info`: leaving it out is the point.
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
