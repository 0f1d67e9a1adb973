/**
 * What answers the suites' requests: the staging stage's template, with the handler sources
 * (`npm test`) or with the bundles `cdk synth` wrote (`npm run test:bundles`). A bundle runs in a
 * worker thread under the deployed function's name and environment, and logs as deployed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogSink } from '#lib/log.ts';
import { bundleMode, startTestApi, type TestApi } from '../support/local-api.ts';
import { expectRequestId } from './helpers.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('the local API of this run', () => {
  it('serves the staging stage from its template', () => {
    expect(api.stack.stage).toBe('staging');
    expect(api.stack.mode).toBe(bundleMode() ? 'bundle' : 'source');
  });

  it('runs each function as this run deploys it, and the function logs its access line', async () => {
    // Source mode: the handlers log through this process's sink. Bundle mode: through their workers.
    const captured: string[] = [];
    const previous = setLogSink((line) => captured.push(line));
    try {
      const res = await api.request('/pets');
      expect(res.status).toBe(200);
      const requestId = expectRequestId(res);
      const output = () => (bundleMode() ? api.functionOutput() : captured.join('\n'));
      // A worker's output is piped asynchronously: wait for the line.
      await expect.poll(output).toContain(requestId);
      const access = output()
        .split('\n')
        .filter((line) => line.includes(requestId) && line.includes('"message":"request"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({ operationId: 'listPets', status: 200 });
    } finally {
      setLogSink(previous);
    }
  });
});
