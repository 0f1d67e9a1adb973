/**
 * The capacity model on its own: how the stage's API methods share its concurrency (for any number
 * of methods), each derived limit from the settings, the checks over stages that may share an
 * account, and the committed defaults passing them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
import {
  type CapacitySettings,
  DOCS_FUNCTION,
  DOCS_METHODS,
  DOCS_PAGE_LOAD_REQUESTS,
  MINIMUM_UNRESERVED_CONCURRENCY,
  WAF_MINIMUM_LIMIT,
  apiThrottle,
  capacityProblems,
  comparedWith,
  fmt,
  methodConcurrencyNeed,
  minimumApiConcurrency,
  minimumUnreserved,
  stageCapacity,
} from '../../infra/cdk/capacity.ts';
import { STAGE_NAMES, readStageSettings } from '../../infra/cdk/stages.ts';

const base: CapacitySettings = {
  apiConcurrency: 330,
  burstSeconds: 2,
  docsThrottlingRateLimit: 5,
  docsThrottlingBurstLimit: 10,
  functionDurationMs: 200,
  accountConcurrency: 1000,
  clientSharePercent: 10,
  reserveConcurrency: false,
};
const at = (stage: string, settings: Partial<CapacitySettings>, account?: string) => ({
  stage,
  ...base,
  ...settings,
  ...(account ? { env: { account, region: 'eu-west-1' } } : {}),
});
const need = (settings: CapacitySettings) => stageCapacity(settings).concurrencyNeed;

describe('the capacity model', () => {
  it('gives each method B + ⌈r × d⌉ executions: its burst, and its rate for one duration budget', () => {
    expect(methodConcurrencyNeed({ rateLimit: 50, burstLimit: 100 }, 200)).toBe(110);
    // A part of an execution is a whole one.
    expect(methodConcurrencyNeed({ rateLimit: 7, burstLimit: 7 }, 150)).toBe(7 + 2);
  });

  it('derives r = ⌊share ÷ (burstSeconds + d)⌋ and B = ⌊r × burstSeconds⌋ from a method’s share of apiConcurrency', () => {
    expect(apiThrottle(base, 3)).toEqual({ rateLimit: 50, burstLimit: 100 });
    expect(apiThrottle({ ...base, apiConcurrency: 510, burstSeconds: 1.5 }, 3)).toEqual({ rateLimit: 100, burstLimit: 150 });
    // One more method: a smaller share each, the same budget.
    expect(apiThrottle(base, 4)).toEqual({ rateLimit: 37, burstLimit: 74 });
  });

  it('fits every method’s need in its share, for any settings and any number of methods, and refuses no budget that gives each a rate', () => {
    const settings = fc.record({
      apiConcurrency: fc.integer({ min: 1, max: 200_000 }),
      burstSeconds: fc.integer({ min: 1000, max: 120_000 }).map((ms) => ms / 1000),
      functionDurationMs: fc.integer({ min: 1, max: 10_000 }),
    });
    fc.assert(
      fc.property(settings, fc.integer({ min: 1, max: 60 }), (given, methods) => {
        const s = { ...base, ...given };
        const throttle = apiThrottle(s, methods);
        const share = Math.floor(s.apiConcurrency / methods);
        // The composing invariant: what a method's bucket admits, its share of Lambda serves.
        expect(methodConcurrencyNeed(throttle, s.functionDurationMs)).toBeLessThanOrEqual(share);
        expect(methods * methodConcurrencyNeed(throttle, s.functionDurationMs)).toBeLessThanOrEqual(s.apiConcurrency);
        // The floor the settings check refuses below is exactly where the rate reaches 1.
        expect(throttle.rateLimit >= 1).toBe(s.apiConcurrency >= minimumApiConcurrency(s, methods));
        if (throttle.rateLimit >= 1) expect(throttle.burstLimit).toBeGreaterThanOrEqual(throttle.rateLimit);
      }),
    );
  });

  it('shares apiConcurrency among the route table’s methods, and gives the docs methods their own throttle', () => {
    const capacity = stageCapacity(base);
    const api = apiThrottle(base, routes.length);
    const apiNeed = methodConcurrencyNeed(api, base.functionDurationMs);
    const docsNeed = methodConcurrencyNeed({ rateLimit: 5, burstLimit: 10 }, base.functionDurationMs);
    expect(capacity.apiThrottle).toEqual(api);
    expect(capacity.methods.map((m) => [m.method, m.functionId, m.concurrencyNeed])).toEqual([
      ...routes.map((r) => [`${r.method} ${r.resource}`, r.functionId, apiNeed]),
      ...DOCS_METHODS.map((m) => [`${m.method} ${m.resource}`, DOCS_FUNCTION, docsNeed]),
    ]);
    expect(routes.length * apiNeed).toBeLessThanOrEqual(base.apiConcurrency);
    expect(capacity.functions.find((f) => f.functionId === DOCS_FUNCTION)?.concurrencyNeed).toBe(DOCS_METHODS.length * docsNeed);
    expect(capacity.concurrencyNeed).toBe(routes.length * apiNeed + DOCS_METHODS.length * docsNeed);
    // Off: no reservation anywhere.
    expect(capacity.reservedConcurrency).toBe(0);
    expect(capacity.functions.every((f) => f.reservedConcurrency === undefined)).toBe(true);
    expect(capacity.accountRequestsPerSecond).toBe(1000 / 0.2);
  });

  it('reserves each function its need when asked', () => {
    const capacity = stageCapacity({ ...base, reserveConcurrency: true });
    for (const fn of capacity.functions) expect(fn.reservedConcurrency).toBe(fn.concurrencyNeed);
    expect(capacity.reservedConcurrency).toBe(capacity.concurrencyNeed);
  });

  it("derives WAF's limits: a key gets one burst plus its share of a minute's rate, an address the same, the docs a share of theirs", () => {
    const { rateLimit: r, burstLimit: b } = apiThrottle(base);
    const perKey = b + Math.ceil(0.1 * 60 * r);
    expect(stageCapacity(base).webAcl).toEqual({
      perKeyPerMinute: perKey,
      perIpPerMinute: perKey,
      docsPerIpPerMinute: 30,
      // A body over the service's limit is refused anyway: WAF's floor of them per address.
    });
    expect(stageCapacity({ ...base, clientSharePercent: 25 }).webAcl.perKeyPerMinute).toBe(b + Math.ceil(0.25 * 60 * r));
    // Never below WAF's floor, nor below one load of the reference page: one request a second per method.
    const slow = { ...base, burstSeconds: 1, docsThrottlingRateLimit: 1, docsThrottlingBurstLimit: 1 };
    const tiny = stageCapacity({ ...slow, apiConcurrency: minimumApiConcurrency(slow) });
    expect(tiny.apiThrottle).toEqual({ rateLimit: 1, burstLimit: 1 });
    expect(tiny.webAcl).toEqual({
      perKeyPerMinute: WAF_MINIMUM_LIMIT,
      perIpPerMinute: WAF_MINIMUM_LIMIT,
      docsPerIpPerMinute: WAF_MINIMUM_LIMIT,
    });
    expect(DOCS_PAGE_LOAD_REQUESTS).toBeLessThanOrEqual(WAF_MINIMUM_LIMIT);
  });

  it('words a comparison from the figures: above only when the figure exceeds the limit', () => {
    expect([comparedWith(901, 900), comparedWith(900, 900), comparedWith(1, 900)]).toEqual(['above', 'within', 'within']);
  });
});

describe('the account checks', () => {
  it('pass the committed defaults: both stages in one account, and with reservations on in both', () => {
    const stages = STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined));
    expect(capacityProblems(stages)).toEqual([]);
    expect(capacityProblems(stages.map((s) => ({ ...s, reserveConcurrency: true })))).toEqual([]);
  });

  const big = { apiConcurrency: 3000 };
  it('refuse stages that may share an account whose needs exceed it, naming the settings and the numbers', () => {
    const [a, b] = [need(base), need({ ...base, ...big })];
    expect(capacityProblems([at('staging', {}), at('production', big)])).toEqual([
      `stages "staging" and "production" share an account: their methods admit ${fmt(a)} + ${fmt(b)} = ${fmt(a + b)} concurrent executions ` +
        '(apiConcurrency at most, plus docsThrottlingBurstLimit + docsThrottlingRateLimit × functionDurationMs per docs route; ' +
        "API Gateway's throttles are best-effort targets, not exact ceilings), above accountConcurrency 1,000. " +
        "Lower apiConcurrency or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
    ]);
  });

  it('check a stage alone against its own account when the stages are pinned apart', () => {
    expect(capacityProblems([at('staging', {}, '111111111111'), at('production', big, '222222222222')])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^stage "production": its methods admit ${fmt(need({ ...base, ...big }))} concurrent .* above accountConcurrency 1,000\\.`,
        ),
      ),
    ]);
    expect(
      capacityProblems([at('staging', {}, '111111111111'), at('production', { ...big, accountConcurrency: 5000 }, '222222222222')]),
    ).toEqual([]);
    // Unpinned staging may land in production's account.
    expect(capacityProblems([at('staging', { accountConcurrency: 400 }), at('production', {}, '222222222222')])).toEqual([
      expect.stringMatching(/^stages "staging" and "production" share an account: their methods admit .* above accountConcurrency 400\./),
    ]);
  });

  it(`refuse reservations that leave fewer than ${MINIMUM_UNRESERVED_CONCURRENCY} unreserved (all of a smaller quota), naming reserveConcurrency`, () => {
    const accountConcurrency = need(base) + MINIMUM_UNRESERVED_CONCURRENCY - 1;
    expect(capacityProblems([at('staging', { reserveConcurrency: true, accountConcurrency })])).toEqual([
      `stage "staging": its functions reserve ${fmt(need(base))} concurrent executions (reserveConcurrency in "staging": each function's need), ` +
        `above accountConcurrency ${fmt(accountConcurrency)} minus the 100 Lambda keeps unreserved (${fmt(accountConcurrency - 100)}). ` +
        "Turn reserveConcurrency off, lower apiConcurrency, or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
    ]);
    // The same need without reservations fits; one more execution of quota fits with them.
    expect(capacityProblems([at('staging', { accountConcurrency })])).toEqual([]);
    expect(capacityProblems([at('staging', { reserveConcurrency: true, accountConcurrency: accountConcurrency + 1 })])).toEqual([]);
    expect([minimumUnreserved(1000), minimumUnreserved(50), minimumUnreserved(10)]).toEqual([100, 50, 10]);
  });
});
