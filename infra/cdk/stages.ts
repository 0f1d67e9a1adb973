/**
 * The deployment stages (lib/stage-names.ts), their output names, and their settings read from CDK context.
 * Free of CDK imports on purpose: the key CLI imports the stack and output names from here to find a
 * stage's tables through `aws cloudformation describe-stacks`.
 *
 * A stage setting lives in three places, each saying one thing: its default for each stage in
 * cdk.json (`context.stages`, what operators edit and `-c` overrides), its rule in `stageContext`
 * below (the check that fails the synth), and its meaning in `StageSettings`.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import * as z from 'zod';
import { LOG_LEVELS, type LogLevel } from '#lib/log.ts';
import { TIMEOUT_SECONDS } from './function-limits.ts';
import { type CapacitySettings, minimumApiConcurrency } from './capacity.ts';
import { isStageName, type StageName } from '#lib/stage-names.ts';

export { isStageName, STAGE_NAMES, type StageName, stackName } from '#lib/stage-names.ts';

/**
 * Stack output ids. They are plain ids at the stack's top level (no export), so they stay stable
 * and `describe-stacks` shows them as `OutputKey`.
 */
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

/** Optional custom domain: all four values or none. */
export interface CustomDomainSettings {
  /** e.g. `api.example.com`; the base address becomes `https://api.example.com/v1`. */
  readonly domainName: string;
  /** ACM certificate for `domainName`, in the stack's region (the API is regional). */
  readonly certificateArn: string;
  /** Route 53 hosted zone that gets the alias record; given, not looked up, so synth stays offline. */
  readonly hostedZoneId: string;
  readonly hostedZoneName: string;
}

export type { LogLevel };

/** The AWS account and region a stage may only be deployed to. */
export interface PinnedEnvironment {
  readonly account: string;
  readonly region: string;
}

/**
 * The capacity settings are `CapacitySettings` (what the API methods share, the docs throttle, the
 * duration budget, the account, the client share, reservations); every limit follows from them (capacity.ts).
 */
export interface StageSettings extends CapacitySettings {
  readonly stage: StageName;
  /** Retention of function, access and execution logs, in days (a CloudWatch Logs retention value). */
  readonly logRetentionDays: number;
  /** How long a function may cache an API key lookup; the functions cap it at 60. */
  readonly apiKeyCacheSeconds: number;
  /** The functions' LOG_LEVEL: `info` or `debug` keeps their request line (the key's id; the canary counts by it). */
  readonly logLevel: LogLevel;
  /** Alarm when more than this percentage of requests end in a 5xx. */
  readonly alarm5xxRatePercent: number;
  /** Alarm when the API's p99 latency exceeds this many milliseconds. */
  readonly alarmP99LatencyMs: number;
  /** X-Ray active tracing on the functions and the API stage. */
  readonly tracing: boolean;
  /**
   * API Gateway compresses (gzip or deflate, as the client's Accept-Encoding asks) every response
   * body of at least this many bytes; 0 compresses all of them. (1024: a smaller body gains little
   * and pays for it in CPU; a page of pets, repetitive JSON, shrinks several times.)
   */
  readonly minimumCompressionSizeBytes: number;
  /**
   * An AWS WAF web ACL on the stage: per-client limits in front of the methods' token buckets,
   * which all clients share; its limits are derived from the capacity settings (capacity.ts). On
   * in both stages: without it, one address's keyless flood empties a method's bucket for everyone.
   */
  readonly webAcl: boolean;
  /** CIDR blocks a planned load test runs from: exempt from the per-key and per-address WAF rules only (docs/operators.md). */
  readonly loadTestSources: readonly string[];
  /** CIDR blocks whose every request gets WAF's 429: an operator's block list for a flood's sources. */
  readonly blockedSources: readonly string[];
  /**
   * Production, for one deploy during an incident (`-c production.hotfix=true`): the canary
   * ignores its alarms, which are firing already, and shifts all traffic at once. Never in cdk.json.
   */
  readonly hotfix: boolean;
  /** Subscribe this address to the stage's alarm topic. */
  readonly alarmEmail?: string;
  readonly customDomain?: CustomDomainSettings;
  /** With a custom domain: the execute-api address answers 403, so keys reach the API by the domain only. */
  readonly disableExecuteApiEndpoint: boolean;
  /** Production: an AWS Backup vault in another region (or account) its daily backups are copied to. */
  readonly backupCopyVaultArn?: string | undefined;
  /**
   * Browser origins allowed to call the pet operations (CORS). Empty: no CORS on them, so browser
   * pages on other origins cannot use a key (the OpenAPI document is public to every origin anyway).
   */
  readonly allowedOrigins: readonly string[];
  /**
   * Pins the stack to this account and region (context `account` and `region`, both or neither):
   * a deploy whose credentials are for another account, or that targets another region, fails
   * before changing anything. Unpinned, the stack is environment-agnostic and synth needs no AWS.
   */
  readonly env?: PinnedEnvironment;
  /**
   * Production behaviour: tables retained and deletion-protected, functions shifted through a
   * CodeDeploy canary, alarms always wired to an SNS topic. Fixed per stage, not a context value.
   */
  readonly production: boolean;
}

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
/** A whole number from `min` to `max`. */
const wholeNumber = (error: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  numeric(z.int({ error }).check(z.gte(min, { error }), z.lte(max, { error })));
/** API Gateway's range for MinimumCompressionSize: 0 to 10 MiB. */
const compressionSize = wholeNumber('must be a whole number of bytes from 0 to 10485760', 0, 10_485_760);
/** A token bucket's size: whole requests. */
const burst = wholeNumber('must be a whole number of requests from 1', 1);
/** The duration budget: no call runs past the functions' timeout. */
const MAX_MS = TIMEOUT_SECONDS * 1000;
const durationMs = wholeNumber(`must be a whole number of milliseconds from 1 to ${MAX_MS} (the functions' timeout)`, 1, MAX_MS);
const concurrency = wholeNumber('must be a whole number of concurrent executions from 1', 1);
/** A bucket holds at least a second of its rate. */
const burstSeconds = number('must be a number of seconds from 1', 1, true);
const percent = number('must be a percentage above 0, at most 100', 0, false, 100);
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
);
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
/** An optional string; `-c key=` (empty) means not given. */
const optionalText = (check?: z.ZodString) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.optional(check ?? z.string({ error: 'must be a string' })));

