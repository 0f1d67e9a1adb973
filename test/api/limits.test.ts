/**
 * The stage's limits end to end, over HTTP through local mode with its limits on: the staging
 * template with low capacity settings, so a client over a rate rule gets WAF's 429 in the Error
 * shape, and calls that outlast the duration budget fill a function's reservation and get the
 * gateway's 503. And the staging template at its own settings with a declared load-test source:
 * that source gets its methods' admission, an undeclared one the per-address rule.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacitySettings, stageCapacity, WAF_MINIMUM_LIMIT } from '../../infra/cdk/capacity.ts';
import { EDGE_REQUEST_ID } from '../../infra/cdk/constructs/web-acl.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { MAX_BODY_BYTES } from '#lib/http/json-body.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import type { ProxyHandler } from '../../infra/local/lambda/source-functions.ts';
import { getFrom, paced, postFrom } from '../support/from-address.ts';

/**
 * Each API method at r = B = 20, a need of 20 + ⌈20 × 0.1 s⌉ = 22; a key, and an address, may make 32 requests
 * a minute, an address 10 on the docs routes.
 */
const CONTEXT = {
  'staging.methodRateLimit': '20',
  'staging.burstSeconds': '1',
  'staging.perKeyPerMinute': '32',
  'staging.perSourcePerMinute': '32',
  'staging.docsPerSourcePerMinute': '10',
  'staging.functionDurationMs': '100',
  'staging.reserveConcurrency': 'true',
};
const settings: CapacitySettings = readStageSettings('staging', (key) => CONTEXT[key as keyof typeof CONTEXT]);
const capacity = stageCapacity(settings);
const PER_KEY = capacity.webAcl.perKeyPerMinute;
/** list-pets' reservation: 20 + ⌈20 × 0.1 s⌉ = 22. */
const RESERVED = capacity.functions.find((f) => f.functionId === 'list-pets')?.reservedConcurrency ?? 0;
/** Paths on different methods, each with its own token bucket of 20: WAF's count, not a bucket, binds first. */
const KEYED_PATHS = ['/pets?limit=1', '/pets/0000000000000000', '/nowhere', '/openapi.json'];

let template: CfnTemplate;
beforeAll(async () => {
  template = await synthesizeStageTemplate('staging', CONTEXT);
});

const stacks: LocalStack[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.close()));
});

/** A fresh local stack (fresh counters) serving that template with its limits on. */
async function start(options: { apiKey?: string; handlers?: Record<string, ProxyHandler> } = {}): Promise<LocalStack> {
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', template, throttling: true, ...options });
  stacks.push(stack);
  return stack;
}

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('retry-after')).toBe('60');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.json()).toEqual({ code: 'too_many_requests', message: expect.stringMatching(/^Too many requests/), status: 429 });
}

