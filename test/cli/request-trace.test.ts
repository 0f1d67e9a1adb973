/**
 * The function's request line carries the X-Ray trace id, as API Gateway's access line does
 * (`$context.xrayTraceId`): Lambda's `_X_AMZN_TRACE_ID` for the invocation, else the header the
 * gateway adds, so one id finds a request from the gateway to the function.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogSink } from '#lib/log.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let previousSink: ReturnType<typeof setLogSink>;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  previousSink = setLogSink((line) => void lines.push(JSON.parse(line) as Record<string, unknown>));
  api = await startTestApi();
}, 120_000);

afterAll(async () => {
  setLogSink(previousSink);
  await api.close();
});

const requestLine = (requestId: string | null) => lines.find((l) => l.message === 'request' && l.requestId === requestId);

describe('the request line', () => {
  it("carries the trace id of the gateway's X-Amzn-Trace-Id header, its Root only", async () => {
    const header = 'Root=1-6755f0a1-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';
    const response = await api.request('/pets', { headers: { 'X-Amzn-Trace-Id': header } });
    expect(response.status).toBe(200);
    expect(requestLine(response.headers.get('x-request-id'))).toMatchObject({ traceId: '1-6755f0a1-0123456789abcdef01234567' });
  });

  it("prefers Lambda's _X_AMZN_TRACE_ID of the invocation, and leaves the field out when there is neither", async () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-6755f0a1-fedcba9876543210fedcba98;Parent=1;Sampled=0';
    try {
      const traced = await api.request('/pets', { headers: { 'X-Amzn-Trace-Id': 'Root=1-00000000-000000000000000000000000' } });
      expect(requestLine(traced.headers.get('x-request-id'))).toMatchObject({ traceId: '1-6755f0a1-fedcba9876543210fedcba98' });
    } finally {
      delete process.env._X_AMZN_TRACE_ID;
    }
    const untraced = await api.request('/pets');
    const line = requestLine(untraced.headers.get('x-request-id'));
    expect(line).toMatchObject({ operationId: 'listPets', status: 200 });
    expect(line).not.toHaveProperty('traceId');
  });
});
