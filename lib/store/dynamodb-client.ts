/**
 * One DynamoDB document client per process. Timeouts and retries are explicit and bounded, so a
 * slow or unreachable store turns into a 503 well inside the function timeout instead of a hang.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface ClientOptions {
  /** A DynamoDB-compatible endpoint (local mode, tests); AWS's regional endpoint when absent. */
  readonly endpoint?: string;
}

/**
 * DynamoDB answers in milliseconds; these bound the worst case of one call to 3 attempts of
 * (0.5 s connect + 1 s response) plus back-off, about 5 s, inside the functions' 10 s timeout.
 */
export const STORE_TIMEOUTS = { connectionTimeoutMs: 500, requestTimeoutMs: 1_000, maxAttempts: 3 } as const;

export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const local = options.endpoint !== undefined;
  const client = new DynamoDBClient({
    maxAttempts: STORE_TIMEOUTS.maxAttempts,
    requestHandler: {
      connectionTimeout: STORE_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: STORE_TIMEOUTS.requestTimeoutMs,
      // Without it the SDK only logs a warning when requestTimeout passes, and keeps waiting.
      throwOnRequestTimeout: true,
    },
    ...(local
      ? {
          endpoint: options.endpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          // A local server accepts any credentials; these keep the SDK from searching for real ones.
          credentials: process.env.AWS_ACCESS_KEY_ID
            ? undefined
            : { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
