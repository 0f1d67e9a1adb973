/**
 * The deployment stages, their stack and output names, and their settings read from CDK context.
 * Free of CDK imports on purpose: the key CLI imports the stack and output names from here to find a
 * stage's tables through `aws cloudformation describe-stacks`.
 */
import { LOG_LEVELS, type LogLevel } from '../lib/http/log.ts';

export const STAGE_NAMES = ['staging', 'production'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}

/** One CloudFormation stack per stage: `PetStore-staging`, `PetStore-production`. */
export function stackName(stage: StageName): string {
  return `PetStore-${stage}`;
}

/**
 * Stack output ids. They are plain ids at the stack's top level (no export), so they stay stable
 * and `describe-stacks` shows them as `OutputKey`.
 */
export const OUTPUT_IDS = {
  baseUrl: 'BaseUrl',
  /** The stage's execute-api address (`…/<stage>/v1`), useful when BaseUrl is a custom domain. */
  executeApiBaseUrl: 'ExecuteApiBaseUrl',
  petsTableName: 'PetsTableName',
  apiKeysTableName: 'ApiKeysTableName',
  alarmTopicArn: 'AlarmTopicArn',
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

export interface StageSettings {
  readonly stage: StageName;
  /** Steady-state requests per second per method, enforced by API Gateway (then 429). */
  readonly throttlingRateLimit: number;
  /** Requests API Gateway accepts in a burst above the rate. */
  readonly throttlingBurstLimit: number;
  /** Retention of function, access and execution logs, in days (a CloudWatch Logs retention value). */
  readonly logRetentionDays: number;
  /** How long a function may cache an API key lookup; the functions cap it at 60. */
  readonly apiKeyCacheSeconds: number;
  /** The functions' LOG_LEVEL. */
  readonly logLevel: LogLevel;
  /** Alarm when more than this percentage of requests end in a 5xx. */
  readonly alarm5xxRatePercent: number;
  /** Alarm when the API's p99 latency exceeds this many milliseconds. */
  readonly alarmP99LatencyMs: number;
  /** X-Ray active tracing on the functions and the API stage. */
  readonly tracing: boolean;
  /**
   * Production, for one deploy during an incident (`-c production.hotfix=true`): the canary
   * ignores its alarms, which are firing already, and shifts all traffic at once. Never in cdk.json.
   */
  readonly hotfix: boolean;
  /** Subscribe this address to the stage's alarm topic. */
  readonly alarmEmail?: string;
  readonly customDomain?: CustomDomainSettings;
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

type TunableKey =
  | 'throttlingRateLimit'
  | 'throttlingBurstLimit'
  | 'logRetentionDays'
  | 'apiKeyCacheSeconds'
  | 'logLevel'
  | 'alarm5xxRatePercent'
  | 'alarmP99LatencyMs'
  | 'tracing';

/** Built-in defaults; cdk.json's `stages` context repeats them so operators see what to tune. */
export const DEFAULT_STAGE_SETTINGS: Record<StageName, Pick<StageSettings, TunableKey>> = {
  staging: {
    throttlingRateLimit: 50,
    throttlingBurstLimit: 100,
    logRetentionDays: 14,
    apiKeyCacheSeconds: 60,
    logLevel: 'info',
    alarm5xxRatePercent: 1,
    alarmP99LatencyMs: 2000,
    tracing: false,
  },
  production: {
    throttlingRateLimit: 500,
    throttlingBurstLimit: 1000,
    logRetentionDays: 90,
    apiKeyCacheSeconds: 60,
    logLevel: 'info',
    alarm5xxRatePercent: 1,
    alarmP99LatencyMs: 2000,
    tracing: true,
  },
};

/** The context key holding `{ staging: {...}, production: {...} }` (cdk.json). */
export const STAGES_CONTEXT_KEY = 'stages';

const NUMBER_KEYS = [
  'throttlingRateLimit',
  'throttlingBurstLimit',
  'logRetentionDays',
  'apiKeyCacheSeconds',
  'alarm5xxRatePercent',
  'alarmP99LatencyMs',
] as const;
const STRING_KEYS = ['logLevel', 'alarmEmail', 'domainName', 'certificateArn', 'hostedZoneId', 'hostedZoneName', 'account', 'region'] as const;
const BOOLEAN_KEYS = ['tracing', 'hotfix'] as const;
/** Boolean settings that are off unless given on the command line (not in cdk.json). */
const OFF_UNLESS_GIVEN: Partial<Record<(typeof BOOLEAN_KEYS)[number], false>> = { hotfix: false };
const KNOWN_KEYS: readonly string[] = [...NUMBER_KEYS, ...STRING_KEYS, ...BOOLEAN_KEYS];

export type ContextReader = (key: string) => unknown;

/**
 * A stage's settings: the built-in defaults, overridden by `context.stages.<stage>` (cdk.json), then
 * by flat `<stage>.<key>` context values, which is what `-c production.alarmEmail=ops@example.com`
 * gives on the command line. Unknown keys and bad values fail the synth with a clear message.
 */
export function readStageSettings(stage: StageName, readContext: ContextReader): StageSettings {
  const raw: Record<string, unknown> = { ...OFF_UNLESS_GIVEN, ...DEFAULT_STAGE_SETTINGS[stage] };
  const nested = parseMaybeJson(readContext(STAGES_CONTEXT_KEY), STAGES_CONTEXT_KEY);
  if (nested !== undefined) {
    if (!isRecord(nested)) throw new Error(`Context "${STAGES_CONTEXT_KEY}" must be an object keyed by stage.`);
    for (const key of Object.keys(nested)) {
      if (!isStageName(key)) throw new Error(`Context "${STAGES_CONTEXT_KEY}" has unknown stage "${key}".`);
    }
    const forStage = nested[stage];
    if (forStage !== undefined) {
      if (!isRecord(forStage)) throw new Error(`Context "${STAGES_CONTEXT_KEY}.${stage}" must be an object.`);
      Object.assign(raw, checkKeys(forStage, `${STAGES_CONTEXT_KEY}.${stage}`));
    }
  }
  for (const key of KNOWN_KEYS) {
    const flat = readContext(`${stage}.${key}`);
    if (flat !== undefined) raw[key] = flat;
  }
  return validate(stage, raw);
}

function validate(stage: StageName, raw: Record<string, unknown>): StageSettings {
  const where = (key: string) => `stage "${stage}" setting "${key}"`;
  const numbers = Object.fromEntries(
    NUMBER_KEYS.map((key) => {
      const value = typeof raw[key] === 'string' ? Number(raw[key]) : raw[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        throw new Error(`${where(key)} must be a positive number, got ${JSON.stringify(raw[key])}.`);
      }
      return [key, value];
    }),
  ) as Record<(typeof NUMBER_KEYS)[number], number>;
  const strings: Partial<Record<(typeof STRING_KEYS)[number], string>> = {};
  for (const key of STRING_KEYS) {
    const value = raw[key];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw new Error(`${where(key)} must be a string.`);
    strings[key] = value;
  }
  const booleans = Object.fromEntries(
    BOOLEAN_KEYS.map((key) => {
      // `-c production.tracing=false` arrives as a string.
      const value = raw[key] === 'true' ? true : raw[key] === 'false' ? false : raw[key];
      if (typeof value !== 'boolean') throw new Error(`${where(key)} must be true or false, got ${JSON.stringify(raw[key])}.`);
      return [key, value];
    }),
  ) as Record<(typeof BOOLEAN_KEYS)[number], boolean>;
  const logLevel = strings.logLevel ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new Error(`${where('logLevel')} must be one of ${LOG_LEVELS.join(', ')}.`);
  if (strings.alarmEmail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(strings.alarmEmail)) {
    throw new Error(`${where('alarmEmail')} is not an e-mail address.`);
  }
  if (numbers.throttlingBurstLimit < numbers.throttlingRateLimit) {
    throw new Error(`${where('throttlingBurstLimit')} must be at least throttlingRateLimit.`);
  }
  return {
    stage,
    ...numbers,
    ...booleans,
    logLevel: logLevel as LogLevel,
    ...(strings.alarmEmail === undefined ? {} : { alarmEmail: strings.alarmEmail }),
    ...customDomain(stage, strings),
    ...pinnedEnvironment(stage, strings),
    production: stage === 'production',
  };
}

function pinnedEnvironment(stage: StageName, values: Partial<Record<(typeof STRING_KEYS)[number], string>>): { env?: PinnedEnvironment } {
  const { account, region } = values;
  if (account === undefined && region === undefined) return {};
  if (account === undefined || region === undefined) {
    throw new Error(`Stage "${stage}" is pinned by account and region together: give both (${stage}.account, ${stage}.region).`);
  }
  if (!/^\d{12}$/.test(account)) throw new Error(`Stage "${stage}" account must be a 12-digit AWS account id, got "${account}".`);
  if (!/^[a-z]{2}(?:-[a-z]+)+-\d+$/.test(region)) throw new Error(`Stage "${stage}" region "${region}" is not an AWS region such as eu-west-1.`);
  return { env: { account, region } };
}

function customDomain(
  stage: StageName,
  values: Partial<Record<(typeof STRING_KEYS)[number], string>>,
): { customDomain?: CustomDomainSettings } {
  const { domainName, certificateArn, hostedZoneId, hostedZoneName } = values;
  const given = [domainName, certificateArn, hostedZoneId, hostedZoneName].filter((v) => v !== undefined);
  if (given.length === 0) return {};
  if (!domainName || !certificateArn || !hostedZoneId || !hostedZoneName) {
    throw new Error(
      `Stage "${stage}" custom domain needs all of domainName, certificateArn, hostedZoneId and hostedZoneName.`,
    );
  }
  const zone = hostedZoneName.replace(/\.$/, '');
  if (domainName !== zone && !domainName.endsWith(`.${zone}`)) {
    throw new Error(`Stage "${stage}" domainName ${domainName} is not inside hosted zone ${zone}.`);
  }
  if (!/^arn:aws[\w-]*:acm:[\w-]+:\d{12}:certificate\/[\w-]+$/.test(certificateArn)) {
    throw new Error(`Stage "${stage}" certificateArn is not an ACM certificate ARN.`);
  }
  return { customDomain: { domainName, certificateArn, hostedZoneId, hostedZoneName: zone } };
}

function checkKeys(values: Record<string, unknown>, where: string): Record<string, unknown> {
  for (const key of Object.keys(values)) {
    if (!KNOWN_KEYS.includes(key)) throw new Error(`Context "${where}" has unknown key "${key}".`);
  }
  return values;
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
