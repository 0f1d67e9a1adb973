/**
 * The capacity model on its own: each derived limit from the settings, a new operation taking none
 * of the existing limits but adding to the stage's need, the checks over stages that may share an
 * account, and the committed defaults passing them.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
import {
  type ApiMethod,
  type CapacitySettings,
  DOCS_FUNCTION,
  DOCS_METHODS,
  DOCS_PAGE_LOAD_REQUESTS,
  WAF_MINIMUM_LIMIT,
  apiThrottle,
  CAPACITY_CHOICES,
  capacityProblems,
  clientLimitProblems,
  comparedWith,
  fmt,
  methodConcurrencyNeed,
  minimumUnreserved,
  minuteAdmission,
  stageCapacity,
} from '../../infra/cdk/capacity.ts';
import { STAGE_NAMES, readStageSettings, type StageSettings } from '../../infra/cdk/stages.ts';

const base: CapacitySettings = {
  methodRateLimit: 50,
  burstSeconds: 2,
  docsThrottlingRateLimit: 5,
  docsThrottlingBurstLimit: 10,
  functionDurationMs: 200,
  accountConcurrency: 1000,
  perKeyPerMinute: 400,
  perSourcePerMinute: 400,
  docsPerSourcePerMinute: 30,
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

  it('gives each API method r = methodRateLimit and B = ⌊r × burstSeconds⌋, whatever the number of methods', () => {
    expect(apiThrottle(base)).toEqual({ rateLimit: 50, burstLimit: 100 });
    expect(apiThrottle({ ...base, methodRateLimit: 100, burstSeconds: 1.5 })).toEqual({ rateLimit: 100, burstLimit: 150 });
    expect(minuteAdmission(apiThrottle(base))).toBe(100 + 60 * 50);
  });

  it('gives every API method the stage’s throttle and the docs methods their own; the stage needs the sum', () => {
    const capacity = stageCapacity(base);
    const api = apiThrottle(base);
    const apiNeed = methodConcurrencyNeed(api, base.functionDurationMs);
    const docsNeed = methodConcurrencyNeed({ rateLimit: 5, burstLimit: 10 }, base.functionDurationMs);
    expect(capacity.apiThrottle).toEqual(api);
    expect(capacity.methods.map((m) => [m.method, m.functionId, m.concurrencyNeed])).toEqual([
      ...routes.map((r) => [`${r.method} ${r.resource}`, r.functionId, apiNeed]),
      ...DOCS_METHODS.map((m) => [`${m.method} ${m.resource}`, DOCS_FUNCTION, docsNeed]),
    ]);
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

  it("takes WAF's per-client limits from their own settings, and refuses one outside WAF's floor or past what one method admits in a minute", () => {
    expect(stageCapacity(base).webAcl).toEqual({
      perKeyPerMinute: 400,
      perIpPerMinute: 400,
      docsPerIpPerMinute: 30,
      // A body over the service's limit is refused anyway: WAF's floor of them per address.
    });
    expect(clientLimitProblems(base)).toEqual([]);
    expect(clientLimitProblems({ ...base, perKeyPerMinute: 3101, perSourcePerMinute: WAF_MINIMUM_LIMIT - 1 })).toEqual([
      `setting "perKeyPerMinute" must be from 10 (WAF's floor) to 3,100 (what one API method admits in WAF's minute, B + 60 × r), got 3101.`,
      `setting "perSourcePerMinute" must be from 10 (WAF's floor) to 3,100 (what one API method admits in WAF's minute, B + 60 × r), got 9.`,
    ]);
    expect(clientLimitProblems({ ...base, perKeyPerMinute: 3100, docsPerSourcePerMinute: 311 })).toEqual([
      `setting "docsPerSourcePerMinute" must be from 10 (WAF's floor and one page load) to 310 (what one docs method admits in WAF's minute, B + 60 × r), got 311.`,
    ]);
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

  const big = { methodRateLimit: 600 };
  const needSentence =
    '(B + ⌈r × functionDurationMs⌉ per method: B = ⌊methodRateLimit × burstSeconds⌋ and r = methodRateLimit on each API method, ' +
    "the docs throttle on each docs route; API Gateway's throttles are best-effort targets, not exact ceilings)";
  it('refuse stages that may share an account whose needs exceed it, naming the numbers and the choices', () => {
    const [a, b] = [need(base), need({ ...base, ...big })];
    expect(capacityProblems([at('staging', {}), at('production', big)])).toEqual([
      `stages "staging" and "production" share an account: their ${routes.length} API methods and docs routes admit ${fmt(a)} + ${fmt(b)} = ${fmt(a + b)} ` +
        `concurrent executions ${needSentence}, above accountConcurrency 1,000. ${CAPACITY_CHOICES}`,
    ]);
    for (const choice of [
      'raise accountConcurrency',
      'separate accounts',
      'pin each with account and region',
      'burstSeconds',
      'methodRateLimit',
    ]) {
      expect(CAPACITY_CHOICES).toContain(choice);
    }
  });

  it('check a stage alone against its own account when the stages are pinned apart', () => {
    expect(capacityProblems([at('staging', {}, '111111111111'), at('production', big, '222222222222')])).toEqual([
      expect.stringMatching(
        new RegExp(`^stage "production": its .* admit ${fmt(need({ ...base, ...big }))} concurrent .* above accountConcurrency 1,000\\.`),
      ),
    ]);
    expect(
      capacityProblems([
        at('staging', {}, '111111111111'),
        at('production', { ...big, accountConcurrency: need({ ...base, ...big }) }, '222222222222'),
      ]),
    ).toEqual([]);
    // Unpinned staging may land in production's account.
    expect(capacityProblems([at('staging', { accountConcurrency: 400 }), at('production', {}, '222222222222')])).toEqual([
      expect.stringMatching(/^stages "staging" and "production" share an account: their .* above accountConcurrency 400\./),
    ]);
  });

  it(`refuse reservations that leave fewer than 100 unreserved (all of a smaller quota), naming reserveConcurrency`, () => {
    const accountConcurrency = need(base) + 100 - 1;
    expect(capacityProblems([at('staging', { reserveConcurrency: true, accountConcurrency })])).toEqual([
      `stage "staging": its functions reserve ${fmt(need(base))} concurrent executions (reserveConcurrency in "staging": each function's need), ` +
        `above accountConcurrency ${fmt(accountConcurrency)} minus the 100 Lambda keeps unreserved (${fmt(accountConcurrency - 100)}). ` +
        `Turn reserveConcurrency off, or: ${CAPACITY_CHOICES}`,
    ]);
    // The same need without reservations fits; one more execution of quota fits with them.
    expect(capacityProblems([at('staging', { accountConcurrency })])).toEqual([]);
    expect(capacityProblems([at('staging', { reserveConcurrency: true, accountConcurrency: accountConcurrency + 1 })])).toEqual([]);
    expect([minimumUnreserved(1000), minimumUnreserved(50), minimumUnreserved(10)]).toEqual([100, 50, 10]);
  });
});

describe('a fourth operation, appended to the route table', () => {
  const stages = STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined));
  const one = { method: 'PATCH', resource: '/pets/{petId}', functionId: 'one-more' };
  const more = [...routes, one];
  /** Every limit the model gives a stage's existing methods, functions and clients. */
  const limits = (settings: StageSettings, operations: readonly ApiMethod[]) => {
    const c = stageCapacity({ ...settings, reserveConcurrency: true }, operations);
    const existing = new Set([...routes.map((r) => r.functionId as string), DOCS_FUNCTION]);
    return {
      apiThrottle: c.apiThrottle,
      methods: c.methods.filter((m) => existing.has(m.functionId)),
      functions: c.functions.filter((f) => existing.has(f.functionId)),
      webAcl: c.webAcl,
      accountRequestsPerSecond: c.accountRequestsPerSecond,
    };
  };

  it.each(STAGE_NAMES)('leaves every existing limit of %s as it was', (stage) => {
    const settings = readStageSettings(stage, () => undefined);
    expect(limits(settings, more)).toEqual(limits(settings, routes));
    expect(limits(settings, routes).methods).toHaveLength(routes.length + DOCS_METHODS.length);
  });

  it("keeps today's limits: staging 50 req/s, burst 100, 400 a minute per key and per address; production 100, 150, 750; the docs 5, 10, 30", () => {
    const [staging, production] = stages.map((s) => stageCapacity(s));
    expect([staging?.apiThrottle, staging?.webAcl]).toEqual([
      { rateLimit: 50, burstLimit: 100 },
      { perKeyPerMinute: 400, perIpPerMinute: 400, docsPerIpPerMinute: 30 },
    ]);
    expect([production?.apiThrottle, production?.webAcl]).toEqual([
      { rateLimit: 100, burstLimit: 150 },
      { perKeyPerMinute: 750, perIpPerMinute: 750, docsPerIpPerMinute: 30 },
    ]);
    for (const c of [staging, production]) {
      expect(c?.methods.filter((m) => m.functionId === DOCS_FUNCTION).map((m) => [m.rateLimit, m.burstLimit])).toEqual(
        DOCS_METHODS.map(() => [5, 10]),
      );
    }
  });

  it("grows each stage's need by the new method's, and the account check refuses it, naming the choices, where the account cannot hold it", () => {
    for (const settings of stages) {
      const c = stageCapacity(settings);
      expect(stageCapacity(settings, more).concurrencyNeed).toBe(
        c.concurrencyNeed + methodConcurrencyNeed(c.apiThrottle, settings.functionDurationMs),
      );
    }
    expect(capacityProblems(stages)).toEqual([]);
    // One account that holds the stages as they are, but not with one more method each: whatever cdk.json has decided.
    const needs = stages.map((s) => stageCapacity(s, more).concurrencyNeed);
    const accountConcurrency = needs.reduce((a, b) => a + b) - 1;
    const shared = stages.map(({ env: _, ...s }) => ({ ...s, accountConcurrency }));
    const refused = capacityProblems(shared, more);
    expect(refused).toEqual([
      expect.stringContaining(`their ${more.length} API methods and docs routes admit ${needs.map(fmt).join(' + ')}`),
    ]);
    expect(refused[0]).toContain(`above accountConcurrency ${fmt(accountConcurrency)}. ${CAPACITY_CHOICES}`);
    // Each choice the refusal names makes room (a decision in cdk.json): the stages apart, a larger quota, a shorter burst, a lower rate.
    const apart = shared.map((s, i) => ({ ...s, env: { account: `${i + 1}`.repeat(12), region: 'eu-west-1' } }));
    expect(capacityProblems(apart, more)).toEqual([]);
    expect(
      capacityProblems(
        shared.map((s) => ({ ...s, accountConcurrency: accountConcurrency + 1 })),
        more,
      ),
    ).toEqual([]);
    expect(
      capacityProblems(
        shared.map((s) => ({ ...s, burstSeconds: s.burstSeconds / 2 })),
        more,
      ),
    ).toEqual([]);
    expect(
      capacityProblems(
        shared.map((s) => ({ ...s, methodRateLimit: s.methodRateLimit * 0.7 })),
        more,
      ),
    ).toEqual([]);
  });
});
