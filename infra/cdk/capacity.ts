/**
 * The capacity model: a stage's few capacity settings turned into every limit on the request path,
 * so that no inner layer sheds what an outer one admits. From the outside in:
 *
 *   WAF (per API key, per source address, docs per address; a minute's estimate)
 *   → API Gateway's token bucket of each method (rate r, burst B; 429 + Retry-After)
 *   → Lambda (the function's reserved concurrency, or the account's unreserved pool; 503)
 *   → DynamoDB.
 *
 * A method admits B requests at once and r a second after that. A call that takes at most the
 * duration budget d keeps at most B + ⌈r × d⌉ executions busy, the method's concurrency need; a
 * function needs the sum over the methods it serves, a stage the sum over all of its methods. The
 * stage's API methods share its `apiConcurrency` equally, each deriving r and B from its share so
 * that its need fits it: a new operation takes its share, with no setting to edit. The checks
 * refuse settings whose needs the account's concurrency (or, with reservations, the part Lambda
 * lets an account reserve) cannot hold. WAF's and API Gateway's limits are approximate and act
 * late (docs/scaling.md): the figures are their targets. Pure data, no CDK: the CDK app, the
 * deploy check (infra/cli/deploy.ts) and the docs generator (infra/cli/docs.ts) read the same numbers.
 */
