/**
 * Starts the whole local service for an end-to-end suite: the test store (see store-endpoint.ts),
 * the tables, a registered API key and the local API on 127.0.0.1 and an ephemeral port, serving
 * the staging template (stage-setup.ts) with the handler sources, or under `npm run test:bundles`
 * with the bundles of a cloud assembly.
 */
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import { inject } from 'vitest';
import { contract } from './response-contract.ts';
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
  /** Bundle mode: everything the functions wrote (their workers' stdout and stderr). */
  functionOutput(): string;
  close(): Promise<void>;
}

export async function startTestApi(): Promise<TestApi> {
  const store = await testStore();
  const apiKey = generateApiKey();
  let output = '';
  const echo = process.env.PETSTORE_TEST_LOGS === '1';
  const stack = await startLocalStack({
    onFunctionOutput: (chunk) => {
      output += chunk;
      if (echo) process.stdout.write(chunk);
    },
    port: 0,
    dataDir: ':memory:',
    apiKey,
    dynamodbEndpoint: store.endpoint,
    tablePrefix: store.tablePrefix,
    ...localMode(),
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
    functionOutput: () => output,
    close: async () => {
      await stack.close();
      await store.close();
    },
  };
}

/** What the run's global setup prepared: a cloud assembly (bundle mode) or the staging template. */
export function localMode(): { cloudAssembly: string; throttling: false } | { template: CfnTemplate } | Record<string, never> {
  const cloudAssembly = inject('cloudAssembly');
  // Throttling stays off: the suites' bursts are not what it is tested with (test/local/gateway.test.ts).
  if (cloudAssembly) return { cloudAssembly, throttling: false };
  const template = inject('stageTemplate');
  return template ? { template } : {};
}

/** Bundle mode: the functions run from their bundles, so their logs and environment are not this process's. */
export const bundleMode = (): boolean => inject('cloudAssembly') !== undefined;
