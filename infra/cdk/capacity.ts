/**
 * The capacity model: a stage's capacity settings turned into every limit on the request path, so
 * that no inner layer sheds what an outer one admits.
 */
import { rateLimitHeaders } from '#lib/http/response.ts';
import { REFERENCE_ASSETS, REFERENCE_PAGE_METHOD, REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { OPENAPI_DOCUMENT_PATH, PUBLIC_DOCUMENT_METHODS, routes } from '#lib/routes.ts';

/** The stage settings the model reads (what each means: `SETTINGS` in stages.ts). */
type Rates = 'methodRateLimit' | 'burstSeconds' | 'docsThrottlingRateLimit' | 'docsThrottlingBurstLimit' | 'functionDurationMs';
type Limits = 'accountConcurrency' | 'perKeyPerMinute' | 'perSourcePerMinute' | 'docsPerSourcePerMinute';
export type CapacitySettings = Readonly<Record<Rates | Limits, number> & { reserveConcurrency: boolean }>;

/** What Lambda keeps unreserved in an account of this quota: 100, or the whole of a smaller quota (docs/operators.md). */
export const minimumUnreserved = (quota: number): number => Math.min(100, quota);

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

/** An API method as the model counts it: the route table's, or one a test appends. */
export type ApiMethod = { readonly method: string; readonly resource: string; readonly functionId: string };

/** A token bucket: r requests a second, B at once. */
export type Throttle = { readonly rateLimit: number; readonly burstLimit: number };

/** A method's concurrency need, B + ⌈r × d⌉: executions busy at most while every call takes at most d. */
export function methodConcurrencyNeed({ rateLimit, burstLimit }: Throttle, durationMs: number): number {
  return burstLimit + Math.ceil((rateLimit * durationMs) / 1000);
}

/** Each API method's bucket: r = methodRateLimit, B = ⌊r × burstSeconds⌋. */
export function apiThrottle(settings: CapacitySettings): Throttle {
  return { rateLimit: settings.methodRateLimit, burstLimit: Math.floor(settings.methodRateLimit * settings.burstSeconds) };
}

/** A minute of a bucket as WAF counts it, B + 60 × r: what one client's per-minute limit must stay within. */
export const minuteAdmission = ({ rateLimit, burstLimit }: Throttle): number => burstLimit + WAF_WINDOW_SECONDS * rateLimit;

/** Every limit of a stage, from its settings; `operations`: the route table's, or any list a test gives. */
export function stageCapacity(settings: CapacitySettings, operations: readonly ApiMethod[] = routes) {
  const api = apiThrottle(settings);
  const docs = { rateLimit: settings.docsThrottlingRateLimit, burstLimit: settings.docsThrottlingBurstLimit };
  const { perKeyPerMinute, perSourcePerMinute: perIpPerMinute, docsPerSourcePerMinute: docsPerIpPerMinute } = settings;
  const webAcl = { perKeyPerMinute, perIpPerMinute, docsPerIpPerMinute };
  // The methods that invoke a function (`GET /pets`, under the base path): each API method at the stage's throttle, the docs routes at theirs.
  const methods = [
    ...operations.map((r) => ({ method: `${r.method} ${r.resource}`, functionId: r.functionId, ...api })),
    ...DOCS_METHODS.map((m) => ({ method: `${m.method} ${m.resource}`, functionId: DOCS_FUNCTION, ...docs })),
  ].map((m) => ({ ...m, concurrencyNeed: methodConcurrencyNeed(m, settings.functionDurationMs) }));
  // Each function needs the sum over the methods it serves, and reserves it when the stage reserves.
  const functions = [...new Set(methods.map((m) => m.functionId))].map((functionId) => {
    const concurrencyNeed = sum(methods.filter((m) => m.functionId === functionId).map((m) => m.concurrencyNeed));
    return { functionId, concurrencyNeed, reservedConcurrency: settings.reserveConcurrency ? concurrencyNeed : undefined };
  });
  return {
    /** Each API method's bucket (the stage's default method setting). */
    apiThrottle: api,
    methods,
    functions,
    /** The sum over all methods, docs included: what the stage may run at once. */
    concurrencyNeed: sum(methods.map((m) => m.concurrencyNeed)),
    /** The sum of the functions' reservations (0 when the stage reserves nothing). */
    reservedConcurrency: sum(functions.map((f) => f.reservedConcurrency ?? 0)),
    /** Requests a minute at WAF: one API key, one source address, one address on the docs routes (client settings of their own). */
    webAcl,
    /** The headers that tell a client the per-key and per-address limits (on a stage with a web ACL). */
    limitHeaders: rateLimitHeaders(webAcl, WAF_WINDOW_SECONDS),
    /** C ÷ d: the requests per second the account's concurrency carries at the duration budget. */
    accountRequestsPerSecond: Math.floor(settings.accountConcurrency / (settings.functionDurationMs / 1000)),
  };
}
export type StageCapacity = ReturnType<typeof stageCapacity>;

/**
 * What a client's limits may not pass, one sentence each (empty: nothing): each at least WAF's floor,
 * and within a minute of the bucket it counts against (B + 60 × r), or one client alone empties it.
 */
export function clientLimitProblems(settings: CapacitySettings): string[] {
  const docs = { rateLimit: settings.docsThrottlingRateLimit, burstLimit: settings.docsThrottlingBurstLimit };
  const bounds = [
    ['perKeyPerMinute', WAF_MINIMUM_LIMIT, "WAF's floor", apiThrottle(settings), 'API'],
    ['perSourcePerMinute', WAF_MINIMUM_LIMIT, "WAF's floor", apiThrottle(settings), 'API'],
    ['docsPerSourcePerMinute', Math.max(WAF_MINIMUM_LIMIT, DOCS_PAGE_LOAD_REQUESTS), "WAF's floor and one page load", docs, 'docs'],
  ] as const;
  return bounds.flatMap(([key, least, why, bucket, what]) =>
    settings[key] < least || settings[key] > minuteAdmission(bucket)
      ? [
          `setting "${key}" must be from ${fmt(least)} (${why}) to ${fmt(minuteAdmission(bucket))} ` +
            `(what one ${what} method admits in WAF's minute, B + 60 × r), got ${settings[key]}.`,
        ]
      : [],
  );
}

/** A stage as the account checks see it: its settings, and where it is pinned if anywhere (StageSettings is one). */
export type StageInAccount = CapacitySettings & { readonly stage: string; readonly env?: { account: string; region: string } | undefined };

/** The settings a stage's concurrency need comes from, as refusals name them. */
const NEED_SETTINGS =
  'B + ⌈r × functionDurationMs⌉ per method: B = ⌊methodRateLimit × burstSeconds⌋ and r = methodRateLimit on each API method, ' +
  "the docs throttle on each docs route; API Gateway's throttles are best-effort targets, not exact ceilings";

/** The decisions that make room for the stages' needs, as refusals name them: each lands in cdk.json with a line in docs/CHANGELOG.md. */
export const CAPACITY_CHOICES =
  "Choose one, in cdk.json, with a line in docs/CHANGELOG.md (docs/scaling.md#adding-an-operation): raise accountConcurrency after raising the account's quota (docs/operators.md); " +
  'deploy the stages to separate accounts, as AWS recommends (pin each with account and region); ' +
  'a shorter burstSeconds; or a lower methodRateLimit.';

/** `stage "staging": its`, or `stages "staging" and "production" share an account: their`. */
function who(group: readonly StageInAccount[]): string {
  const names = group.map((s) => `"${s.stage}"`);
  return group.length === 1 ? `stage ${names[0]}: its` : `stages ${names.join(' and ')} share an account: their`;
}

/**
 * What the settings of stages that may share one account (both unpinned, or pinned to the same account and region) cannot hold, one
 * sentence each (empty: nothing): the synth's and the deploy check's.
 */
export function capacityProblems(stages: readonly StageInAccount[], operations: readonly ApiMethod[] = routes): string[] {
  const where = (s: StageInAccount) => (s.env ? `${s.env.account}/${s.env.region}` : undefined);
  const environments = [...new Set(stages.map(where).filter((e) => e !== undefined))];
  const groups =
    environments.length === 0 ? [[...stages]] : environments.map((e) => stages.filter((s) => where(s) === undefined || where(s) === e));
  return groups.flatMap((group) => {
    const problems: string[] = [];
    const needs = group.map((s) => stageCapacity(s, operations).concurrencyNeed);
    const limit = Math.min(...group.map((s) => s.accountConcurrency));
    if (sum(needs) > limit) {
      problems.push(
        `${who(group)} ${operations.length} API methods and docs routes admit ${terms(needs)} concurrent executions (${NEED_SETTINGS}), ` +
          `above accountConcurrency ${fmt(limit)}. ${CAPACITY_CHOICES}`,
      );
    }
    const reserving = group.filter((s) => s.reserveConcurrency);
    const reservations = reserving.map((s) => stageCapacity(s, operations).reservedConcurrency);
    const kept = minimumUnreserved(limit);
    if (reservations.length > 0 && sum(reservations) > limit - kept) {
      problems.push(
        `${who(group)} functions reserve ${terms(reservations)} concurrent executions (reserveConcurrency in ${reserving.map((s) => `"${s.stage}"`).join(' and ')}: ` +
          `each function's need), above accountConcurrency ${fmt(limit)} minus the ${fmt(kept)} Lambda keeps unreserved (${fmt(limit - kept)}). ` +
          `Turn reserveConcurrency off, or: ${CAPACITY_CHOICES}`,
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