import { REFERENCE_ASSETS, REFERENCE_PAGE_METHOD, REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { OPENAPI_DOCUMENT_PATH, PUBLIC_DOCUMENT_METHODS, routes } from '#lib/routes.ts';

/** The stage settings the model reads (cdk.json `context.stages.<stage>`; see stages.ts). */
export interface CapacitySettings {
  /** The concurrent executions the stage's API methods (the route table's) share, an equal share each. */
  readonly apiConcurrency: number;
  /** Each API method's bucket holds this many seconds of its rate: B = r × burstSeconds. */
  readonly burstSeconds: number;
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
/** What Lambda keeps unreserved in an account of this quota: 100, or the whole of a smaller quota (docs/operators.md). */
export const minimumUnreserved = (quota: number): number => Math.min(MINIMUM_UNRESERVED_CONCURRENCY, quota);

/** The lowest limit WAF accepts in a rate-based rule. */
export const WAF_MINIMUM_LIMIT = 10;
/** The window WAF's rate-based rules count over, in seconds: the shortest of 60, 120, 300, 600, so a client that stops passes soonest. */
export const WAF_WINDOW_SECONDS = 60;

/** A method admitting this share of its rate r is at its throttle: others get the gateway's 429 (monitoring.ts alarms on it). */
export const AT_THROTTLE_SHARE = 0.8;

/** The function that serves the reference page and its assets (`PetStore-<stage>-docs`). */
export const DOCS_FUNCTION = 'docs';
/** The docs routes' methods, at their own throttle, each invoking the docs function: the one list of them. */
export const DOCS_METHODS = REFERENCE_PAGE_RESOURCES.map((resource) => ({ method: REFERENCE_PAGE_METHOD, resource }));
/** Every method at the docs throttle: the docs routes', and the OpenAPI document's (a mock: it needs no concurrency). */
export const DOCS_THROTTLED_METHODS = [
  ...DOCS_METHODS,
  ...PUBLIC_DOCUMENT_METHODS.map((method) => ({ method: method as string, resource: OPENAPI_DOCUMENT_PATH })),
];
/** The requests one load of the reference page makes under the docs rule: the page, each asset and the OpenAPI document. */
export const DOCS_PAGE_LOAD_REQUESTS = 2 + Object.keys(REFERENCE_ASSETS).length;

/** A token bucket: r requests a second, B at once. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** A method's concurrency need, B + ⌈r × d⌉: executions busy at most while every call takes at most d. */
export function methodConcurrencyNeed({ rateLimit, burstLimit }: Throttle, durationMs: number): number {
  return burstLimit + Math.ceil((rateLimit * durationMs) / 1000);
}

/** burstSeconds + d, in whole milliseconds: what one request a second of rate needs of a share. */
const perRateMs = (settings: CapacitySettings) => Math.round(settings.burstSeconds * 1000) + settings.functionDurationMs;

/**
 * Each of `methods` API methods' bucket: its share ⌊apiConcurrency ÷ methods⌋, r = ⌊share ÷
 * (burstSeconds + d)⌋ and B = ⌊r × burstSeconds⌋, so B + ⌈r × d⌉ ≤ ⌈r × (burstSeconds + d)⌉ ≤ share.
 */
export function apiThrottle(settings: CapacitySettings, methods = routes.length): Throttle {
  const rateLimit = Math.floor((Math.floor(settings.apiConcurrency / methods) * 1000) / perRateMs(settings));
  return { rateLimit, burstLimit: Math.floor((rateLimit * Math.round(settings.burstSeconds * 1000)) / 1000) };
}

/** The least apiConcurrency that gives each of `methods` API methods a rate of one request a second. */
export function minimumApiConcurrency(settings: CapacitySettings, methods = routes.length): number {
  return methods * Math.ceil(perRateMs(settings) / 1000);
}

/** Every limit of a stage, from its settings. */
export function stageCapacity(settings: CapacitySettings) {
  const api = apiThrottle(settings);
  const docs = { rateLimit: settings.docsThrottlingRateLimit, burstLimit: settings.docsThrottlingBurstLimit };
  // The methods that invoke a function (`GET /pets`, under the base path): the route table's at their share, the docs routes at theirs.
  const methods = [
    ...routes.map((r) => ({ method: `${r.method} ${r.resource}`, functionId: r.functionId as string, ...api })),
    ...DOCS_METHODS.map((m) => ({ method: `${m.method} ${m.resource}`, functionId: DOCS_FUNCTION, ...docs })),
  ].map((m) => ({ ...m, concurrencyNeed: methodConcurrencyNeed(m, settings.functionDurationMs) }));
  // Each function needs the sum over the methods it serves, and reserves it when the stage reserves.
  const functions = [...new Set(methods.map((m) => m.functionId))].map((functionId) => {
    const concurrencyNeed = sum(methods.filter((m) => m.functionId === functionId).map((m) => m.concurrencyNeed));
    return { functionId, concurrencyNeed, reservedConcurrency: settings.reserveConcurrency ? concurrencyNeed : undefined };
  });
  const minute = (rate: number) => Math.ceil((settings.clientSharePercent / 100) * WAF_WINDOW_SECONDS * rate);
  // A key always gets one method's burst at once; the docs never less than one page load. WAF's floor under both.
  const perKey = Math.max(WAF_MINIMUM_LIMIT, api.burstLimit + minute(api.rateLimit));
  return {
    /** Each API method's bucket (the stage's default method setting). */
    apiThrottle: api,
    methods,
    functions,
    /** The sum over all methods, docs included: what the stage may run at once. */
    concurrencyNeed: sum(methods.map((m) => m.concurrencyNeed)),
    /** The sum of the functions' reservations (0 when the stage reserves nothing). */
    reservedConcurrency: sum(functions.map((f) => f.reservedConcurrency ?? 0)),
    /** Requests a minute at WAF: one API key, one source address (one client too), one address on the docs routes. */
    webAcl: {
      perKeyPerMinute: perKey,
      perIpPerMinute: perKey,
      docsPerIpPerMinute: Math.max(WAF_MINIMUM_LIMIT, minute(settings.docsThrottlingRateLimit), DOCS_PAGE_LOAD_REQUESTS),
    },
    /** C ÷ d: the requests per second the account's concurrency carries at the duration budget. */
    accountRequestsPerSecond: Math.floor(settings.accountConcurrency / (settings.functionDurationMs / 1000)),
  };
}
export type StageCapacity = ReturnType<typeof stageCapacity>;

/** A stage as the account checks see it: its name, its settings and where it is pinned, if anywhere (StageSettings is one). */
export interface StageInAccount extends CapacitySettings {
  readonly stage: string;
  /** Unset when the stage deploys wherever the credentials point. */
  readonly env?: { readonly account: string; readonly region: string } | undefined;
}

/** The settings a stage's concurrency need comes from, as refusals and warnings name them. */
const NEED_SETTINGS =
  'apiConcurrency at most, plus docsThrottlingBurstLimit + docsThrottlingRateLimit × functionDurationMs per docs route; ' +
  "API Gateway's throttles are best-effort targets, not exact ceilings";

/**
 * Stages that may share an account (both unpinned, or pinned to the same account and region), each
 * group with its needs and the sentence that states them: what the synth and the deploy check compare.
 */
export function accountShares(stages: readonly StageInAccount[]) {
  const where = (s: StageInAccount) => (s.env ? `${s.env.account}/${s.env.region}` : undefined);
  const environments = [...new Set(stages.map(where).filter((e) => e !== undefined))];
  const groups =
    environments.length === 0
      ? [[...stages]]
      : environments.map((environment) => stages.filter((s) => where(s) === undefined || where(s) === environment));
  return groups.map((group) => {
    const needs = group.map((s) => stageCapacity(s).concurrencyNeed);
    return { stages: group, needs, needSentence: `${who(group)} methods admit ${terms(needs)} concurrent executions (${NEED_SETTINGS})` };
  });
}

/** `stage "staging": its`, or `stages "staging" and "production" share an account: their`. */
function who(group: readonly StageInAccount[]): string {
  const names = group.map((s) => `"${s.stage}"`);
  return group.length === 1 ? `stage ${names[0]}: its` : `stages ${names.join(' and ')} share an account: their`;
}

/**
 * What the settings of stages that may share one account cannot hold, one sentence each (empty:
 * nothing). Each stage alone must fit its accountConcurrency; stages that may share an account
 * must fit it together; and with reservations, what they reserve must leave Lambda's minimum unreserved.
 */
export function capacityProblems(stages: readonly StageInAccount[]): string[] {
  return accountShares(stages).flatMap(({ stages: group, needs, needSentence }) => {
    const problems: string[] = [];
    const limit = Math.min(...group.map((s) => s.accountConcurrency));
    if (sum(needs) > limit) {
      problems.push(
        `${needSentence}, above accountConcurrency ${fmt(limit)}. ` +
          "Lower apiConcurrency or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
      );
    }
    const reserving = group.filter((s) => s.reserveConcurrency);
    const reservations = reserving.map((s) => stageCapacity(s).reservedConcurrency);
    const kept = minimumUnreserved(limit);
    if (reservations.length > 0 && sum(reservations) > limit - kept) {
      problems.push(
        `${who(group)} functions reserve ${terms(reservations)} concurrent executions (reserveConcurrency in ${reserving.map((s) => `"${s.stage}"`).join(' and ')}: ` +
          `each function's need), above accountConcurrency ${fmt(limit)} minus the ${fmt(kept)} Lambda keeps unreserved (${fmt(limit - kept)}). ` +
          "Turn reserveConcurrency off, lower apiConcurrency, or raise accountConcurrency (after raising the account's quota: docs/operators.md).",
      );
    }
    return problems;
  });
}

/** `352 + 3,322 = 3,674`, or `352` alone. */
function terms(values: readonly number[]): string {
  return values.length === 1 ? fmt(values[0] as number) : `${values.map(fmt).join(' + ')} = ${fmt(sum(values))}`;
}

/** `above` or `within`: how a figure compares with a limit, so that no generated sentence can state a false comparison. */
export function comparedWith(value: number, limit: number): 'above' | 'within' {
  return value > limit ? 'above' : 'within';
}

export function fmt(value: number): string {
  return value.toLocaleString('en-US');
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
