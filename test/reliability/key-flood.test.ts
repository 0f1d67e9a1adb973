/**
 * Made-up keys from many addresses, on the staging template at its own settings: each address
 * stays below the per-address rule, each request carries a fresh well-formed key, so nothing at
 * the edge tells them from clients; together they empty `GET /pets`'s bucket, and a real key
 * beside them gets the gateway's 429. What bounds it, what alarms and what ends it
 * (docs/scaling.md, "The edge: made-up keys"): each made-up key costs one key read and only while
 * the bucket admits it; the method runs at its throttle, which its function's alarm watches; the
 * addresses declared in `blockedSources` get WAF's 429, and the real key is served again.
 * Loopback only, bounded in time: 20 addresses of 127.0.1.x, about 8 s a phase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { AT_THROTTLE_SHARE, stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { getFrom, paced } from '../support/from-address.ts';
import { type TestStore, testStore } from '../support/store-endpoint.ts';

const model = stageCapacity(readStageSettings('staging', () => undefined));
const { rateLimit: r, burstLimit: B } = model.apiThrottle;
/** Each flooding address just below the per-address rule (a minute's limit, as a rate). */
const perAddress = Math.floor((0.975 * model.webAcl.perIpPerMinute) / 60 / 0.5) * 0.5;
/** Enough addresses to ask for 2.5 times the method's rate. */
const addresses = Array.from({ length: Math.ceil((2.5 * r) / perAddress) }, (_, i) => `127.0.1.${i + 1}`);
/** The real key asks for its minute's limit past one burst, as a rate, well inside every limit. */
const realRate = (model.webAcl.perKeyPerMinute - B) / 60;
/** Long past the burst: the bucket's B lasts B ÷ (demand − r) seconds of the flood. */
const seconds = Math.ceil((6 * B) / (addresses.length * perAddress - r));
const LISTING = '/pets?limit=100&status=available';

let store: TestStore;
let proxy: FaultProxy;
const apiKey = generateApiKey();
let templates: { before: CfnTemplate; after: CfnTemplate };

beforeAll(async () => {
  const [before, after] = await Promise.all([
    synthesizeStageTemplate('staging'),
    synthesizeStageTemplate('staging', { 'staging.blockedSources': '127.0.1.0/27' }),
  ]);
  templates = { before, after };
  store = await testStore();
  proxy = await startFaultProxy(store.endpoint);
});

afterAll(async () => {
  await proxy?.close();
  await store?.close();
});

/** A phase: the flood and the real key at once on a fresh stack (fresh buckets and counters) serving `template`. */
async function flood(template: CfnTemplate) {
  let stack: LocalStack | undefined;
  try {
    // The functions reach the store through the proxy, which counts their calls.
    const onStore = { dynamodbEndpoint: proxy.endpoint, tablePrefix: store.tablePrefix };
    stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey, ...onStore, template, throttling: true });
    const url = `${stack.url}${LISTING}`;
    const keyReads = () => proxy.calls.filter((c) => c.operation === 'GetItem' && c.tableName === stack?.tableNames.apiKeys).length;
    const readsBefore = keyReads();
    const [real, ...made] = await Promise.all([
      paced(realRate * seconds, realRate, () => getFrom('127.0.0.2', url, { Authorization: `Bearer ${apiKey}` }), { jitter: true }),
      ...addresses.map((from) =>
        paced(perAddress * seconds, perAddress, () => getFrom(from, url, { Authorization: `Bearer ${generateApiKey()}` }), {
          jitter: true,
        }),
      ),
    ]);
    const madeUp = made.flat();
    const share = (outcomes: readonly unknown[], of: unknown) => outcomes.filter((o) => o === of).length / outcomes.length;
    return {
      /** The real key's answers refused by the gateway's bucket, and by anything. */
      realGateway429: share(real ?? [], 'gateway-429'),
      realServed: share(real ?? [], 200),
      madeUpSent: madeUp.length,
      /** Made-up keys that reached a function: its 401. */
      madeUpReached: madeUp.filter((o) => o === 401).length,
      madeUpWaf429: madeUp.filter((o) => o === 'waf-429').length,
      keyReads: keyReads() - readsBefore,
      /** What the method admitted a second, the real key's and the made-up keys' together. */
      admittedPerSecond: ((real ?? []).filter((o) => o === 200).length + madeUp.filter((o) => o === 401).length) / seconds,
    };
  } finally {
    await stack?.close();
  }
}

describe(`${addresses.length} addresses at ${perAddress} req/s each with made-up keys, a real key at ${realRate} req/s, ${seconds} s`, () => {
  it("empty the listing's bucket, one key read per made-up key admitted, until their addresses are blocked at the edge", async () => {
    const before = await flood(templates.before);
    const after = await flood(templates.after);
    const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
    console.log(
      `r = ${r}/s, B = ${B}, per-address rule ${model.webAcl.perIpPerMinute}/min. ` +
        `Before: the real key got the gateway's 429 on ${pct(before.realGateway429)} of its requests; ` +
        `the method admitted ${before.admittedPerSecond.toFixed(1)}/s (alarm at ${pct(AT_THROTTLE_SHARE)} of r); ` +
        `${before.madeUpSent} made-up keys sent, ${before.madeUpReached} reached a function, ${before.keyReads} key reads ` +
        `(${(before.keyReads / before.madeUpReached).toFixed(2)} per made-up key admitted, ${(before.keyReads / before.madeUpSent).toFixed(2)} per one sent). ` +
        `After blockedSources: the real key got the gateway's 429 on ${pct(after.realGateway429)}, served ${pct(after.realServed)}; ` +
        `${after.madeUpWaf429} of ${after.madeUpSent} made-up keys got WAF's 429, ${after.keyReads} key reads.`,
    );
    // Before: the flood takes the bucket; the real key meets the gateway's 429; the method runs at its throttle.
    expect(before.realGateway429).toBeGreaterThan(0.25);
    expect(before.admittedPerSecond).toBeGreaterThanOrEqual(AT_THROTTLE_SHARE * r);
    expect(before.madeUpReached).toBeLessThanOrEqual(B + r * seconds * 1.05);
    // One strongly consistent key read per made-up key a function sees (the real key's is cached), none for the bucket's 429s.
    expect(before.keyReads).toBeGreaterThanOrEqual(before.madeUpReached);
    expect(before.keyReads).toBeLessThanOrEqual(before.madeUpReached + 1);
    // After: the edge answers every flooding request; nothing of it reaches the bucket, a function or the store.
    expect(after.madeUpWaf429).toBe(after.madeUpSent);
    expect(after.keyReads).toBeLessThanOrEqual(1);
    expect(after.realGateway429).toBe(0);
    expect(after.realServed).toBe(1);
  });
});
