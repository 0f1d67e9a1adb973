/**
 * What each stage admits is served: the stage's full burst of concurrent creates from one key all
 * get 201, also with reserveConcurrency on (each function then reserves its need), and requests
 * beyond the burst at once get the gateway's 429 (Retry-After, Error body), never a 5xx. Every
 * limit on: the stage's template with its web ACL, method throttles and any reservations, served
 * by the handler sources (`npm test`) or, at the stage's own settings, by both stages' bundles
 * (`npm run test:bundles`).
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings, STAGE_NAMES, type StageName } from '../../infra/cdk/stages.ts';
import { cachedStageTemplate, synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

/**
 * The variants: reservations on; and a rate of one request a second, so that what exceeds the
 * burst is refused however slowly this machine takes the requests in (at the stage's own rate, a
 * busy machine takes them in no faster than the bucket refills), with the whole minute's rate as
 * one key's WAF share, so that WAF stays above the burst.
 */
const variants = {
  reserving: (stage: StageName) => synthesizeStageTemplate(stage, { [`${stage}.reserveConcurrency`]: 'true' }),
  slowRefill: (stage: StageName) => synthesizeStageTemplate(stage, slowRefill(stage)),
};

/** Each API method's bucket at the stage's settings, with `context` over them. */
function throttleOf(stage: StageName, context: Record<string, string> = {}) {
  return stageCapacity(readStageSettings(stage, (key) => context[key])).apiThrottle;
}

/** A bucket that holds B seconds of its rate keeps the burst B, at a rate of one a second; a client's WAF limit its whole minute. */
function slowRefill(stage: StageName): Record<string, string> {
  const minute = String(throttleOf(stage).burstLimit + 60);
  return {
    [`${stage}.methodRateLimit`]: '1',
    [`${stage}.burstSeconds`]: String(throttleOf(stage).burstLimit),
    [`${stage}.perKeyPerMinute`]: minute,
    [`${stage}.perSourcePerMinute`]: minute,
  };
}

const stacks: LocalStack[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.close()));
});

/** A fresh local stack (fresh buckets and counters) with every limit on: the stage's bundles when given, else a template. */
async function start(stage: StageName, apiKey: string, template?: Promise<CfnTemplate>): Promise<LocalStack> {
  const cloudAssembly = inject('cloudAssembly');
  const served = cloudAssembly && !template ? { cloudAssembly } : { template: await (template ?? cachedStageTemplate(stage)) };
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey, stage, throttling: true, ...served });
  stacks.push(stack);
  return stack;
}

/** `count` concurrent creates with one key. */
function creates(stack: LocalStack, apiKey: string, count: number): Promise<Response[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${stack.url}/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `burst-${i}`, categoryId: 1, status: 'available' }),
      }),
    ),
  );
}

describe.each(STAGE_NAMES)('%s at its burst', (stage) => {
  const { burstLimit: burst, rateLimit: rate } = throttleOf(stage);

  it(`serves ${stage}'s full burst of concurrent creates from one key, and nothing beyond it is a 5xx`, async () => {
    const apiKey = generateApiKey();
    const stack = await start(stage, apiKey);
    expect((await creates(stack, apiKey, burst)).map((r) => r.status)).toEqual(Array(burst).fill(201));
    // Once the bucket is full again, the burst and a second's rate more at once: the burst is served, the rest 201 or 429.
    await new Promise((resolve) => setTimeout(resolve, (burst / rate) * 1000 + 200));
    const statuses = (await creates(stack, apiKey, burst + rate)).map((r) => r.status);
    expect(statuses.filter((status) => status !== 201 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(burst);
  });

  it(`serves ${stage}'s full burst with reserveConcurrency on: each function reserves its need`, async () => {
    const apiKey = generateApiKey();
    const stack = await start(stage, apiKey, variants.reserving(stage));
    expect((await creates(stack, apiKey, burst)).map((r) => r.status)).toEqual(Array(burst).fill(201));
  });

  it(`answers what exceeds ${stage}'s burst at once with the gateway's 429, Retry-After and an Error body`, async () => {
    const apiKey = generateApiKey();
    expect(throttleOf(stage, slowRefill(stage))).toEqual({ rateLimit: 1, burstLimit: burst });
    const stack = await start(stage, apiKey, variants.slowRefill(stage));
    const responses = await creates(stack, apiKey, burst + 20);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((status) => status !== 201 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(burst);
    const throttled = responses.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    for (const response of throttled) {
      // The gateway's throttle (Retry-After 1), not WAF's (60): one key's WAF limit is above the burst.
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({ code: 'too_many_requests', message: expect.any(String), status: 429 });
    }
  });
});
