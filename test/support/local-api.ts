/**
 * Starts the whole local service for an end-to-end suite: the test store (see store-endpoint.ts),
 * the tables, a registered API key and the local API on 127.0.0.1 and an ephemeral port.
 */
import { generateApiKey } from '../../lib/auth/api-keys.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import { contract } from './contract.ts';
import { testStore } from './store-endpoint.ts';

export interface TestApi {
  /** Base URL, ending in /v1. */
  readonly url: string;
  readonly apiKey: string;
  readonly stack: LocalStack;
  /**
   * fetch with the API key, relative to the base URL (`/pets`). Every response is checked against
   * the OpenAPI document first (see contract.ts): one that does not match throws an AssertionError.
   */
  request(path: string, init?: RequestInit & { auth?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestApi(): Promise<TestApi> {
  const store = await testStore();
  const apiKey = generateApiKey();
  const stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    apiKey,
    dynamodbEndpoint: store.endpoint,
    tablePrefix: store.tablePrefix,
  });
  return {
    url: stack.url,
    apiKey,
    stack,
    request: async (path, init = {}) => {
      const { auth, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${auth ?? apiKey}`);
      const url = `${stack.url}${path}`;
      const response = await fetch(url, { ...rest, headers });
      await contract().assertConforms(rest.method ?? 'GET', url, response);
      return response;
    },
    close: async () => {
      await stack.close();
      await store.close();
    },
  };
}
