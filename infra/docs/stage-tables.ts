/**
 * The stage tables of the docs: each stage's capacity, inputs and every limit the model derives
 * (docs/scaling.md), and every stage setting with its value per stage (docs/operators.md).
 */
import { statSync } from 'node:fs';
import { MAX_BODY_SIZE } from '#lib/http/json-body.ts';
import { largestDocsResponseBytes } from '#lib/openapi/reference-page.ts';
import {
  apiThrottle,
  comparedWith,
  DOCS_FUNCTION,
  DOCS_METHODS,
  fmt,
  methodConcurrencyNeed,
  minimumUnreserved,
  type StageCapacity,
  stageCapacity,
  sum,
  WAF_WINDOW_SECONDS,
} from '../cdk/capacity.ts';
import {
  cdkJsonContext,
  readStageSettings,
  STAGE_NAMES,
  STAGE_SETTING_KEYS,
  STAGES_CONTEXT_KEY,
  type StageSettings,
} from '../cdk/stages.ts';

const defaults = (): StageSettings[] => STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined));

/** A markdown table: a header row, then rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(line)].join('\n');
}

const perSecond = (perMinute: number) => fmt(Math.round((perMinute / WAF_WINDOW_SECONDS) * 10) / 10);

/** docs/scaling.md: the model's inputs and what it derives, per stage, from cdk.json's defaults. */
export function stageCapacityTable(): string {
  const stages = defaults();
  const capacities = stages.map(stageCapacity);
  const row = (label: string, value: (s: StageSettings, c: StageCapacity) => string): string[] => [
    label,
    ...stages.map((s, i) => value(s, capacities[i] as StageCapacity)),
  ];
  const named = (c: StageCapacity) => c.methods.filter((m) => m.functionId !== DOCS_FUNCTION).map((m) => `\`${m.method}\``);
  const docsNeed = (c: StageCapacity) => c.functions.find((f) => f.functionId === DOCS_FUNCTION)?.concurrencyNeed ?? 0;
  const rows = [
    row('**inputs**', () => ''),
    row('`apiConcurrency`, shared by the API methods', (s) => fmt(s.apiConcurrency)),
    row('`burstSeconds`, B ÷ r of each API method', (s) => `${fmt(s.burstSeconds)} s`),
    row(
      '`docsThrottlingRateLimit`, `docsThrottlingBurstLimit`, per docs method',
      (s) => `${fmt(s.docsThrottlingRateLimit)} req/s, ${fmt(s.docsThrottlingBurstLimit)}`,
    ),
    row('`functionDurationMs` d', (s) => `${fmt(s.functionDurationMs)} ms`),
    row('`accountConcurrency` C', (s) => fmt(s.accountConcurrency)),
    row('`clientSharePercent`', (s) => `${fmt(s.clientSharePercent)} %`),
    row('`reserveConcurrency`', (s) => (s.reserveConcurrency ? 'on' : 'off')),
    row('`webAcl`', (s) => (s.webAcl ? 'on' : 'off')),
    row('**derived**', () => ''),
    row('API methods (each its own token bucket; a function each)', (_, c) => `${named(c).length}: ${named(c).join(', ')}`),
    row(
      'each API method: r = ⌊share ÷ (burstSeconds + d)⌋, B = ⌊r × burstSeconds⌋, need B + ⌈r × d⌉ of its share ⌊apiConcurrency ÷ methods⌋',
      (s, c) => perMethod(s, named(c).length),
    ),
    row('the same, with one more API method', (s, c) => perMethod(s, named(c).length + 1)),
    row('what the API methods admit together', (_, c) => {
      const n = named(c).length;
      return `${fmt(c.apiThrottle.rateLimit * n)} req/s, ${fmt(c.apiThrottle.burstLimit * n)} at once`;
    }),
    row(`need of \`${DOCS_FUNCTION}\` (${DOCS_METHODS.length} methods, B + ⌈r × d⌉ each)`, (_, c) => fmt(docsNeed(c))),
    row('**stage need** (all methods)', (_, c) => `**${fmt(c.concurrencyNeed)}**`),
    row('reserved concurrency per function', (s, c) =>
      s.reserveConcurrency
        ? c.functions.map((f) => `${f.functionId} ${fmt(f.reservedConcurrency ?? 0)}`).join(', ')
        : `none (with \`reserveConcurrency\`: each function's need, ${fmt(c.concurrencyNeed)} in all)`,
    ),
    row('Lambda at the budget, C ÷ d (the account, all functions)', (_, c) => `${fmt(c.accountRequestsPerSecond)} req/s`),
    row(
      'WAF per API key, B + ⌈share × 60 × r⌉',
      (_, c) => `${fmt(c.webAcl.perKeyPerMinute)}/min (${perSecond(c.webAcl.perKeyPerMinute)} req/s)`,
    ),
    row('WAF per source address', (_, c) => `${fmt(c.webAcl.perIpPerMinute)}/min (${perSecond(c.webAcl.perIpPerMinute)} req/s)`),
    row('WAF docs routes per source address', (_, c) => `${fmt(c.webAcl.docsPerIpPerMinute)}/min`),
    row(`WAF bodies over ${MAX_BODY_SIZE} per source address`, (_, c) => `${fmt(c.webAcl.oversizeBodiesPerIpPerMinute)}/min`),
    row('addresses at the per-address limit that fill one API method, ⌈r × 60 ÷ that limit⌉', (_, c) =>
      fmt(Math.ceil((c.apiThrottle.rateLimit * 60) / c.webAcl.perIpPerMinute)),
    ),
  ];
  return `${table(['', ...STAGE_NAMES], rows, ['l', ...STAGE_NAMES.map(() => 'r' as const)])}\n\n${accountSummary(stages)}`;
}

