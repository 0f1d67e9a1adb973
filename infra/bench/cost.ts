/**
 * The cost of a million requests of each operation: memory, architecture, environment, logging configuration (format, levels, log
 * classes, the access log format) read from the synthesised CDK template, duration and log bytes measured by the benchmark, DynamoDB
 * request units from the item sizes, and list prices (assumptions, stated in PRICES).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnElement } from 'aws-cdk-lib';
import { buildApp } from '../cdk/app.ts';
import { cdkJsonContext } from '../cdk/stages.ts';
import { STAGE_NAMES, type StageName } from '../cdk/stages.ts';
import type { Route } from '#lib/routes.ts';
import { fixed, markdownTable } from './stats.ts';
import { requestFor, type Scenario } from './scenarios.ts';

/** List prices, us-east-1, as published by AWS (assumptions: check the pricing pages before quoting). */
export const PRICES = {
  region: 'us-east-1',
  asOf: '2026-11 (list prices as last published; assumed, not fetched)',
  lambdaGbSecond: { arm64: 0.0000133334, x86_64: 0.0000166667 },
  lambdaPerMillionRequests: 0.2,
  /** REST API, first 333 million requests a month. */
  apiGatewayRestPerMillion: 3.5,
  /** On-demand, after the November 2024 price reduction. */
  dynamodbPerMillionWru: 0.625,
  dynamodbPerMillionRru: 0.125,
  /** Per GB ingested, by log class. */
  cloudWatchLogsPerGb: { STANDARD: 0.5, INFREQUENT_ACCESS: 0.25 },
  /** WAF, where the stage has its web ACL: per request, plus $5 a month for the ACL and $1 per rule. */
  wafPerMillionRequests: 0.6,
  wafPerMonth: { webAcl: 5, rule: 1 },
} as const;

export type LogClass = keyof typeof PRICES.cloudWatchLogsPerGb;

/** GB per million requests of `bytes` each. */
const gb = (bytes: number): number => (1e6 * bytes) / 1024 ** 3;

/** CloudWatch Logs sizes an event as its message bytes plus 26 (assumed to be what is billed too). */
const LOG_EVENT_OVERHEAD_BYTES = 26;

export interface FunctionConfig {
  readonly stage: StageName;
  readonly functionId: Route['functionId'];
  readonly memoryMb: number;
  readonly architecture: 'arm64' | 'x86_64';
  readonly runtime: string;
  /** The function's plain-string environment variables (table references left out). */
  readonly environment: Readonly<Record<string, string>>;
  /** Lambda's LoggingConfig: `Text` or `JSON`, and the system (platform) log level. */
  readonly logFormat: 'Text' | 'JSON';
  readonly systemLogLevel: string;
  readonly logClass: LogClass;
  /** The stage's access log: its format string and its group's class. */
  readonly accessLog: { readonly format: string; readonly logClass: LogClass };
  /** The stage has a WAF web ACL, which inspects every request. */
  readonly webAcl: boolean;
}

type Resource = { Type: string; Properties: Record<string, unknown> };

const logClassOf = (group: Resource | undefined): LogClass =>
  group?.Properties.LogGroupClass === 'INFREQUENT_ACCESS' ? 'INFREQUENT_ACCESS' : 'STANDARD';

