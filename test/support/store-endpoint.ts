/**
 * Where store-backed suites get their DynamoDB: by default an in-memory dynalite of their own;
 * under `npm run test:conformance`, the AWS DynamoDB Local that the conformance global setup
 * started (provided as `dynamodbEndpoint`), with a table prefix per suite so suites never meet.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb.ts';
import { type LocalTableNames, openLocalStore } from '../../infra/local/local-stack.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string | undefined;
  }
}

export interface TestStore {
  readonly endpoint: string;
  /** Unique per call, for table names. */
  readonly tablePrefix: string;
  /** "dynalite" or "DynamoDB Local", for test titles and messages. */
  readonly kind: string;
  close(): Promise<void>;
}

export async function testStore(): Promise<TestStore> {
  const tablePrefix = `t${randomUUID().slice(0, 8)}_`;
  const shared = inject('dynamodbEndpoint');
  if (shared) return { endpoint: shared, tablePrefix, kind: 'DynamoDB Local', close: async () => undefined };
  const embedded = await startEmbeddedDynamoDb();
  return { endpoint: embedded.endpoint, tablePrefix, kind: 'dynalite', close: () => embedded.close() };
}

export interface TestTables {
  readonly store: TestStore;
  readonly tableNames: LocalTableNames;
  /** The service's own document client, on the test store. */
  readonly client: DynamoDBDocumentClient;
  close(): Promise<void>;
}

/** The test store with the service's tables created on it, for the store suites. */
export async function testTables(): Promise<TestTables> {
  const store = await testStore();
  const local = await openLocalStore({ dynamodbEndpoint: store.endpoint, tablePrefix: store.tablePrefix });
  const client = createDocumentClient({ endpoint: store.endpoint });
  return {
    store,
    tableNames: local.tableNames,
    client,
    close: async () => {
      client.destroy();
      await local.close();
      await store.close();
    },
  };
}

export interface SentCommand {
  readonly command: string | undefined;
  readonly input: Record<string, unknown>;
}

/** A client of the service's own kind on `endpoint`, and every command it sends from now on, as sent. */
export function recordingClient(endpoint: string): { client: DynamoDBDocumentClient; sent: SentCommand[] } {
  const client = createDocumentClient({ endpoint });
  const sent: SentCommand[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ command: context.commandName, input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'recordSent' },
  );
  return { client, sent };
}
