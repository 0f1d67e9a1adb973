/**
 * The cost of a million requests of each operation: memory and architecture read from the
 * synthesised CDK template, duration and log bytes measured by the benchmark, DynamoDB request
 * units from the item sizes, and list prices (assumptions, stated in PRICES).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnElement } from 'aws-cdk-lib';
import { buildApp } from '../../infra/app.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/pet-store-api.ts';
import { STAGE_NAMES, type StageName } from '../../infra/stages.ts';
import type { Route } from '#lib/routes.ts';
import { fixed, markdownTable } from './stats.ts';
import type { ScenarioId } from './scenarios.ts';

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
  /** Standard log class, per GB ingested. */
  cloudWatchLogsPerGb: 0.5,
} as const;

/** CloudWatch Logs sizes an event as its message bytes plus 26 (assumed to be what is billed too). */
const LOG_EVENT_OVERHEAD_BYTES = 26;

export interface FunctionConfig {
  readonly stage: StageName;
  readonly functionName: Route['functionName'];
  readonly memoryMb: number;
  readonly architecture: 'arm64' | 'x86_64';
  readonly runtime: string;
}

/** Synthesises the app as the infra tests do (cdk.json context, no bundling) and reads each function's sizing. */
export function synthFunctionConfigs(): FunctionConfig[] {
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-bench-synth-'));
  try {
    const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
    const { app, stacks } = buildApp({ outdir, context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const assembly = app.synth();
    const configs: FunctionConfig[] = [];
    for (const stage of STAGE_NAMES) {
      const stack = stacks[stage];
      const resources = assembly.getStackByName(stack.stackName).template.Resources as Record<
        string,
        { Properties: Record<string, unknown> }
      >;
      for (const [functionName, fn] of Object.entries(stack.functions) as [
        Route['functionName'],
        (typeof stack.functions)[Route['functionName']],
      ][]) {
        const resource = fn.node.defaultChild;
        if (!resource || !CfnElement.isCfnElement(resource)) throw new Error(`no CloudFormation resource for ${functionName}`);
        const properties = resources[stack.getLogicalId(resource)]?.Properties ?? {};
        const architectures = (properties.Architectures as string[] | undefined) ?? ['x86_64'];
        configs.push({
          stage,
          functionName,
          memoryMb: Number(properties.MemorySize ?? 128),
          architecture: architectures[0] === 'arm64' ? 'arm64' : 'x86_64',
          runtime: String(properties.Runtime),
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
/** The largest pet: a 200-character name of 4-byte characters. */
export const LARGEST_PET = { id: 9_007_199_254_740_991, name: '🐕'.repeat(200), categoryId: 9_007_199_254_740_991, status: 'available' };

/** Items a page reads: limit 20 plus the one that tells whether a next page exists. */
const PAGE_ITEMS = 21;

export interface Units {
  readonly rru: number;
  readonly wru: number;
  readonly note: string;
}

/** Read and write request units of one request of each scenario (API-key lookups are cached: see the doc). */
export function requestUnits(scenario: ScenarioId, pet: Record<string, string | number> = TYPICAL_PET): Units {
  const pageBytes = PAGE_ITEMS * itemSizeBytes(pet);
  // Eventually consistent Scan/Query: half a unit per 4 KB of the items read, summed then rounded up.
  const pageRru = 0.5 * Math.ceil(pageBytes / 4096);
  switch (scenario) {
    case 'list':
      return {
        rru: pageRru,
        wru: 0,
        note: `Scan, Limit 21, eventually consistent: 21 × ${itemSizeBytes(pet)} B = ${pageBytes} B → ${pageRru} RRU`,
      };
    case 'list-status':
      return { rru: pageRru, wru: 0, note: `Query on byStatus (GSI reads are eventually consistent): ${pageBytes} B → ${pageRru} RRU` };
    case 'get':
      return { rru: Math.ceil(itemSizeBytes(pet) / 4096), wru: 0, note: 'GetItem, strongly consistent, item ≤ 4 KB → 1 RRU' };
    case 'create':
      return { rru: 0, wru: 2, note: 'conditional PutItem ≤ 1 KB → 1 WRU, plus 1 WRU for the byStatus index entry (pets with a status)' };
  }
}

/** Log bytes of one request besides the function's own lines: Lambda's platform lines and the API access log. */
export function platformLogBytes(billedMs: number, memoryMb: number): { lambda: number; apiGateway: number; events: number } {
  const requestId = '3f2b9c1e-8a7d-4e5f-b6c3-2d1e0f9a8b7c';
  const lambdaLines = [
    `START RequestId: ${requestId} Version: 12\n`,
    `END RequestId: ${requestId}\n`,
    `REPORT RequestId: ${requestId}\tDuration: ${(billedMs - 0.5).toFixed(2)} ms\tBilled Duration: ${billedMs} ms\tMemory Size: ${memoryMb} MB\tMax Memory Used: 98 MB\t\n`,
  ];
  const sample: Record<string, string> = {
    requestId,
    extendedRequestId: 'Lw3Tn0ZzoAMEbxA=',
    requestTime: '23/Nov/2026:09:30:52 +0000',
    requestTimeEpoch: '1795426252000',
    sourceIp: '203.0.113.17',
    userAgent: 'petstore-client/1.4 (+https://example.com)',
    domainName: 'abc123defg.execute-api.us-east-1.amazonaws.com',
    stage: 'production',
    httpMethod: 'GET',
    resourcePath: '/v1/pets/{petId}',
    path: '/production/v1/pets/1234567890123456',
    protocol: 'HTTP/1.1',
    status: '200',
    responseLength: '1234',
    responseLatencyMs: '18',
    integrationStatus: '200',
    integrationLatencyMs: '15',
    integrationRequestId: requestId,
    errorResponseType: '-',
  };
  const accessLine = JSON.stringify(Object.fromEntries(Object.keys(ACCESS_LOG_FIELDS).map((key) => [key, sample[key] ?? '-'])));
  return {
    lambda: lambdaLines.reduce((sum, line) => sum + Buffer.byteLength(line), 0),
    apiGateway: Buffer.byteLength(accessLine),
    events: lambdaLines.length + 1,
  };
}

export interface CostInput {
  readonly scenario: ScenarioId;
  readonly label: string;
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
  readonly logBytes: number;
  readonly lambdaCompute: number;
  readonly lambdaRequests: number;
  readonly apiGateway: number;
  readonly dynamodb: number;
  readonly logs: number;
  readonly total: number;
}

/** Dollars per million requests, by service. */
export function costPerMillion(input: CostInput): CostRow {
  const { config, billedMs } = input;
  const units = requestUnits(input.scenario);
  const gbSeconds = (billedMs / 1000) * (config.memoryMb / 1024);
  const platform = platformLogBytes(Math.ceil(billedMs), config.memoryMb);
  const events = platform.events + input.functionLogLines;
  const logBytes = input.functionLogBytes + platform.lambda + platform.apiGateway + events * LOG_EVENT_OVERHEAD_BYTES;
  const lambdaCompute = 1e6 * gbSeconds * PRICES.lambdaGbSecond[config.architecture];
  const lambdaRequests = PRICES.lambdaPerMillionRequests;
  const apiGateway = PRICES.apiGatewayRestPerMillion;
  const dynamodb = units.rru * PRICES.dynamodbPerMillionRru + units.wru * PRICES.dynamodbPerMillionWru;
  const logs = ((1e6 * logBytes) / 1024 ** 3) * PRICES.cloudWatchLogsPerGb;
  return {
    input,
    units,
    gbSeconds,
    logBytes,
    lambdaCompute,
    lambdaRequests,
    apiGateway,
    dynamodb,
    logs,
    total: lambdaCompute + lambdaRequests + apiGateway + dynamodb + logs,
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
      '**total / 1M**',
    ],
    rows.map((r) => [
      r.input.label,
      `${r.input.config.memoryMb} MB, ${r.input.config.architecture}`,
      fixed(r.input.billedMs, 2),
      `$${r.lambdaCompute.toFixed(3)}`,
      `$${r.lambdaRequests.toFixed(3)}`,
      `$${r.apiGateway.toFixed(3)}`,
      `$${r.dynamodb.toFixed(3)}`,
      `$${r.logs.toFixed(3)}`,
      `**$${r.total.toFixed(2)}**`,
    ]),
  );
}

export function costArithmetic(rows: readonly CostRow[]): string {
  const lines = rows.map((r) => {
    const price = PRICES.lambdaGbSecond[r.input.config.architecture];
    return [
      `- ${r.input.label}:`,
      `  Lambda compute 10^6 × ${fixed(r.input.billedMs, 2)} ms × ${r.input.config.memoryMb}/1024 GB = ${fixed(1e6 * r.gbSeconds, 0)} GB-s × $${price} = $${r.lambdaCompute.toFixed(3)};`,
      `  DynamoDB ${r.units.note}: ${r.units.rru} RRU × $${PRICES.dynamodbPerMillionRru} + ${r.units.wru} WRU × $${PRICES.dynamodbPerMillionWru} = $${r.dynamodb.toFixed(3)};`,
      `  logs ${fixed(r.logBytes, 0)} B/request (function ${fixed(r.input.functionLogBytes, 0)} B in ${fixed(r.input.functionLogLines, 1)} line(s), Lambda START/END/REPORT and the API access line, +${LOG_EVENT_OVERHEAD_BYTES} B per event) × 10^6 = ${fixed((1e6 * r.logBytes) / 1024 ** 3, 3)} GB × $${PRICES.cloudWatchLogsPerGb} = $${r.logs.toFixed(3)}.`,
    ].join('\n');
  });
  return lines.join('\n');
}