/** Synthesises the app as the infra tests do (cdk.json context, no bundling) and reads each function's sizing. */
export function synthFunctionConfigs(): FunctionConfig[] {
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-bench-synth-'));
  try {
    const { app, stacks } = buildApp({ outdir, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const assembly = app.synth();
    const configs: FunctionConfig[] = [];
    for (const stage of STAGE_NAMES) {
      const stack = stacks[stage];
      const resources = assembly.getStackByName(stack.stackName).template.Resources as Record<string, Resource>;
      const stageResource = Object.values(resources).find((r) => r.Type === 'AWS::ApiGateway::Stage');
      const accessSetting = stageResource?.Properties.AccessLogSetting as { Format: string; DestinationArn: { 'Fn::GetAtt': string[] } };
      const accessLog = {
        format: accessSetting.Format,
        logClass: logClassOf(resources[accessSetting.DestinationArn['Fn::GetAtt'][0] as string]),
      };
      for (const [functionId, fn] of Object.entries(stack.functions) as [
        Route['functionId'],
        (typeof stack.functions)[Route['functionId']],
      ][]) {
        const resource = fn.node.defaultChild;
        if (!resource || !CfnElement.isCfnElement(resource)) throw new Error(`no CloudFormation resource for ${functionId}`);
        const properties = resources[stack.getLogicalId(resource)]?.Properties ?? {};
        const architectures = (properties.Architectures as string[] | undefined) ?? ['x86_64'];
        const variables = ((properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<
          string,
          unknown
        >;
        const logging = (properties.LoggingConfig ?? {}) as { LogFormat?: string; SystemLogLevel?: string; LogGroup?: { Ref: string } };
        configs.push({
          stage,
          functionId,
          memoryMb: Number(properties.MemorySize ?? 128),
          architecture: architectures[0] === 'arm64' ? 'arm64' : 'x86_64',
          runtime: String(properties.Runtime),
          environment: Object.fromEntries(Object.entries(variables).filter((e): e is [string, string] => typeof e[1] === 'string')),
          logFormat: logging.LogFormat === 'JSON' ? 'JSON' : 'Text',
          systemLogLevel: logging.SystemLogLevel ?? 'INFO',
          logClass: logClassOf(logging.LogGroup ? resources[logging.LogGroup.Ref] : undefined),
          accessLog,
          webAcl: Object.values(resources).some((r) => r.Type === 'AWS::WAFv2::WebACLAssociation'),
        });
      }
    }
    return configs;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** DynamoDB's item size: attribute name bytes plus value bytes (numbers: about one byte per two digits, plus one). */
export function itemSizeBytes(item: Record<string, string | number>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name);
    size +=
      typeof value === 'string' ? Buffer.byteLength(value) : Math.ceil(String(Math.abs(value)).replace(/^0+|\.|0+$/g, '').length / 2) + 1;
  }
  return size;
}

/** A typical pet as the service stores it: a time-ordered id, a 20-character name, a status. */
export const TYPICAL_PET = { id: 1_234_567_890_123_456, name: 'Rex the good dog 001', categoryId: 12, status: 'available' };

/** Items a page reads: limit 20 plus the one that tells whether a next page exists. */
const PAGE_ITEMS = 21;

export interface Units {
  readonly rru: number;
  readonly wru: number;
  readonly note: string;
}

/** Read and write request units of one request of a scenario (API-key lookups are cached: see the doc). */
export function requestUnits(scenario: Scenario, pet: Record<string, string | number> = TYPICAL_PET): Units {
  const pageBytes = PAGE_ITEMS * itemSizeBytes(pet);
  // Eventually consistent Scan/Query: half a unit per 4 KB of the items read, summed then rounded up.
  const page = `Limit 21, eventually consistent: 21 × ${itemSizeBytes(pet)} B = ${pageBytes} B → ${0.5 * Math.ceil(pageBytes / 4096)} RRU`;
  switch (scenario.call) {
    case 'scan':
      return { rru: 0.5 * Math.ceil(pageBytes / 4096), wru: 0, note: `Scan, ${page}` };
    case 'query':
      return { rru: 0.5 * Math.ceil(pageBytes / 4096), wru: 0, note: `Query on byStatus (GSI reads are eventually consistent), ${page}` };
    case 'get':
      return { rru: Math.ceil(itemSizeBytes(pet) / 4096), wru: 0, note: 'GetItem, strongly consistent, item ≤ 4 KB → 1 RRU' };
    default: {
      // A put's body says whether the pet has a status; a pet changed or deleted is taken to have one.
      const body = JSON.parse(requestFor(scenario, [1], 0).body ?? '{}') as object;
      const indexed = scenario.call !== 'put' || 'status' in body;
      const index = indexed ? ', plus 1 WRU for its byStatus index entry' : ' (no status: no index entry)';
      return { rru: 0, wru: indexed ? 2 : 1, note: `${scenario.call} of an item ≤ 1 KB → 1 WRU${index}` };
    }
  }
}

/** Lambda writes its platform lines (START/END/REPORT, or platform.start/report in JSON) at INFO. */
const PLATFORM_LINES_LEVELS = new Set(['DEBUG', 'INFO']);

/** Log bytes and events of one request besides the function's own lines: Lambda's platform lines and the access line. */
export function platformLogBytes(
  billedMs: number,
  config: Pick<FunctionConfig, 'memoryMb' | 'logFormat' | 'systemLogLevel' | 'accessLog'>,
): { lambda: number; lambdaEvents: number; apiGateway: number; accessLine: string } {
  const requestId = '3f2b9c1e-8a7d-4e5f-b6c3-2d1e0f9a8b7c';
  const time = '2026-11-24T09:30:52.123Z';
  const duration = (billedMs - 0.5).toFixed(2);
  const lambdaLines = !PLATFORM_LINES_LEVELS.has(config.systemLogLevel)
    ? []
    : config.logFormat === 'JSON'
      ? [
          JSON.stringify({ time, type: 'platform.start', record: { requestId, version: '12' } }),
          JSON.stringify({
            time,
            type: 'platform.report',
            record: {
              requestId,
              metrics: { durationMs: Number(duration), billedDurationMs: billedMs, memorySizeMB: config.memoryMb, maxMemoryUsedMB: 98 },
              status: 'success',
            },
          }),
        ]
      : [
          `START RequestId: ${requestId} Version: 12\n`,
          `END RequestId: ${requestId}\n`,
          `REPORT RequestId: ${requestId}\tDuration: ${duration} ms\tBilled Duration: ${billedMs} ms\tMemory Size: ${config.memoryMb} MB\tMax Memory Used: 98 MB\t\n`,
        ];
  const sample: Record<string, string> = {
    '$context.requestId': requestId,
    '$context.extendedRequestId': 'Lw3Tn0ZzoAMEbxA=',
    '$context.requestTime': '23/Nov/2026:09:30:52 +0000',
    '$context.requestTimeEpoch': '1795426252000',
    '$context.identity.sourceIp': '203.0.113.17',
    '$context.identity.userAgent': 'petstore-client/1.4 (+https://example.com)',
    '$context.domainName': 'abc123defg.execute-api.us-east-1.amazonaws.com',
    '$context.stage': 'production',
    '$context.httpMethod': 'GET',
    '$context.resourcePath': '/v1/pets/{petId}',
    '$context.path': '/production/v1/pets/1234567890123456',
    '$context.protocol': 'HTTP/1.1',
    '$context.status': '200',
    '$context.responseLength': '1234',
    '$context.responseLatency': '18',
    '$context.integration.status': '200',
    '$context.integration.latency': '15',
    '$context.integration.requestId': requestId,
    '$context.error.responseType': '-',
  };
  // The template's own format string, each $context variable replaced by a typical value.
  const accessLine = config.accessLog.format.replace(/\$context(?:\.[A-Za-z]+)+/g, (variable) => sample[variable] ?? '-');
  return {
    lambda: lambdaLines.reduce((sum, line) => sum + Buffer.byteLength(line), 0),
    lambdaEvents: lambdaLines.length,
    apiGateway: Buffer.byteLength(accessLine),
    accessLine,
  };
}

export interface CostInput {
  readonly scenario: Scenario;
  readonly config: FunctionConfig;
  /** Mean billed milliseconds per invocation (each invocation rounded up to 1 ms). */
  readonly billedMs: number;
  /** Bytes and lines the function itself logs per invocation. */
  readonly functionLogBytes: number;
  readonly functionLogLines: number;
}

export interface CostRow {
  readonly input: CostInput;
  readonly units: Units;
  readonly gbSeconds: number;
  /** Billed bytes (message + event overhead) in the function's group and in the access log. */
  readonly functionGroupBytes: number;
  readonly accessLogBytes: number;
  readonly lambdaCompute: number;
  readonly lambdaRequests: number;
  readonly apiGateway: number;
  readonly dynamodb: number;
  readonly logs: number;
  readonly waf: number;
  readonly total: number;
}

/** Dollars per million requests, by service. */
export function costPerMillion(input: CostInput): CostRow {
  const { config, billedMs } = input;
  const units = requestUnits(input.scenario);
  const gbSeconds = (billedMs / 1000) * (config.memoryMb / 1024);
  const platform = platformLogBytes(Math.ceil(billedMs), config);
  const functionGroupBytes =
    input.functionLogBytes + platform.lambda + (input.functionLogLines + platform.lambdaEvents) * LOG_EVENT_OVERHEAD_BYTES;
  const accessLogBytes = platform.apiGateway + LOG_EVENT_OVERHEAD_BYTES;
  const lambdaCompute = 1e6 * gbSeconds * PRICES.lambdaGbSecond[config.architecture];
  const lambdaRequests = PRICES.lambdaPerMillionRequests;
  const apiGateway = PRICES.apiGatewayRestPerMillion;
  const dynamodb = units.rru * PRICES.dynamodbPerMillionRru + units.wru * PRICES.dynamodbPerMillionWru;
  const logs =
    gb(functionGroupBytes) * PRICES.cloudWatchLogsPerGb[config.logClass] +
    gb(accessLogBytes) * PRICES.cloudWatchLogsPerGb[config.accessLog.logClass];
  const waf = config.webAcl ? PRICES.wafPerMillionRequests : 0;
  return {
    input,
    units,
    gbSeconds,
    functionGroupBytes,
    accessLogBytes,
    lambdaCompute,
    lambdaRequests,
    apiGateway,
    dynamodb,
    logs,
    waf,
    total: lambdaCompute + lambdaRequests + apiGateway + dynamodb + logs + waf,
  };
}

export function costTable(rows: readonly CostRow[]): string {
  return markdownTable(
    [
      'operation',
      'memory, arch',
      'billed ms (est.)',
      'Lambda compute',
      'Lambda requests',
      'API Gateway',
      'DynamoDB',
      'CloudWatch Logs',
      'WAF',
      '**total / 1M**',
    ],
    rows.map((r) => [
      r.input.scenario.label,
      `${r.input.config.memoryMb} MB, ${r.input.config.architecture}`,
      fixed(r.input.billedMs, 2),
      `$${r.lambdaCompute.toFixed(3)}`,
      `$${r.lambdaRequests.toFixed(3)}`,
      `$${r.apiGateway.toFixed(3)}`,
      `$${r.dynamodb.toFixed(3)}`,
      `$${r.logs.toFixed(3)}`,
      `$${r.waf.toFixed(3)}`,
      `**$${r.total.toFixed(2)}**`,
    ]),
  );
}

export function costArithmetic(rows: readonly CostRow[]): string {
  const lines = rows.map((r) => {
    const price = PRICES.lambdaGbSecond[r.input.config.architecture];
    return [
      `- ${r.input.scenario.label}:`,
      `  Lambda compute 10^6 × ${fixed(r.input.billedMs, 2)} ms × ${r.input.config.memoryMb}/1024 GB = ${fixed(1e6 * r.gbSeconds, 0)} GB-s × $${price} = $${r.lambdaCompute.toFixed(3)};`,
      `  DynamoDB ${r.units.note}: ${r.units.rru} RRU × $${PRICES.dynamodbPerMillionRru} + ${r.units.wru} WRU × $${PRICES.dynamodbPerMillionWru} = $${r.dynamodb.toFixed(3)};`,
      `  logs: function group ${fixed(r.functionGroupBytes, 0)} B/request (its own ${fixed(r.input.functionLogBytes, 0)} B in ${fixed(r.input.functionLogLines, 1)} line(s) at LOG_LEVEL=${r.input.config.environment.LOG_LEVEL ?? '?'}, Lambda's platform lines at system level ${r.input.config.systemLogLevel} in ${r.input.config.logFormat}, +${LOG_EVENT_OVERHEAD_BYTES} B per event) × 10^6 = ${fixed(gb(r.functionGroupBytes), 3)} GB × $${PRICES.cloudWatchLogsPerGb[r.input.config.logClass]} (${r.input.config.logClass}) + access log ${fixed(r.accessLogBytes, 0)} B/request × 10^6 = ${fixed(gb(r.accessLogBytes), 3)} GB × $${PRICES.cloudWatchLogsPerGb[r.input.config.accessLog.logClass]} (${r.input.config.accessLog.logClass}) = $${r.logs.toFixed(3)}.`,
    ].join('\n');
  });
  return lines.join('\n');
}
