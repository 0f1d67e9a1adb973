/**
 * The load test names the layer of each answer from the answer alone. Every answer each layer can
 * give, as the staging template defines it (the web ACL's Block responses, API Gateway's gateway
 * responses) or as the function writes it (its 503 when the store is throttled), is put down to
 * that layer, and no two layers' answers are confused.
 */
import { describe, expect, inject, it } from 'vitest';
import { toHttpError } from '#lib/http/error-responder.ts';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';
import { DependencyUnavailableError } from '#lib/store/store-errors.ts';
import { classify } from '../../infra/cli/loadtest/layers.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import { readRestApi } from '../../infra/local/gateway/template.ts';

const api = readRestApi(inject('stageTemplate') ?? (await synthesizeStageTemplate('staging')));

/** A gateway response of the template as the client gets it: its status, its headers' names, its body. */
function gatewayAnswer(type: string): [number, Record<string, string>, string] {
  const definition = api.gatewayResponses.get(type);
  if (!definition) throw new Error(`the template has no gateway response ${type}`);
  const headers = Object.fromEntries(
    Object.keys(definition.responseParameters).map((p) => [p.replace(/^gatewayresponse\.header\./, ''), 'x']),
  );
  return [Number(definition.statusCode), headers, definition.responseTemplates['application/json'] ?? ''];
}

describe('each answer put down to its layer', () => {
  it('the web ACL’s Block responses: the edge', () => {
    const blocks = (api.webAcl?.rules ?? []).map((rule) => rule.response);
    expect(blocks.map((r) => r.status).sort()).toContain(429);
    // The oversize-body 413 carries `X-Request-Id: edge` and is no limit: a valid mix never sends one.
    for (const { status, headers, body } of blocks) expect(classify(status, headers, body)).toBe(status === 413 ? '4xx' : `edge-${status}`);
  });

  it.each([
    ['THROTTLED', 'throttle-429'],
    ['INTEGRATION_FAILURE', 'lambda-503'],
    ['INTEGRATION_TIMEOUT', 'timeout-504'],
    ['DEFAULT_5XX', '5xx'],
    ['DEFAULT_4XX', '4xx'],
  ])("API Gateway's %s: %s", (type, outcome) => {
    expect(classify(...gatewayAnswer(type))).toBe(outcome);
  });

  it("the function's 503 when its store is throttled: the function, not the gateway", () => {
    const error = toHttpError(new DependencyUnavailableError('throttled', { cause: new Error('ProvisionedThroughputExceededException') }));
    const headers = { ...error.headers, [REQUEST_ID_HEADER]: 'r' };
    expect(classify(error.status, headers, JSON.stringify(error.toBody()))).toBe('store-503');
    expect(classify(200, { [REQUEST_ID_HEADER.toLowerCase()]: 'r' }, '[]')).toBe('ok');
  });
});
