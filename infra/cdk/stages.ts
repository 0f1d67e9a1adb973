/**
 * The deployment stages (lib/stage-names.ts), their output names, and their settings read from CDK context.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import * as z from 'zod';
import { LOG_LEVELS } from '#lib/log.ts';
import { TIMEOUT_SECONDS } from './function-limits.ts';
import { clientLimitProblems, DOCS_METHODS } from './capacity.ts';
import { isStageName, type StageName } from '#lib/stage-names.ts';

export { isStageName, STAGE_NAMES, type StageName, stackName } from '#lib/stage-names.ts';

/** Stack output ids. */
export const OUTPUT_IDS = {
  baseUrl: 'BaseUrl',
  /** The stage's execute-api address (`…/<stage>/v1`), useful when BaseUrl is a custom domain. */
  executeApiBaseUrl: 'ExecuteApiBaseUrl',
  restApiId: 'RestApiId',
  petsTableName: 'PetsTableName',
  apiKeysTableName: 'ApiKeysTableName',
  alarmTopicArn: 'AlarmTopicArn',
  dashboardName: 'DashboardName',
  dashboardUrl: 'DashboardUrl',
} as const;

/** The output id holding a table's physical name, from its logical name (`Pets` → `PetsTableName`). */
export function tableNameOutputId(logicalName: string): string {
  return `${logicalName}TableName`;
}

type StageContext = z.infer<typeof SETTINGS>;
/** A custom domain: all four values or none (its hosted zone given, not looked up, so synth stays offline). */
type CustomDomainSettings = Readonly<Required<Pick<StageContext, 'domainName' | 'certificateArn' | 'hostedZoneId' | 'hostedZoneName'>>>;
/** The AWS account and region a stage may only be deployed to. */
type PinnedEnvironment = Readonly<Required<Pick<StageContext, 'account' | 'region'>>>;

/** A stage's settings: `SETTINGS`' values, with the custom domain and the pinned environment each checked whole. */
export type StageSettings = Readonly<
  Omit<StageContext, 'domainName' | 'certificateArn' | 'hostedZoneId' | 'hostedZoneName' | 'account' | 'region' | 'alarmEmail'> & {
    stage: StageName;
    alarmEmail?: string;
    customDomain?: CustomDomainSettings;
    /** Unpinned, the stack is environment-agnostic and synth needs no AWS. */
    env?: PinnedEnvironment;
    /** Production behaviour: tables retained, a CodeDeploy canary, alarms always to SNS. Fixed per stage, not a setting. */
    production: boolean;
  }
>;

/** The `context` block of cdk.json, as the CDK CLI passes it to the app. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

/** The context key holding `{ staging: {...}, production: {...} }` (cdk.json). */
export const STAGES_CONTEXT_KEY = 'stages';

/** A number from cdk.json, or the string `-c <stage>.<key>=…` gives, checked by `schema`. */
const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), schema);
/** A number above `min` (or from it, `inclusive`), at most `max`. */
const number = (error: string, min: number, inclusive = false, max = Number.MAX_VALUE) =>
  numeric(z.number({ error }).check(inclusive ? z.gte(min, { error }) : z.gt(min, { error }), z.lte(max, { error })));
const positiveNumber = number('must be a positive number', 0);
/** A whole number of `unit` from `min` to `max`. */
const wholeNumber = (unit: string, min: number, max?: number, why = '') => {
  const error = `must be a whole number of ${unit} from ${min}${max === undefined ? '' : ` to ${max}`}${why}`;
  return numeric(z.int({ error }).check(z.gte(min, { error }), z.lte(max ?? Number.MAX_SAFE_INTEGER, { error })));
};
const MAX_MS = TIMEOUT_SECONDS * 1000;
/** A WAF rate-based rule's limit (its bounds across keys: `clientLimitProblems` in capacity.ts). */
const clientLimit = wholeNumber('requests a minute', 1);
/** The most origins one stage allows: each is a mock status 201..299 (infra/cdk/constructs/cors-preflight.ts). */
export const MAX_ALLOWED_ORIGINS = 99;
const ORIGIN_ERROR = 'must be origins such as https://app.example.com (scheme, lower-case host, optional port; no path), comma-separated';
/** A list from cdk.json, or `a,b` from `-c`, each item checked by `item`, without repeats. */
const list = (item: z.ZodString, error: string, max: number) =>
  z
    .preprocess((value) => (typeof value === 'string' ? value.split(',').flatMap((o) => o.trim() || []) : value), z.array(item, { error }))
    .check(z.maxLength(max, { error: `must list at most ${max}` }))
    .transform((items) => [...new Set(items)]);
