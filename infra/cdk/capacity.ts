/**
 * The capacity model: a stage's few capacity settings turned into every limit on the request path,
 * so that no inner layer sheds what an outer one admits. From the outside in:
 *
 *   WAF (per API key, per source address, docs per address; a minute's count)
 *   → API Gateway's token bucket of each method (rate r, burst B; 429 + Retry-After)
 *   → Lambda (the function's reserved concurrency, or the account's unreserved pool; 503)
 *   → DynamoDB.
 *
 * A method admits B requests at once and r a second after that. A call that takes at most the
 * duration budget d keeps at most B + ⌈r × d⌉ executions busy, the method's concurrency need; a
 * function needs the sum over the methods it serves, a stage the sum over all of its methods. The
 * checks refuse settings whose needs the account's concurrency (or, with reservations, the part
 * Lambda lets an account reserve) cannot hold. Pure data, no CDK: the CDK app, the deploy check
 * (infra/cli/deploy.ts) and the docs generator (infra/cli/docs.ts) read the same numbers.
 */
import { REFERENCE_ASSETS, REFERENCE_PAGE_METHOD, REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { routes } from '#lib/routes.ts';

/** The stage settings the model reads (cdk.json `context.stages.<stage>`; see stages.ts). */
export interface CapacitySettings {
  /** r: requests per second each API method's token bucket refills with. */
  readonly throttlingRateLimit: number;
  /** B: the tokens each API method's bucket holds: the requests it admits at once. */
  readonly throttlingBurstLimit: number;
  readonly docsThrottlingRateLimit: number;
  readonly docsThrottlingBurstLimit: number;
  /** d: the call duration the model serves every admitted request within, in milliseconds. */
  readonly functionDurationMs: number;
  /** C: the account's Lambda quota of concurrent executions the stage counts on. */
  readonly accountConcurrency: number;
  /** The share of one method's admission per minute one API key, or one source address, may take at WAF. */
  readonly clientSharePercent: number;
  /** Reserve each function's need as its reserved concurrency. */
  readonly reserveConcurrency: boolean;
}

/** Lambda refuses a reservation that leaves fewer unreserved concurrent executions in the account. */
export const MINIMUM_UNRESERVED_CONCURRENCY = 100;

/** The lowest limit WAF accepts in a rate-based rule. */
export const WAF_MINIMUM_LIMIT = 10;

/** The window WAF's rate-based rules count over (the shortest it offers), in seconds. */
export const WAF_WINDOW_SECONDS = 60;

/** The function that serves the reference page and its assets (`PetStore-<stage>-docs`). */
export const DOCS_FUNCTION = 'docs';

/** The requests one load of the reference page makes to the docs routes: the page and each asset. */
export const DOCS_PAGE_LOAD_REQUESTS = 1 + Object.keys(REFERENCE_ASSETS).length;

/** One API Gateway method that invokes a function, with its token bucket and its concurrency need. */
export interface MethodCapacity {
  /** `GET /pets`, as clients address it under the base path. */
  readonly method: string;
  readonly functionId: string;
  readonly rateLimit: number;
  readonly burstLimit: number;
  /** B + ⌈r × d⌉: executions busy at most while every call takes at most d. */
  readonly concurrencyNeed: number;
}

export interface FunctionCapacity {
  readonly functionId: string;
  /** The sum of the needs of the methods it serves. */
  readonly concurrencyNeed: number;
  /** Its reserved concurrency: the need, when the stage reserves; else none. */
  readonly reservedConcurrency: number | undefined;
}

export interface WebAclLimits {
  /** Requests per minute one API key may make: one method's burst plus its share of a minute's rate. */
  readonly perKeyPerMinute: number;
  /** Requests per minute one source address may make: the same (an address is one client). */
  readonly perIpPerMinute: number;
  /** Requests per minute one source address may make to the docs routes. */
  readonly docsPerIpPerMinute: number;
}

export interface StageCapacity {
  readonly methods: readonly MethodCapacity[];
  readonly functions: readonly FunctionCapacity[];
  /** The sum over all methods, docs included: what the stage may run at once. */
  readonly concurrencyNeed: number;
  /** The sum of the functions' reservations (0 when the stage reserves nothing). */
  readonly reservedConcurrency: number;
  readonly webAcl: WebAclLimits;
  /** C ÷ d: the requests per second the account's concurrency carries at the duration budget. */
  readonly accountRequestsPerSecond: number;
}

/** A method's concurrency need: B + ⌈r × d⌉. */
export function methodConcurrencyNeed(rateLimit: number, burstLimit: number, durationMs: number): number {
  return burstLimit + Math.ceil((rateLimit * durationMs) / 1000);
}

/** WAF's per-key (and per-address) limit: B + ⌈share × 60 × r⌉ (at least WAF's floor), so a key always gets one method's burst at once. */
export function perKeyPerMinute(settings: CapacitySettings): number {
  return Math.max(
    WAF_MINIMUM_LIMIT,
    settings.throttlingBurstLimit + Math.ceil((settings.clientSharePercent / 100) * WAF_WINDOW_SECONDS * settings.throttlingRateLimit),
  );
}

/** WAF's per-address limit on the docs routes: a share of their rate, never below one page load or WAF's floor. */
export function docsPerIpPerMinute(settings: CapacitySettings): number {
  return Math.max(
    WAF_MINIMUM_LIMIT,
    Math.ceil((settings.clientSharePercent / 100) * WAF_WINDOW_SECONDS * settings.docsThrottlingRateLimit),
    DOCS_PAGE_LOAD_REQUESTS,
  );
}

/** The methods that invoke a function: the route table's, at the stage throttle, and the docs routes, at theirs. */
export function stageMethods(settings: CapacitySettings): MethodCapacity[] {
  const d = settings.functionDurationMs;
  const api = routes.map((route) => ({
    method: `${route.method} ${route.resource}`,
    functionId: route.functionId as string,
    rateLimit: settings.throttlingRateLimit,
    burstLimit: settings.throttlingBurstLimit,
    concurrencyNeed: methodConcurrencyNeed(settings.throttlingRateLimit, settings.throttlingBurstLimit, d),
  }));
  const docs = REFERENCE_PAGE_RESOURCES.map((path) => ({
    method: `${REFERENCE_PAGE_METHOD} ${path}`,
    functionId: DOCS_FUNCTION,
    rateLimit: settings.docsThrottlingRateLimit,
    burstLimit: settings.docsThrottlingBurstLimit,
    concurrencyNeed: methodConcurrencyNeed(settings.docsThrottlingRateLimit, settings.docsThrottlingBurstLimit, d),
  }));
  return [...api, ...docs];
}

export function stageCapacity(settings: CapacitySettings): StageCapacity {
  const methods = stageMethods(settings);
  const functions = [...new Set(methods.map((m) => m.functionId))].map((functionId) => {
    const concurrencyNeed = sum(methods.filter((m) => m.functionId === functionId).map((m) => m.concurrencyNeed));
    return { functionId, concurrencyNeed, reservedConcurrency: settings.reserveConcurrency ? concurrencyNeed : undefined };
  });
  const perKey = perKeyPerMinute(settings);
  return {
    methods,
    functions,
    concurrencyNeed: sum(methods.map((m) => m.concurrencyNeed)),
    reservedConcurrency: sum(functions.map((f) => f.reservedConcurrency ?? 0)),
    webAcl: { perKeyPerMinute: perKey, perIpPerMinute: perKey, docsPerIpPerMinute: docsPerIpPerMinute(settings) },
    accountRequestsPerSecond: Math.floor(settings.accountConcurrency / (settings.functionDurationMs / 1000)),
  };
}

/** A stage as the account check sees it: its name, its settings and where it is pinned, if anywhere. */
export interface StageInAccount {
  readonly stage: string;
  readonly settings: CapacitySettings;
  /** `account/region` when pinned; undefined when the stage deploys wherever the credentials point. */
  readonly environment: string | undefined;
}

/** The settings a method's concurrency need comes from, as refusals and warnings name them. */
export const NEED_SETTINGS = 'throttlingBurstLimit + throttlingRateLimit × functionDurationMs, per method';

/**
 * What the settings of stages that may share one account cannot hold, one sentence each (empty:
 * nothing). Each stage alone must fit its accountConcurrency; stages that may share an account
 * (both unpinned, or pinned to the same account and region) must fit it together; and with
 * reservations, what they reserve must leave Lambda's 100 unreserved.
 */
export function capacityProblems(stages: readonly StageInAccount[]): string[] {
  const problems: string[] = [];
  for (const group of accountGroups(stages)) {
    const names = group.map((s) => `"${s.stage}"`);
    const who = group.length === 1 ? `stage ${names[0]}: its` : `stages ${names.join(' and ')} share an account: their`;
    const capacities = group.map((s) => stageCapacity(s.settings));
    const limit = Math.min(...group.map((s) => s.settings.accountConcurrency));
    const needs = capacities.map((c) => c.concurrencyNeed);
    const needed = sum(needs);
    if (needed > limit) {
      problems.push(
        `${who} methods admit ${terms(needs)} concurrent executions (${NEED_SETTINGS}), ` +
          `above accountConcurrency ${fmt(limit)}. Lower the throttles or raise accountConcurrency (after raising the account's quota: docs/operators.md).`,
      );
    }
    const reserving = group.filter((_, i) => (capacities[i] as StageCapacity).reservedConcurrency > 0);
    const reservations = capacities.map((c) => c.reservedConcurrency).filter((r) => r > 0);
    const reservable = limit - MINIMUM_UNRESERVED_CONCURRENCY;
    if (reservations.length > 0 && sum(reservations) > reservable) {
      const reservers = reserving.map((s) => `"${s.stage}"`).join(' and ');
      problems.push(
        `${who} functions reserve ${terms(reservations)} concurrent executions (reserveConcurrency in ${reservers}: each function's need, ${NEED_SETTINGS}), ` +
          `above accountConcurrency ${fmt(limit)} minus the ${MINIMUM_UNRESERVED_CONCURRENCY} Lambda keeps unreserved (${fmt(reservable)}). ` +
          `Turn reserveConcurrency off, lower the throttles, or raise accountConcurrency (after raising the account's quota: docs/operators.md).`,
      );
    }
  }
  return problems;
}

/** Stages that may share an account: the unpinned ones with each account and region some stage is pinned to. */
function accountGroups(stages: readonly StageInAccount[]): StageInAccount[][] {
  const environments = [...new Set(stages.map((s) => s.environment).filter((e) => e !== undefined))];
  if (environments.length === 0) return stages.length > 0 ? [[...stages]] : [];
  return environments.map((environment) => stages.filter((s) => s.environment === undefined || s.environment === environment));
}

/** `352 + 3,322 = 3,674`, or `352` alone. */
function terms(values: readonly number[]): string {
  return values.length === 1 ? fmt(values[0] as number) : `${values.map(fmt).join(' + ')} = ${fmt(sum(values))}`;
}

export function fmt(value: number): string {
  return value.toLocaleString('en-US');
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
