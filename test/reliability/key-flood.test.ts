/**
 * Made-up keys from many addresses, on the staging template at its own settings: each address
 * stays below the per-address rule, each request carries a fresh well-formed key, so the WAF's
 * rate rules never tell them from clients; together they empty `GET /pets`'s bucket, and a real
 * key beside them gets the gateway's 429. What bounds it and what ends it (docs/scaling.md, "The
 * edge: made-up keys"): without the automatic blocks (their subscription filter taken out of the
 * template) the flood holds the method; with the addresses in `blockedSources` they get 403; with
 * the automatic blocks, local mode's detector (the stage's own rule) blocks each address once its
 * key failures cross the rule, and a second wave of 20 fresh addresses is blocked as fast.
 *
 * Time: the automatic phases last 3 minutes of the detector's clock, which runs SCALE times faster
 * than the wall clock (same window and thresholds in its own minutes); the gateway's bucket and the
 * WAF's rate rules keep real time. Loopback only, bounded: 20 addresses of 127.0.1.x (then
 * 127.0.2.x), about 8 s a plain phase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { AT_THROTTLE_SHARE, stageCapacity } from '../../infra/cdk/capacity.ts';
import { floodRule } from '../../infra/cdk/constructs/edge-blocks.ts';
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
let templates: { automatic: CfnTemplate; before: CfnTemplate; after: CfnTemplate };
/** The detector's clock runs this many times faster than the wall clock. */
const SCALE = 6;
/** The automatic phases: 3 of the detector's minutes. */
const automaticSeconds = 180 / SCALE;

beforeAll(async () => {
  const [automatic, after] = await Promise.all([
    synthesizeStageTemplate('staging'),
    synthesizeStageTemplate('staging', { 'staging.blockedSources': '127.0.1.0/27' }),
  ]);
  // Without the subscription filter, local mode runs no detector: the stage as it was before the automatic blocks.
  const before = structuredClone(automatic) as { Resources: Record<string, unknown> } & CfnTemplate;
  for (const [id, r] of Object.entries(before.Resources)) if (r.Type === 'AWS::Logs::SubscriptionFilter') delete before.Resources[id];
  templates = { automatic, before, after };
  store = await testStore();
  proxy = await startFaultProxy(store.endpoint);
});

afterAll(async () => {
  await proxy?.close();
  await store?.close();
});

/**
 * One connection a request: over a long phase a kept-alive socket left idle in the client's pool
 * past the server's keep-alive timeout can be reused as the server closes it (ECONNRESET).
 */
const CLOSE = { Connection: 'close' };
/**
 * A connection the local server reset (a busy machine) answers status 0: counted as a refusal of
 * the real key, never as a success.
 */
let resets = 0;
const get = (from: string, url: string, headers: Record<string, string>) =>
  getFrom(from, url, headers).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    resets += 1;
    return new Response(null, { status: 599 });
  });
const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const rule = floodRule([]);

/** Per wave, the real key's share of refusals in the last third of the phase (the detector's last minute). */
const lastThirdRefused = (outcomes: readonly unknown[]) => {
  const last = outcomes.slice(Math.floor((2 * outcomes.length) / 3));
  return last.filter((o) => o !== 200).length / last.length;
};

/**
 * A phase: the flood and the real key at once on a fresh stack (fresh buckets and counters)
 * serving `template`, `waves` times in a row from fresh addresses, `seconds` each.
 */
async function flood(template: CfnTemplate, { waves = 1, phaseSeconds = seconds } = {}) {
  let stack: LocalStack | undefined;
  try {
    // The functions reach the store through the proxy, which counts their calls.
    const onStore = { dynamodbEndpoint: proxy.endpoint, tablePrefix: store.tablePrefix };
    const start = performance.now();
    const edgeClock = () => Date.now() + (performance.now() - start) * (SCALE - 1);
    stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey, ...onStore, template, throttling: true, edgeClock });
    const url = `${stack.url}${LISTING}`;
    const perWave: number[] = [];
    let result: Awaited<ReturnType<typeof wave>> | undefined;
    for (let w = 0; w < waves; w++) {
      result = await wave(w, url, phaseSeconds, stack);
      perWave.push(result.realLastThirdRefused);
    }
    return { ...(result as NonNullable<typeof result>), perWave };
  } finally {
    await stack?.close();
  }
}