/** `37 req/s, 74, 82 of 82`: one of `methods` API methods' r, B, need and share. */
function perMethod(settings: StageSettings, methods: number): string {
  const throttle = apiThrottle(settings, methods);
  const need = methodConcurrencyNeed(throttle, settings.functionDurationMs);
  return `${fmt(throttle.rateLimit)} req/s, ${fmt(throttle.burstLimit)}, ${fmt(need)} of ${fmt(Math.floor(settings.apiConcurrency / methods))}`;
}

/** What the stages need of one account together, each comparison worded from the figures. */
export function accountSummary(stages: readonly StageSettings[]): string {
  const needs = stages.map((s) => stageCapacity(s).concurrencyNeed);
  const total = sum(needs);
  const limit = Math.min(...stages.map((s) => s.accountConcurrency));
  const reservable = limit - minimumUnreserved(limit);
  return (
    `Both stages in one account need ${needs.map(fmt).join(' + ')} = ${fmt(total)} concurrent executions, ${comparedWith(total, limit)} its ${fmt(limit)}; ` +
    `with \`reserveConcurrency\` on in both, they reserve the same ${fmt(total)}, ${comparedWith(total, reservable)} the ${fmt(reservable)} ` +
    `Lambda lets an account reserve (it keeps ${fmt(minimumUnreserved(limit))} unreserved).`
  );
}

/** Seconds in a month of 30 days, and AWS's price of data out to the internet (first 10 TB a month, per GB). */
const SECONDS_PER_MONTH = 30 * 24 * 3600;
const DATA_OUT_PER_GB = 0.09;

/**
 * docs/scaling.md: the most the reference page can send a month at the limits. Its asset route
 * answers at most `docsThrottlingRateLimit` a second, each answer at most the largest asset
 * compressed; the page route's answers are under 1 KiB; the OpenAPI document shares their throttle. One
 * address is held to its WAF limit.
 */
export function docsEgressTable(): string {
  const largest = largestDocsResponseBytes();
  const documentBytes = statSync(new URL('../../openapi.json', import.meta.url)).size;
  const stages = defaults();
  const capacities = stages.map(stageCapacity);
  const month = (perSecond: number, bytes: number) => {
    const gb = (perSecond * bytes * SECONDS_PER_MONTH) / 1e9;
    return `${fmt(Math.round(gb))} GB, $${fmt(Math.round(gb * DATA_OUT_PER_GB))}`;
  };
  const rows = [
    ['largest answer (an asset, gzip)', ...stages.map(() => `${fmt(largest)} bytes`)],
    ['the asset route at its throttle, a month', ...stages.map((s) => month(s.docsThrottlingRateLimit, largest))],
    ['the page route at its throttle, a month', ...stages.map((s) => month(s.docsThrottlingRateLimit, 1024))],
    // Uncompressed: a client may refuse gzip.
    ['the OpenAPI document at the docs throttle, a month', ...stages.map((s) => month(s.docsThrottlingRateLimit, documentBytes))],
    [
      'one source address at its WAF limit, a month',
      ...capacities.map((c) => month(c.webAcl.docsPerIpPerMinute / WAF_WINDOW_SECONDS, largest)),
    ],
  ];
  return table(['', ...STAGE_NAMES], rows, ['l', ...STAGE_NAMES.map(() => 'r' as const)]);
}