const origins = list(
  z.string().check(z.regex(/^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/, { error: ORIGIN_ERROR })),
  ORIGIN_ERROR,
  MAX_ALLOWED_ORIGINS,
).default([]);
const CIDR_ERROR =
  'must be CIDR blocks such as 198.51.100.7/32 or 2001:db8::/56 (prefix 1 to 32, or 1 to 128 for IPv6; WAF takes no /0; the bits past the prefix zero: 198.51.100.0/24, not 198.51.100.7/24), comma-separated';
/** An address as a number: IPv4's 32 bits, or IPv6's 128 (`::` and a dotted IPv4 tail expanded). */
const addressBits = (address: string): bigint => {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
  const hex = address.replace(dotted, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const groups = (part: string) => (part ? part.split(':') : []);
  const [head = [], tail = []] = hex.split('::').map(groups);
  const words = [...head, ...Array(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return words.slice(0, isIP(address) === 4 ? 2 : 8).reduce((n, word) => (n << 16n) | BigInt(`0x${word}`), 0n);
};
/**
 * `address/prefix`, IPv4 or IPv6, any prefix but /0, no bit set past the prefix (WAF refuses
 * 198.51.100.7/24 when the IP set is created); an IP set holds up to 10,000 (docs/operators.md).
 */
const isCidr = (text: string) => {
  const [address = '', prefix = '', ...rest] = text.split('/');
  const bits = { 4: 32, 6: 128 }[isIP(address)] ?? 0;
  if (rest.length > 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) < 1 || Number(prefix) > bits) return false;
  return (addressBits(address) & ((1n << BigInt(bits - Number(prefix))) - 1n)) === 0n;
};
const cidrs = list(z.string().check(z.refine(isCidr, { error: CIDR_ERROR })), CIDR_ERROR, 10_000);
/** true/false from cdk.json, or `true`/`false` from `-c`. */
const flag = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);
const logLevels = z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` });
/** A flag that is off unless given on the command line (not in cdk.json). */
const offByDefault = flag.default(false);
/** An optional string; `-c key=` (empty) means not given. */
const optionalText = (check?: z.ZodString) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.optional(check ?? z.string({ error: 'must be a string' })));

/**
 * Every setting a stage takes, one record each: its rule (checked one by one; `settingsOf` adds the
 * rules across keys) and what it does, in the words of docs/operators.md's table.
 */
const SETTINGS = z.strictObject({
  methodRateLimit: wholeNumber('requests a second', 1).describe(
    "requests a second each API method's token bucket refills (r), the same for every operation: a new operation takes nothing from the others' limits, and the stage's need grows by its B + ⌈r × d⌉ ([scaling.md](scaling.md#adding-an-operation))",
  ),
  burstSeconds: number('must be a number of seconds from 1', 1, true).describe(
    "seconds of its rate each API method's token bucket holds (B = ⌊r × burstSeconds⌋), at least 1: what one client's burst may take at once",
  ),
  docsThrottlingRateLimit: positiveNumber.describe(
    `steady requests per second of each docs method's bucket (${DOCS_METHODS.map((m) => `\`${m.method} /v1${m.resource}\``).join(', ')})`,
  ),
  docsThrottlingBurstLimit: wholeNumber('requests', 1).describe('requests each docs method admits at once (at least its rate)'),
  functionDurationMs: wholeNumber('milliseconds', 1, MAX_MS, " (the functions' timeout)").describe(
    "the duration budget d: every admitted call that takes at most this long is served; each method needs B + ⌈r × d⌉ concurrent executions ([scaling.md](scaling.md#the-capacity-model)); 1 to 10,000 (the functions' timeout)",
  ),
  accountConcurrency: wholeNumber('concurrent executions', 1).describe(
    "the account's Lambda quota of concurrent executions the stages count on, the binding limit: stages that may share an account must fit in it together, or the synth fails naming the choices. Raise it only after raising the quota ([Limits](#limits))",
  ),
  perKeyPerMinute: clientLimit.describe(
    "requests a minute one API key may make at WAF, all methods together: a client's promise, changed with a changelog line; from 10 (WAF's floor) to what one API method admits in WAF's minute, B + 60 × r",
  ),
  perSourcePerMinute: clientLimit.describe(
    'requests a minute one source address may make at WAF (a made-up key per request does not escape it), within the same bounds',
  ),
  docsPerSourcePerMinute: clientLimit.describe(
    "requests a minute one source address may make on the docs routes at WAF: from one page load (at least WAF's 10) to what one docs method admits in WAF's minute",
  ),
  reserveConcurrency: flag.describe(
    "reserve each function's need as its reserved concurrency (isolation from the account's other functions); off by default, since Lambda refuses reservations that leave fewer than 100 unreserved (all of a smaller quota), which a new account's quota cannot hold",
  ),
  logRetentionDays: positiveNumber.describe(
    'retention of function, access and execution logs (a CloudWatch Logs retention value: 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, …)',
  ),
  apiKeyCacheSeconds: positiveNumber.describe('`API_KEY_CACHE_SECONDS`: how long a function caches a key lookup (the code caps it at 60)'),
  alarm5xxRatePercent: positiveNumber.describe('threshold of the 5xx-rate alarm, in percent of requests'),
  alarmP99LatencyMs: positiveNumber.describe('threshold of the p99 latency alarm, in milliseconds'),
  logLevel: logLevels.describe(
    "`LOG_LEVEL` of the functions (`debug`, `info`, `warn`, `error`), and Lambda's application log level for them; `info` adds one line per request to API Gateway's access line (the canary counts by it)",
  ),
  tracing: flag.describe('X-Ray active tracing on the functions and the API stage (cost: docs/performance.md)'),
  minimumCompressionSizeBytes: wholeNumber('bytes', 0, 10_485_760).describe(
    "API Gateway compresses (gzip or deflate, as the client's `Accept-Encoding` asks) every response body of at least this many bytes; 0 compresses everything, 0 to 10485760",
  ),
  webAcl: flag.describe(
    "the stage's AWS WAF web ACL with the per-client limits above, in front of the methods' token buckets, which all clients share: without it, one address's keyless flood empties a method's bucket for everyone",
  ),
  loadTestSources: cidrs.describe(
    "CIDR blocks a planned load test runs from, exempt from the per-key and per-address WAF rules only; a list in cdk.json or `-c staging.loadTestSources=198.51.100.7/32,2001:db8::/56` ([Declare the load test's sources](#declare-the-load-tests-sources))",
  ),
  blockedSources: cidrs.describe(
    "CIDR blocks the web ACL answers with its 429 whatever they send: an operator's block list for a flood's sources, a list like `loadTestSources` ([scaling.md](scaling.md#the-edge-made-up-keys))",
  ),
  hotfix: offByDefault.describe(
    'production, for one deploy during an incident: the canary ignores its alarms and shifts all traffic at once; command line only, never in cdk.json',
  ),
  alarmEmail: optionalText(z.string().check(z.regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { error: 'is not an e-mail address' }))).describe(
    "e-mail address subscribed to the stage's alarm topic (every stage has one: [Alarms](#alarms))",
  ),
  domainName: optionalText().describe('custom domain, e.g. `api.example.com`; the base address becomes `https://api.example.com/v1`'),
  certificateArn: optionalText(
    z.string().check(z.regex(/^arn:aws[\w-]*:acm:[\w-]+:\d{12}:certificate\/[\w-]+$/, { error: 'is not an ACM certificate ARN' })),
  ).describe("ACM certificate covering `domainName`, **in the stack's region** (the API is regional)"),
  hostedZoneId: optionalText().describe('Route 53 hosted zone that receives an A alias record for `domainName`'),
  hostedZoneName: optionalText().describe("that zone's name, e.g. `example.com` (`domainName` must be inside it)"),
  allowedOrigins: origins.describe(
    'browser origins allowed to call the pet operations (CORS), a list in cdk.json or `-c staging.allowedOrigins=https://app.example.com,http://localhost:5173`; each `scheme://host[:port]`, at most 99 ([cors.md](cors.md)); none: browser pages on other origins cannot use a key',
  ),
  disableExecuteApiEndpoint: flag.describe(
    'with a custom domain: the execute-api address answers 403, so the API is reached by the domain only ([Accounts and addresses](#accounts-and-addresses))',
  ),
  backupCopyVaultArn: optionalText(
    z.string().check(z.regex(/^arn:aws[\w-]*:backup:[\w-]+:\d{12}:backup-vault:[\w.-]+$/, { error: 'is not an AWS Backup vault ARN' })),
  ).describe(
    "production: an AWS Backup vault in a second region (or account) the tables' daily backups are copied to ([Restore](#restore))",
  ),
  account: optionalText(z.string().check(z.regex(/^\d{12}$/, { error: 'must be a 12-digit AWS account id' }))).describe(
    '12-digit AWS account id the stage may only be deployed to (with `region`): a deploy with credentials for another account fails before changing anything',
  ),
  region: optionalText(
    z.string().check(z.regex(/^[a-z]{2}(?:-[a-z]+)+-\d+$/, { error: 'is not an AWS region such as eu-west-1' })),
  ).describe('the region it may only be deployed to, e.g. `eu-west-1` (with `account`)'),
});