async function wave(w: number, url: string, seconds: number, stack: LocalStack) {
  const keyReads = () => proxy.calls.filter((c) => c.operation === 'GetItem' && c.tableName === stack?.tableNames.apiKeys).length;
  const readsBefore = keyReads();
  const [real, ...made] = await Promise.all([
    paced(realRate * seconds, realRate, () => get('127.0.0.2', url, { Authorization: `Bearer ${apiKey}`, ...CLOSE }), { jitter: true }),
    ...addresses.map((from) =>
      paced(
        perAddress * seconds,
        perAddress,
        () => get(from.replace('127.0.1.', `127.0.${w + 1}.`), url, { Authorization: `Bearer ${generateApiKey()}`, ...CLOSE }),
        {
          jitter: true,
        },
      ),
    ),
  ]);
  const madeUp = made.flat();
  const share = (outcomes: readonly unknown[], of: unknown) => outcomes.filter((o) => o === of).length / outcomes.length;
  return {
    /** The real key's answers refused by the gateway's bucket, and by anything. */
    realGateway429: share(real ?? [], 'gateway-429'),
    realServed: share(real ?? [], 200),
    realLastThirdRefused: lastThirdRefused(real ?? []),
    real: real ?? [],
    madeUp403: madeUp.filter((o) => o === 403).length,
    madeUpSent: madeUp.length,
    /** Made-up keys that reached a function: its 401. */
    madeUpReached: madeUp.filter((o) => o === 401).length,
    keyReads: keyReads() - readsBefore,
    /** What the method admitted a second, the real key's and the made-up keys' together. */
    admittedPerSecond: ((real ?? []).filter((o) => o === 200).length + madeUp.filter((o) => o === 401).length) / seconds,
  };
}

describe(`${addresses.length} addresses at ${perAddress} req/s each with made-up keys, a real key at ${realRate} req/s, ${seconds} s`, () => {
  it("empty the listing's bucket, one key read per made-up key admitted, until their addresses are blocked at the edge", async () => {
    const before = await flood(templates.before);
    const after = await flood(templates.after);
    console.log(
      `r = ${r}/s, B = ${B}, per-address rule ${model.webAcl.perIpPerMinute}/min. ` +
        `Before: the real key got the gateway's 429 on ${pct(before.realGateway429)} of its requests; ` +
        `the method admitted ${before.admittedPerSecond.toFixed(1)}/s (alarm at ${pct(AT_THROTTLE_SHARE)} of r); ` +
        `${before.madeUpSent} made-up keys sent, ${before.madeUpReached} reached a function, ${before.keyReads} key reads ` +
        `(${(before.keyReads / before.madeUpReached).toFixed(2)} per made-up key admitted, ${(before.keyReads / before.madeUpSent).toFixed(2)} per one sent). ` +
        `After blockedSources: the real key got the gateway's 429 on ${pct(after.realGateway429)}, served ${pct(after.realServed)}; ` +
        `${after.madeUp403} of ${after.madeUpSent} made-up keys got WAF's 403, ${after.keyReads} key reads.`,
    );
    // Before: the flood takes the bucket; the real key meets the gateway's 429; the method runs at its throttle.
    expect(before.realGateway429).toBeGreaterThan(0.25);
    expect(before.admittedPerSecond).toBeGreaterThanOrEqual(AT_THROTTLE_SHARE * r);
    expect(before.madeUpReached).toBeLessThanOrEqual(B + r * seconds * 1.05);
    // One strongly consistent key read per made-up key a function sees (the real key's is cached), none for the bucket's 429s.
    expect(before.keyReads).toBeGreaterThanOrEqual(before.madeUpReached);
    // Plus the real key's first read, by each of its requests in flight before the cache holds it (one or two).
    expect(before.keyReads).toBeLessThanOrEqual(before.madeUpReached + 2);
    // After: the edge answers every flooding request; nothing of it reaches the bucket, a function or the store.
    expect(after.madeUp403).toBe(after.madeUpSent);
    expect(after.keyReads).toBeLessThanOrEqual(1);
    expect(after.realGateway429).toBe(0);
    expect(after.realServed).toBe(1);
  });

  it('are blocked by the automatic blocks within the first minute, and so are 20 fresh addresses after them', async () => {
    const automatic = await flood(templates.automatic, { waves: 2, phaseSeconds: automaticSeconds });
    console.log(
      `Automatic blocks (detector clock ×${SCALE}, 3 of its minutes a wave): the real key was refused on ` +
        `${automatic.perWave.map(pct).join(' and ')} of its requests in the last minute of each wave; ` +
        `second wave: ${automatic.madeUp403} of ${automatic.madeUpSent} made-up keys got 403, ${automatic.madeUpReached} reached a function; ` +
        `${resets} connections reset.`,
    );
    for (const refused of automatic.perWave) expect(refused).toBeLessThanOrEqual(0.05);
    // Each address reaches a function with the rule's 10 failures, then gets 403s. The window is 6 s of wall
    // clock here, while the bucket still paces the failures: on a busy machine 10 can span two windows.
    expect(automatic.madeUpReached).toBeLessThanOrEqual(3 * addresses.length * rule.minUnauthorized);
    expect(automatic.madeUp403).toBeGreaterThanOrEqual(0.5 * automatic.madeUpSent);
  });
});