/** What each setting does, for the operators' table. Every key a stage takes has one. */
export const SETTING_EFFECTS: Readonly<Record<string, string>> = {
  apiConcurrency:
    "concurrent executions the stage's API methods share, an equal share each: each method's rate r and burst B follow from its share ([scaling.md](scaling.md#the-capacity-model)), so a new operation needs no edit here; at least ⌈burstSeconds + d⌉ per method",
  burstSeconds:
    "seconds of its rate each API method's token bucket holds (B = r × burstSeconds), at least 1: what one client's burst may take at once",
  docsThrottlingRateLimit: `steady requests per second of each docs method's bucket (${DOCS_METHODS.map((m) => `\`${m.method} /v1${m.resource}\``).join(', ')})`,
  docsThrottlingBurstLimit: 'requests each docs method admits at once (at least its rate)',
  functionDurationMs:
    "the duration budget d: every admitted call that takes at most this long is served; each method needs B + ⌈r × d⌉ concurrent executions ([scaling.md](scaling.md#the-capacity-model)); 1 to 10,000 (the functions' timeout)",
  accountConcurrency:
    "the account's Lambda quota of concurrent executions the stages count on; stages that may share an account must fit in it together, or the synth fails. Raise it only after raising the quota ([Limits](#limits))",
  clientSharePercent:
    "the share of one method's admission per minute (its burst plus its rate over WAF's minute) one API key, and one source address, may take at WAF",
  reserveConcurrency:
    "reserve each function's need as its reserved concurrency (isolation from the account's other functions); off by default, since Lambda refuses reservations that leave fewer than 100 unreserved (all of a smaller quota), which a new account's quota cannot hold",
  webAcl: "the stage's AWS WAF web ACL with the per-client limits the capacity model derives",
  loadTestSources:
    "CIDR blocks a planned load test runs from, exempt from the per-key and per-address WAF rules only; a list in cdk.json or `-c staging.loadTestSources=198.51.100.7/32,2001:db8::/56` ([Declare the load test's sources](#declare-the-load-tests-sources))",
  logRetentionDays:
    'retention of function, access and execution logs (a CloudWatch Logs retention value: 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, …)',
  apiKeyCacheSeconds: '`API_KEY_CACHE_SECONDS` of the functions: how long a key lookup is cached (capped at 60 by the code)',
  logLevel:
    "`LOG_LEVEL` of the functions (`debug`, `info`, `warn`, `error`), and Lambda's application log level for them; `info` adds one line per request to API Gateway's access line",
  alarm5xxRatePercent: 'threshold of the 5xx-rate alarm, in percent of requests',
  alarmP99LatencyMs: 'threshold of the p99 latency alarm, in milliseconds',
  tracing: 'X-Ray active tracing on the functions and the API stage (cost: docs/performance.md)',
  minimumCompressionSizeBytes:
    "API Gateway compresses (gzip or deflate, as the client's `Accept-Encoding` asks) every response body of at least this many bytes; 0 compresses everything, 0 to 10485760",
  blockedSources:
    "CIDR blocks the web ACL answers with its 429 whatever they send: an operator's block list for a flood's sources, a list like `loadTestSources` ([scaling.md](scaling.md#the-edge-made-up-keys))",
  hotfix:
    'production, for one deploy during an incident: the canary ignores its alarms and shifts all traffic at once; command line only, never in cdk.json',
  alarmEmail: "e-mail address subscribed to the stage's alarm topic (creates the topic in staging)",
  domainName: 'custom domain, e.g. `api.example.com`; the base address becomes `https://api.example.com/v1`',
  certificateArn: "ACM certificate covering `domainName`, **in the stack's region** (the API is regional)",
  hostedZoneId: 'Route 53 hosted zone that receives an A alias record for `domainName`',
  hostedZoneName: "that zone's name, e.g. `example.com` (`domainName` must be inside it)",
  allowedOrigins:
    'browser origins allowed to call the pet operations (CORS), a list in cdk.json or `-c staging.allowedOrigins=https://app.example.com,http://localhost:5173`; each `scheme://host[:port]`, at most 99 ([cors.md](cors.md))',
  disableExecuteApiEndpoint:
    'with a custom domain: the execute-api address answers 403, so the API is reached by the domain only ([Accounts and addresses](#accounts-and-addresses))',
  backupCopyVaultArn:
    "production: an AWS Backup vault in a second region (or account) the tables' daily backups are copied to ([Restore](#restore))",
  account: '12-digit AWS account id the stage may only be deployed to (with `region`)',
  region: 'the region it may only be deployed to, e.g. `eu-west-1` (with `account`)',
};

/** docs/operators.md: every setting a stage takes, its value in cdk.json per stage, and what it does. */
export function stageSettingsTable(): string {
  const missing = STAGE_SETTING_KEYS.filter((key) => !(key in SETTING_EFFECTS));
  if (missing.length > 0) throw new Error(`infra/docs/stage-tables.ts: no description for stage setting(s) ${missing.join(', ')}`);
  const stages = (cdkJsonContext()[STAGES_CONTEXT_KEY] ?? {}) as Record<string, Record<string, unknown>>;
  const value = (v: unknown) => (v === undefined ? '—' : `\`${Array.isArray(v) ? v.join(',') || '[]' : String(v)}\``);
  const rows = STAGE_SETTING_KEYS.map((key) => [
    `\`${key}\``,
    ...STAGE_NAMES.map((stage) => value(stages[stage]?.[key])),
    SETTING_EFFECTS[key] as string,
  ]);
  return table(['key', ...STAGE_NAMES.map((s) => `${s} (cdk.json)`), 'effect'], rows, ['l', ...STAGE_NAMES.map(() => 'l' as const), 'l']);
}