/** Every context key a stage takes, checked one by one; `settingsSchema` adds the rules across keys. */
const stageContext = z.strictObject({
  apiConcurrency: concurrency,
  burstSeconds,
  docsThrottlingRateLimit: positiveNumber,
  docsThrottlingBurstLimit: burst,
  functionDurationMs: durationMs,
  accountConcurrency: concurrency,
  clientSharePercent: percent,
  reserveConcurrency: flag,
  logRetentionDays: positiveNumber,
  apiKeyCacheSeconds: positiveNumber,
  alarm5xxRatePercent: positiveNumber,
  alarmP99LatencyMs: positiveNumber,
  logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
  tracing: flag,
  minimumCompressionSizeBytes: compressionSize,
  webAcl: flag,
  loadTestSources: cidrs,
  blockedSources: cidrs,
  hotfix: flag,
  alarmEmail: optionalText(z.string().check(z.regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { error: 'is not an e-mail address' }))),
  domainName: optionalText(),
  certificateArn: optionalText(
    z.string().check(z.regex(/^arn:aws[\w-]*:acm:[\w-]+:\d{12}:certificate\/[\w-]+$/, { error: 'is not an ACM certificate ARN' })),
  ),
  hostedZoneId: optionalText(),
  hostedZoneName: optionalText(),
  allowedOrigins: z.optional(origins),
  disableExecuteApiEndpoint: flag,
  backupCopyVaultArn: optionalText(
    z.string().check(z.regex(/^arn:aws[\w-]*:backup:[\w-]+:\d{12}:backup-vault:[\w.-]+$/, { error: 'is not an AWS Backup vault ARN' })),
  ),
  account: optionalText(z.string().check(z.regex(/^\d{12}$/, { error: 'must be a 12-digit AWS account id' }))),
  region: optionalText(z.string().check(z.regex(/^[a-z]{2}(?:-[a-z]+)+-\d+$/, { error: 'is not an AWS region such as eu-west-1' }))),
});
type StageContext = z.infer<typeof stageContext>;

