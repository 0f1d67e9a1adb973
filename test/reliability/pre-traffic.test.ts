/**
 * The pre-traffic hook (functions/pre-traffic.ts) against Lambda's and CodeDeploy's APIs faked on
 * 127.0.0.1, which the real SDK reaches as it would AWS's (AWS_ENDPOINT_URL_LAMBDA,
 * AWS_ENDPOINT_URL_CODEDEPLOY). The fake Lambda runs the real getPet handler, on the test store
 * behind a fault proxy: the version the hook checks is the service's own code.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_PATTERN } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { handler as getPet } from '../../functions/get-pet.ts';
import { handler as preTraffic } from '../../functions/pre-traffic.ts';
import { TIMEOUT_SECONDS } from '../../infra/cdk/function-limits.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestTables, testTables } from '../support/store-endpoint.ts';

const VERSION_ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:PetStore-production-get-pet:7';
const EVENT = { DeploymentId: 'd-EXAMPLE11', LifecycleEventHookExecutionId: 'hook-execution-1' };

let tables: TestTables;
let proxy: FaultProxy;
/** What the fake Lambda answers an invocation with: the payload, and Lambda's X-Amz-Function-Error if the function failed. */
let invoke: (event: unknown) => Promise<{ payload: unknown; functionError?: string }>;
const invocations: { url: string; event: { headers: Record<string, string> } }[] = [];
const reports: { target: string; body: unknown }[] = [];

const read = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
};
const lambda = createServer(async (request, response) => {
  const event = await read(request);
  invocations.push({ url: request.url ?? '', event });
  const { payload, functionError } = await invoke(event);
  response.writeHead(200, { 'content-type': 'application/json', ...(functionError ? { 'x-amz-function-error': functionError } : {}) });
  response.end(JSON.stringify(payload));
});
const codedeploy = createServer(async (request, response) => {
  const body = await read(request);
  reports.push({ target: String(request.headers['x-amz-target']), body });
  response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
  response.end(JSON.stringify({ lifecycleEventHookExecutionId: EVENT.LifecycleEventHookExecutionId }));
});
const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The real function, as Lambda would run the version. */
const runVersion = async (event: unknown) => ({
  payload: await getPet(
    event as never,
    { awsRequestId: 'pre-traffic-1', functionVersion: '7', getRemainingTimeInMillis: () => 10_000 } as Context,
  ),
});

beforeAll(async () => {
  tables = await testTables();
  proxy = await startFaultProxy(tables.store.endpoint);
  reconfigure({
    [ENV.dynamodbEndpoint]: proxy.endpoint,
    [ENV.petsTable]: tables.tableNames.pets,
    [ENV.apiKeysTable]: tables.tableNames.apiKeys,
    [ENV.idempotencyTable]: tables.tableNames.idempotency,
  });
  vi.stubEnv('AWS_ENDPOINT_URL_LAMBDA', await listen(lambda));
  vi.stubEnv('AWS_ENDPOINT_URL_CODEDEPLOY', await listen(codedeploy));
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDTEST');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  vi.stubEnv(ENV.preTrafficTarget, VERSION_ARN);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  lambda.closeAllConnections();
  await Promise.all([close(lambda), close(codedeploy)]);
  await proxy?.close();
  await tables?.close();
});

beforeEach(() => {
  invocations.length = 0;
  reports.length = 0;
  proxy.decide = () => 'pass';
  invoke = runVersion;
});

/** Runs the hook with a deployed hook's time left (TIMEOUT_SECONDS); what it reported to CodeDeploy. */
async function check(remainingMs = TIMEOUT_SECONDS * 1000): Promise<unknown> {
  await preTraffic(EVENT, { getRemainingTimeInMillis: () => remainingMs });
  expect(reports).toHaveLength(1);
  expect(reports[0]?.target).toBe('CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus');
  return reports[0]?.body;
}

describe('the pre-traffic hook', () => {
  it('reports Succeeded for a version that answers a made-up key 401 after reading its keys table', async () => {
    expect(await check()).toEqual({
      deploymentId: EVENT.DeploymentId,
      lifecycleEventHookExecutionId: EVENT.LifecycleEventHookExecutionId,
      status: 'Succeeded',
    });
    expect(invocations).toHaveLength(1);
    expect(invocations[0]?.url).toBe(`/2015-03-31/functions/${encodeURIComponent(VERSION_ARN)}/invocations`);
    const key = invocations[0]?.event.headers.Authorization?.replace(/^Bearer /, '') ?? '';
    expect(key).toMatch(API_KEY_PATTERN);
    expect(proxy.calls.map((c) => [c.operation, c.tableName])).toEqual([['GetItem', tables.tableNames.apiKeys]]);
  });

  it('reports Failed for a version that cannot reach its tables (it answers 503)', async () => {
    proxy.decide = () => 'server-error';
    expect(await check()).toMatchObject({ status: 'Failed' });
    expect(proxy.calls.length).toBeGreaterThan(0);
  }, 30_000);

  it('reports Failed for a version that cannot start or crashes', async () => {
    invoke = async () => ({
      payload: { errorType: 'Runtime.ImportModuleError', errorMessage: 'Cannot find module' },
      functionError: 'Unhandled',
    });
    expect(await check()).toMatchObject({ status: 'Failed' });
  });

  it('reports Failed, in its own time, for a version that does not answer', async () => {
    invoke = () => new Promise(() => undefined);
    expect(await check(2_000)).toMatchObject({ status: 'Failed' });
  });

  it('reports Failed for any answer but the Error body’s 401', async () => {
    for (const payload of [
      { statusCode: 200, body: '{"id":1}' },
      { statusCode: 401, body: 'Unauthorized' },
      { statusCode: 503, body: '{"code":"service_unavailable","message":"Retry","status":503}' },
      null,
    ]) {
      reports.length = 0;
      invoke = async () => ({ payload });
      expect(await check(), JSON.stringify(payload)).toMatchObject({ status: 'Failed' });
    }
  });
});