/** Every key a stage takes in cdk.json or `-c <stage>.<key>=…`, and what it does. */
export const STAGE_SETTING_KEYS = Object.keys(SETTINGS.shape) as (keyof typeof SETTINGS.shape)[];
export const settingDescription = (key: (typeof STAGE_SETTING_KEYS)[number]): string => SETTINGS.shape[key].description ?? '';

export type ContextReader = (key: string) => unknown;

/**
 * A stage's settings: cdk.json's `stages.<stage>`, overridden by `context.stages.<stage>` (or all
 * of `-c stages=…`), then by flat `-c <stage>.<key>=…` values.
 */
export function readStageSettings(stage: StageName, readContext: ContextReader): StageSettings {
  const raw: Record<string, unknown> = {};
  for (const stages of [cdkJsonContext()[STAGES_CONTEXT_KEY], readContext(STAGES_CONTEXT_KEY)])
    Object.assign(raw, stageEntry(stage, stages));
  for (const key of STAGE_SETTING_KEYS) {
    const flat = readContext(`${stage}.${key}`);
    if (flat !== undefined) raw[key] = flat;
  }
  const parsed = SETTINGS.safeParse(raw);
  if (!parsed.success) throw new Error(describeIssues(stage, parsed.error, raw));
  return settingsOf(stage, parsed.data);
}