describe('the web ACL, from the template', () => {
  it('gives one API key its limit per minute, then 429, from any address, while another key elsewhere is still served', async () => {
    const apiKey = generateApiKey();
    const { url } = await start({ apiKey });
    const asKey = (from: string, key: string, i = 0) =>
      getFrom(from, `${url}${KEYED_PATHS[i % KEYED_PATHS.length]}`, { Authorization: `Bearer ${key}` });
    for (let i = 0; i < PER_KEY; i++) expect((await asKey('127.0.0.1', apiKey, i)).status).toBeLessThan(429);
    await expectRateLimited(await asKey('127.0.0.1', apiKey));
    // Counted per key: the same key from another address is over its limit too.
    await expectRateLimited(await asKey('127.0.0.2', apiKey));
    // Another (here unknown) key from another address reaches the function, which says 401.
    expect((await asKey('127.0.0.3', generateApiKey())).status).toBe(401);
  });

  it('gives one source address its limit per minute without any key, then 429', async () => {
    const { url } = await start();
    // Not the pet operations (a keyless request there is the edge's 401, before any rate rule counts
    // it), nor the docs rule's routes: unknown paths, on two resources and so two buckets.
    for (let i = 0; i < PER_KEY; i++) expect((await getFrom('127.0.0.1', `${url}${i % 2 ? '/nowhere' : ''}`)).status).toBe(404);
    await expectRateLimited(await getFrom('127.0.0.1', `${url}/openapi.json`));
    await expectRateLimited(await getFrom('127.0.0.1', `${url}/docs`));
    expect((await getFrom('127.0.0.2', `${url}/openapi.json`)).status).toBe(200);
  });

  it("counts the OpenAPI document under the docs routes' rule: one address gets it its docs limit a minute, then 429", async () => {
    const { url } = await start();
    for (let i = 0; i < capacity.webAcl.docsPerIpPerMinute; i++)
      expect((await getFrom('127.0.0.1', `${url}/openapi.json`)).status).toBe(200);
    await expectRateLimited(await getFrom('127.0.0.1', `${url}/openapi.json`));
    // The document's bucket, which every client shares and the first address emptied, refills a token.
    await new Promise((resolve) => setTimeout(resolve, 1000 / settings.docsThrottlingRateLimit));
    expect((await getFrom('127.0.0.2', `${url}/openapi.json`)).status).toBe(200);
  });

  it("answers every body over the service's limit with the edge's 413, declared or chunked; none reaches a function", async () => {
    const apiKey = generateApiKey();
    const { url } = await start({ apiKey });
    const body = (bytes: number) => `{"name":"Rex","categoryId":1}${' '.repeat(bytes - 29)}`;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    for (let i = 0; i < 2 * WAF_MINIMUM_LIMIT; i++) {
      const refused = await postFrom('127.0.0.1', `${url}/pets`, body(MAX_BODY_BYTES + 1), headers);
      expect(refused.status).toBe(413);
      expect(await refused.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
      expect(refused.headers.get('x-request-id')).toBe(EDGE_REQUEST_ID);
    }
    // Without Content-Length (Transfer-Encoding: chunked): counted as it is read.
    const chunked = await postChunked(`${url}/pets`, [body(MAX_BODY_BYTES / 2), ' '.repeat(MAX_BODY_BYTES)], headers);
    expect(chunked.status).toBe(413);
    expect(chunked.headers.get('x-request-id')).toBe(EDGE_REQUEST_ID);
    // A pet at the limit, sent either way, is created.
    expect((await postFrom('127.0.0.1', `${url}/pets`, body(MAX_BODY_BYTES), headers)).status).toBe(201);
    expect((await postChunked(`${url}/pets`, [body(1024)], headers)).status).toBe(201);
  });
});

/** POST `chunks` with Transfer-Encoding: chunked (no Content-Length). */
function postChunked(
  url: string,
  chunks: readonly string[],
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('a declared load-test source, on the staging template at its own settings', () => {
  const DECLARED = '127.0.0.2';
  const model = stageCapacity(readStageSettings('staging', () => undefined));
  const { rateLimit: r, burstLimit: B } = model.apiThrottle;
  const perIp = model.webAcl.perIpPerMinute;
  /** Seconds at r after the burst: past the per-address limit by half again, well inside WAF's minute. */
  const seconds = Math.ceil((1.5 * (perIp - B)) / r);
  const total = B + r * seconds;

  /** B requests at once, then r a second: what was admitted, and WAF's 429s. */
  async function atTheModelsRate(from: string, url: string, apiKey: string) {
    const outcomes = await paced(total, r, () => getFrom(from, url, { Authorization: `Bearer ${apiKey}` }), { burst: B });
    return { admitted: outcomes.filter((o) => typeof o === 'number').length, waf: outcomes.filter((o) => o === 'waf-429').length };
  }

  it("reaches 90 % of a method's admission past its burst, while an undeclared source is held to the per-address rule", async () => {
    const staging = await synthesizeStageTemplate('staging', { 'staging.loadTestSources': `${DECLARED}/32` });
    // The functions answer at once: what is measured is the edge and the buckets, on a busy machine too.
    const ok: ProxyHandler = async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' });
    const stack = await startLocalStack({
      port: 0,
      dataDir: ':memory:',
      template: staging,
      throttling: true,
      handlers: { 'list-pets': ok, 'get-pet': ok },
    });
    stacks.push(stack);
    // Two methods, two buckets: the two sources run at once without sharing one.
    const [declared, undeclared] = await Promise.all([
      atTheModelsRate(DECLARED, `${stack.url}/pets`, generateApiKey()),
      atTheModelsRate('127.0.0.3', `${stack.url}/pets/1`, generateApiKey()),
    ]);
    console.log(
      `declared ${DECLARED}: ${declared.admitted} of ${total} admitted (${((declared.admitted - B) / seconds).toFixed(1)} req/s past the burst ${B}, r = ${r}); ` +
        `undeclared: ${undeclared.admitted} admitted, ${undeclared.waf} WAF 429s (per-address limit ${perIp}/min)`,
    );
    expect(declared.waf).toBe(0);
    expect(declared.admitted).toBeGreaterThanOrEqual(0.9 * total);
    expect(undeclared.admitted).toBeLessThanOrEqual(perIp);
    expect(undeclared.waf).toBeGreaterThanOrEqual(total - perIp);
  });
});

describe('reserved concurrency, from the template', () => {
  it('answers a request over the reservation, when calls outlast the duration budget, with 503 and Retry-After, without running it', async () => {
    const apiKey = generateApiKey();
    const { handler: listPets } = (await import('../../functions/list-pets.ts')) as { handler: ProxyHandler };
    let entered = 0;
    const gates: (() => void)[] = [];
    const held: ProxyHandler = async (event, context) => {
      entered++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return listPets(event, context);
    };
    const { url } = await start({ apiKey, handlers: { 'list-pets': held } });
    const list = () => fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${apiKey}` } });
    // The burst, then what the bucket refills while the held calls outlast the 100 ms budget. Each
    // wait is the least the bucket needs: a busy machine that ends it late only refills more.
    const refill = (tokens: number) => new Promise((resolve) => setTimeout(resolve, (tokens * 1000) / capacity.apiThrottle.rateLimit));
    const running = Array.from({ length: capacity.apiThrottle.burstLimit }, list);
    await expect.poll(() => entered).toBe(capacity.apiThrottle.burstLimit);
    await refill(RESERVED - capacity.apiThrottle.burstLimit);
    running.push(...Array.from({ length: RESERVED - capacity.apiThrottle.burstLimit }, list));
    await expect.poll(() => entered).toBe(RESERVED);
    await refill(1);
    const throttled = await list();
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(throttled.headers.get('x-request-id')).toBeTruthy();
    expect(await throttled.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(entered).toBe(RESERVED);
    for (const open of gates) open();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual(Array(RESERVED).fill(200));
  });
});
