/**
 * The capacity model on its own: each derived limit from the settings, the checks over stages that
 * may share an account, and the committed defaults passing them.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
import {
  type CapacitySettings,
  DOCS_FUNCTION,
  DOCS_PAGE_LOAD_REQUESTS,
  MINIMUM_UNRESERVED_CONCURRENCY,
  WAF_MINIMUM_LIMIT,
  WAF_WINDOW_SECONDS,
  capacityProblems,
  methodConcurrencyNeed,
  stageCapacity,
} from '../../infra/cdk/capacity.ts';
import { WEB_ACL_WINDOW_SECONDS } from '../../infra/cdk/constructs/web-acl.ts';
import { STAGE_NAMES, readStageSettings } from '../../infra/cdk/stages.ts';

const base: CapacitySettings = {
  throttlingRateLimit: 50,
  throttlingBurstLimit: 100,
  docsThrottlingRateLimit: 5,
  docsThrottlingBurstLimit: 10,
  functionDurationMs: 200,
  accountConcurrency: 1000,
  clientSharePercent: 10,
  reserveConcurrency: false,
};
const at = (stage: string, settings: Partial<CapacitySettings>, environment?: string) => ({
  stage,
  settings: { ...base, ...settings },
  environment,
});

describe('the capacity model', () => {
  it('gives each method B + ⌈r × d⌉ executions: its burst, and its rate for one duration budget', () => {
    expect(methodConcurrencyNeed(50, 100, 200)).toBe(110);
    expect(methodConcurrencyNeed(5, 10, 200)).toBe(11);
    // A part of an execution is a whole one.
    expect(methodConcurrencyNeed(7, 7, 150)).toBe(7 + 2);
  });

  it('sums the needs per function and over the stage, the docs routes included', () => {
    const capacity = stageCapacity(base);
    expect(capacity.methods.map((m) => [m.method, m.functionId, m.concurrencyNeed])).toEqual([
      ...routes.map((r) => [`${r.method} ${r.resource}`, r.functionId, 110]),
      ['ANY /docs', DOCS_FUNCTION, 11],
      ['ANY /docs/{asset}', DOCS_FUNCTION, 11],
    ]);
    expect(capacity.functions.find((f) => f.functionId === DOCS_FUNCTION)?.concurrencyNeed).toBe(22);
    expect(capacity.concurrencyNeed).toBe(routes.length * 110 + 22);
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
    expect(WAF_WINDOW_SECONDS).toBe(WEB_ACL_WINDOW_SECONDS);
    expect(stageCapacity(base).webAcl).toEqual({ perKeyPerMinute: 100 + 300, perIpPerMinute: 400, docsPerIpPerMinute: 30 });
    expect(stageCapacity({ ...base, clientSharePercent: 25 }).webAcl.perKeyPerMinute).toBe(100 + 750);
    // Never below WAF's floor, nor below one load of the reference page.
    const tiny = stageCapacity({
      ...base,
      throttlingRateLimit: 1,
      throttlingBurstLimit: 1,
      docsThrottlingRateLimit: 1,
      docsThrottlingBurstLimit: 1,
    });
    expect(tiny.webAcl).toEqual({
      perKeyPerMinute: WAF_MINIMUM_LIMIT,
      perIpPerMinute: WAF_MINIMUM_LIMIT,
      docsPerIpPerMinute: WAF_MINIMUM_LIMIT,
    });
    expect(DOCS_PAGE_LOAD_REQUESTS).toBeLessThanOrEqual(WAF_MINIMUM_LIMIT);
  });
});

describe('the account checks', () => {
  it('pass the committed defaults: both stages in one account, and with reservations on in both', () => {
    const stages = STAGE_NAMES.map((stage) => ({ stage, settings: readStageSettings(stage, () => undefined), environment: undefined }));
    expect(capacityProblems(stages)).toEqual([]);
    expect(capacityProblems(stages.map((s) => ({ ...s, settings: { ...s.settings, reserveConcurrency: true } })))).toEqual([]);
  });

  it('refuse stages that may share an account whose needs exceed it, naming the settings and the numbers', () => {
    const problems = capacityProblems([at('staging', {}), at('production', { throttlingRateLimit: 500, throttlingBurstLimit: 1000 })]);
    expect(problems).toEqual([
      'stages "staging" and "production" share an account: their methods admit 352 + 3,322 = 3,674 concurrent executions ' +
        '(throttlingBurstLimit + throttlingRateLimit × functionDurationMs, per method), above accountConcurrency 1,000. ' +
        "Lower the throttles or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
    ]);
  });

  it('check a stage alone against its own account when the stages are pinned apart', () => {
    const big = { throttlingRateLimit: 500, throttlingBurstLimit: 1000 };
    expect(capacityProblems([at('staging', {}, '111111111111/eu-west-1'), at('production', big, '222222222222/eu-west-1')])).toEqual([
      expect.stringMatching(/^stage "production": its methods admit 3,322 concurrent executions .* above accountConcurrency 1,000\./),
    ]);
    expect(
      capacityProblems([
        at('staging', {}, '111111111111/eu-west-1'),
        at('production', { ...big, accountConcurrency: 5000 }, '222222222222/eu-west-1'),
      ]),
    ).toEqual([]);
    // Unpinned staging may land in production's account.
    expect(capacityProblems([at('staging', { accountConcurrency: 400 }), at('production', {}, '222222222222/eu-west-1')])).toEqual([
      expect.stringMatching(
        /^stages "staging" and "production" share an account: their methods admit 352 \+ 352 = 704 .* above accountConcurrency 400\./,
      ),
    ]);
  });

  it(`refuse reservations that leave fewer than ${MINIMUM_UNRESERVED_CONCURRENCY} unreserved, naming reserveConcurrency`, () => {
    const problems = capacityProblems([at('staging', { reserveConcurrency: true, accountConcurrency: 400 })]);
    expect(problems).toEqual([
      'stage "staging": its functions reserve 352 concurrent executions (reserveConcurrency in "staging": each function\'s need, ' +
        'throttlingBurstLimit + throttlingRateLimit × functionDurationMs, per method), above accountConcurrency 400 minus the 100 Lambda keeps ' +
        "unreserved (300). Turn reserveConcurrency off, lower the throttles, or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
    ]);
    // The same need without reservations fits.
    expect(capacityProblems([at('staging', { accountConcurrency: 400 })])).toEqual([]);
  });
});