/** Every key a stage takes in cdk.json or `-c <stage>.<key>=…`. */
export const STAGE_SETTING_KEYS: readonly string[] = Object.keys(stageContext.shape);

/** Settings that are off unless given on the command line (not in cdk.json). */
const OFF_UNLESS_GIVEN = { hotfix: false } as const;

export type ContextReader = (key: string) => unknown;

/**
 * A stage's settings: cdk.json's `stages.<stage>`, overridden by `context.stages.<stage>` (cdk.json
 * again under the CDK CLI, or all of `-c stages=…`), then
 * by flat `<stage>.<key>` context values, which is what `-c production.alarmEmail=ops@example.com`
 * gives on the command line. Unknown keys and bad values fail the synth with a message that names
 * the stage and the key.
 */
export function readStageSettings(stage: StageName, readContext: ContextReader): StageSettings {
  const raw: Record<string, unknown> = { ...OFF_UNLESS_GIVEN };
  for (const stages of [cdkJsonContext()[STAGES_CONTEXT_KEY], readContext(STAGES_CONTEXT_KEY)]) {
    Object.assign(raw, stageEntry(stage, parseMaybeJson(stages, STAGES_CONTEXT_KEY)));
  }
  for (const key of STAGE_SETTING_KEYS) {
    const flat = readContext(`${stage}.${key}`);
    if (flat !== undefined) raw[key] = flat;
  }
  const parsed = stageContext.safeParse(raw);
  if (!parsed.success) throw new Error(describeIssues(stage, parsed.error, raw));
  return settingsOf(stage, parsed.data);
}

/** `stage`'s entry of a `stages` context value (`{ staging: {...}, production: {...} }`), checked. */
function stageEntry(stage: StageName, stages: unknown): Record<string, unknown> {
  if (stages === undefined) return {};
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
  const [least, each] = [minimumApiConcurrency(values), minimumApiConcurrency(values, 1)];
  if (values.apiConcurrency < least) {
    throw new Error(
      `stage "${stage}" setting "apiConcurrency" must be at least ${least}: each of the ${least / each} API methods needs ` +
        `⌈burstSeconds + functionDurationMs⌉ = ${each} concurrent executions for one request a second, got ${values.apiConcurrency}.`,
    );
  }
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
  const { domainName, certificateArn, hostedZoneId, hostedZoneName, account, region, alarmEmail, allowedOrigins, ...rest } = values;
  return {
    stage,
    ...rest,
    allowedOrigins: allowedOrigins ?? [],
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
    ...customDomain(stage, { domainName, certificateArn, hostedZoneId, hostedZoneName }),
    ...pinnedEnvironment(stage, { account, region }),
    production: stage === 'production',
  };
}

function pinnedEnvironment(stage: StageName, { account, region }: Pick<StageContext, 'account' | 'region'>): { env?: PinnedEnvironment } {
  if (account === undefined && region === undefined) return {};
  if (account === undefined || region === undefined) {
    throw new Error(`Stage "${stage}" is pinned by account and region together: give both (${stage}.account, ${stage}.region).`);
  }
  return { env: { account, region } };
}

function customDomain(
  stage: StageName,
  {
    domainName,
    certificateArn,
    hostedZoneId,
    hostedZoneName,
  }: Pick<StageContext, 'domainName' | 'certificateArn' | 'hostedZoneId' | 'hostedZoneName'>,
): { customDomain?: CustomDomainSettings } {
  const given = [domainName, certificateArn, hostedZoneId, hostedZoneName].filter((v) => v !== undefined);
  if (given.length === 0) return {};
  if (!domainName || !certificateArn || !hostedZoneId || !hostedZoneName) {
    throw new Error(`Stage "${stage}" custom domain needs all of domainName, certificateArn, hostedZoneId and hostedZoneName.`);
  }
  const zone = hostedZoneName.replace(/\.$/, '');
  if (domainName !== zone && !domainName.endsWith(`.${zone}`)) {
    throw new Error(`Stage "${stage}" domainName ${domainName} is not inside hosted zone ${zone}.`);
  }
  return { customDomain: { domainName, certificateArn, hostedZoneId, hostedZoneName: zone } };
}

/** `-c stages='{"staging":{...}}'` arrives as a string. */
function parseMaybeJson(value: unknown, key: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new Error(`Context "${key}" is not valid JSON.`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
