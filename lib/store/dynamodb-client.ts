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

/** Worst case per call: 3 attempts × (1 s connect + 2 s response) plus back-off, under 10 s. */
export const STORE_TIMEOUTS = { connectionTimeoutMs: 1_000, requestTimeoutMs: 2_000, maxAttempts: 3 } as const;

export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const local = options.endpoint !== undefined;
  const client = new DynamoDBClient({
    maxAttempts: STORE_TIMEOUTS.maxAttempts,
    requestHandler: {
      connectionTimeout: STORE_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: STORE_TIMEOUTS.requestTimeoutMs,
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