/** `stage`'s entry of a `stages` context value (`{ staging: {...}, production: {...} }`, or its JSON from `-c stages=…`), checked. */
function stageEntry(stage: StageName, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  let stages: unknown = value;
  try {
    if (typeof value === 'string') stages = JSON.parse(value) as unknown;
  } catch {
    throw new Error(`Context "${STAGES_CONTEXT_KEY}" is not valid JSON.`);
  }
  if (!isRecord(stages)) throw new Error(`Context "${STAGES_CONTEXT_KEY}" must be an object keyed by stage.`);
  for (const key of Object.keys(stages)) {
    if (!isStageName(key)) throw new Error(`Context "${STAGES_CONTEXT_KEY}" has unknown stage "${key}".`);
  }
  const entry = stages[stage];
  if (entry === undefined) return {};
  if (!isRecord(entry)) throw new Error(`Context "${STAGES_CONTEXT_KEY}.${stage}" must be an object.`);
  return entry;
}

/** One line per problem: `stage "staging" setting "logLevel" must be one of …, got "loud".` */
function describeIssues(stage: StageName, error: z.ZodError, raw: Record<string, unknown>): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => `Context "${STAGES_CONTEXT_KEY}.${stage}" has unknown key "${key}".`).join('\n');
      }
      const key = String(issue.path[0]);
      return `stage "${stage}" setting "${key}" ${issue.message}, got ${JSON.stringify(raw[key])}.`;
    })
    .join('\n');
}

/** The rules across keys, and the settings' final shape. */
function settingsOf(stage: StageName, values: StageContext): StageSettings {
  const [problem] = clientLimitProblems(values);
  if (problem) throw new Error(`stage "${stage}" ${problem}`);
  if (values.docsThrottlingBurstLimit < values.docsThrottlingRateLimit) {
    throw new Error(`stage "${stage}" setting "docsThrottlingBurstLimit" must be at least docsThrottlingRateLimit.`);
  }
  // Production's canary (constructs/monitoring.ts) counts each version's answers from the request line.
  if (stage === 'production' && LOG_LEVELS.indexOf(values.logLevel) > LOG_LEVELS.indexOf('info')) {
    throw new Error(
      `stage "${stage}" setting "logLevel" is "${values.logLevel}": the canary's alarms count each version's answers ` +
        "from the functions' request line, which is written at info. Set logLevel to info (cdk.json) or debug.",
    );
  }
  if (values.disableExecuteApiEndpoint && !values.domainName) {
    throw new Error(
      `stage "${stage}" setting "disableExecuteApiEndpoint" needs a custom domain (domainName): the API would have no address.`,
    );
  }
  const { domainName, certificateArn, hostedZoneId, hostedZoneName, account, region, alarmEmail, ...rest } = values;
  if ((account === undefined) !== (region === undefined)) {
    throw new Error(`Stage "${stage}" is pinned by account and region together: give both (${stage}.account, ${stage}.region).`);
  }
  const domain = { domainName, certificateArn, hostedZoneId, hostedZoneName: hostedZoneName?.replace(/\.$/, '') };
  const given = Object.values(domain).filter((v) => v !== undefined).length;
  if (given > 0 && given < 4) {
    throw new Error(`Stage "${stage}" custom domain needs all of domainName, certificateArn, hostedZoneId and hostedZoneName.`);
  }
  if (domainName !== undefined && domainName !== domain.hostedZoneName && !domainName.endsWith(`.${domain.hostedZoneName}`)) {
    throw new Error(`Stage "${stage}" domainName ${domainName} is not inside hosted zone ${domain.hostedZoneName}.`);
  }
  return {
    stage,
    ...rest,
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    ...(given === 0 ? {} : { customDomain: domain as CustomDomainSettings }),
    ...(account === undefined || region === undefined ? {} : { env: { account, region } }),
    production: stage === 'production',
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
