/**
 * The stage's limits end to end, over HTTP through local mode with its limits on: the staging
 * template with the web ACL turned on and low limits, so a client over a rate rule gets WAF's 429
 * in the Error shape, and a function over its reserved concurrency gets the gateway's 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import type { ProxyHandler } from '../../infra/local/lambda/source-functions.ts';

const PER_KEY = 10;
const PER_IP = 30;
const RESERVED = 2;

let template: CfnTemplate;
beforeAll(async () => {
  template = await synthesizeStageTemplate('staging', {
    'staging.webAcl': 'true',
    'staging.webAclPerKeyPerMinute': String(PER_KEY),
    'staging.webAclPerIpPerMinute': String(PER_IP),
    'staging.reservedConcurrency': String(RESERVED),
  });
}, 60_000);

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
  it('gives one API key its limit per minute, then 429, while another key is still served', async () => {
    const apiKey = generateApiKey();
    const { url } = await start({ apiKey });
    const asKey = (key: string) => fetch(`${url}/pets?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    for (let i = 0; i < PER_KEY; i++) expect((await asKey(apiKey)).status).toBe(200);
    await expectRateLimited(await asKey(apiKey));
    // Counted per Authorization value: another (here unknown) key reaches the function, which says 401.
    expect((await asKey(generateApiKey())).status).toBe(401);
  });

  it('gives one source its limit per minute without any key, e.g. on the public document, then 429', async () => {
    const { url } = await start();
    for (let i = 0; i < PER_IP; i++) expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    await expectRateLimited(await fetch(`${url}/openapi.json`));
    await expectRateLimited(await fetch(`${url}/docs`));
  });
});

describe('reserved concurrency, from the template', () => {
  it('answers a request over the function reservation with 503 service_unavailable and Retry-After, without running it', async () => {
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
    const running = Array.from({ length: RESERVED }, list);
    await expect.poll(() => entered).toBe(RESERVED);
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
