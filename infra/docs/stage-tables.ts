/**
 * The stage tables of the docs: every limit the model derives for each stage (docs/scaling.md), and
 * every stage setting with its value per stage and what it does, from its record (docs/operators.md).
 */
import { statSync } from 'node:fs';
import { largestDocsResponseBytes } from '#lib/openapi/reference-page.ts';
import {
  comparedWith,
  DOCS_FUNCTION,
  DOCS_METHODS,
  fmt,
  methodConcurrencyNeed,
  minimumUnreserved,
  minuteAdmission,
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
  settingDescription,
} from '../cdk/stages.ts';

const defaults = (): StageSettings[] => STAGE_NAMES.map((stage) => readStageSettings(stage, () => undefined));

/** A table with a column per stage at cdk.json's defaults: each row a label and its figure per stage. */
function perStage(rows: readonly (readonly [string, (s: StageSettings, c: StageCapacity) => string])[]): string {
  const stages = defaults();
  const body = rows.map(([label, cell]) => [label, ...stages.map((s) => cell(s, stageCapacity(s)))]);
  return table(['', ...STAGE_NAMES], body, ['l', ...STAGE_NAMES.map(() => 'r' as const)]);
}

/** A markdown table: a header row, then rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(line)].join('\n');
}

const perSecond = (perMinute: number) => fmt(Math.round((perMinute / WAF_WINDOW_SECONDS) * 10) / 10);

/** The stage's need with one more API method at the same throttle: what adding an operation asks of the account. */
const needWithOneMore = (s: StageSettings, c: StageCapacity) =>
  c.concurrencyNeed + methodConcurrencyNeed(c.apiThrottle, s.functionDurationMs);

/** docs/scaling.md: every limit the model derives, per stage, from cdk.json's defaults (the settings: docs/operators.md). */
export function stageCapacityTable(): string {
  const named = (c: StageCapacity) => c.methods.filter((m) => m.functionId !== DOCS_FUNCTION).map((m) => `\`${m.method}\``);
  const bucket = (c: StageCapacity, functionId?: string) => {
    const m = c.methods.find((x) => (functionId ? x.functionId === functionId : x.functionId !== DOCS_FUNCTION));
    return m ? `${fmt(m.rateLimit)} req/s, ${fmt(m.burstLimit)}, need ${fmt(m.concurrencyNeed)}` : '';
  };
  const waf = (perMinute: number, most: number) => `${fmt(perMinute)}/min (${perSecond(perMinute)} req/s), of ${fmt(most)}`;
  const rows: Parameters<typeof perStage>[0] = [
    ['API methods (each its own token bucket; a function each)', (_, c) => `${named(c).length}: ${named(c).join(', ')}`],
    ['each API method: r = `methodRateLimit`, B = ⌊r × `burstSeconds`⌋, need B + ⌈r × d⌉ (d = `functionDurationMs`)', (_, c) => bucket(c)],
    [
      `each docs method (${DOCS_METHODS.length}): \`docsThrottlingRateLimit\`, \`docsThrottlingBurstLimit\`, need`,
      (_, c) => bucket(c, DOCS_FUNCTION),
    ],
    ['**stage need** (all methods)', (_, c) => `**${fmt(c.concurrencyNeed)}**`],
    ['stage need with one more API method (the same throttle)', (s, c) => fmt(needWithOneMore(s, c))],
    [
      'reserved concurrency per function',
      (s, c) =>
        s.reserveConcurrency
          ? c.functions.map((f) => `${f.functionId} ${fmt(f.reservedConcurrency ?? 0)}`).join(', ')
          : `none (with \`reserveConcurrency\`: each function's need, ${fmt(c.concurrencyNeed)} in all)`,
    ],
    ['Lambda at the budget, C ÷ d (the account, all functions)', (_, c) => `${fmt(c.accountRequestsPerSecond)} req/s`],
    ['WAF per API key (`perKeyPerMinute`), of B + 60 × r', (_, c) => waf(c.webAcl.perKeyPerMinute, minuteAdmission(c.apiThrottle))],
    [
      'WAF per source address (`perSourcePerMinute`), of B + 60 × r',
      (_, c) => waf(c.webAcl.perIpPerMinute, minuteAdmission(c.apiThrottle)),
    ],
    [
      "WAF docs routes per source address (`docsPerSourcePerMinute`), of a docs method's B + 60 × r",
      (s, c) =>
        waf(c.webAcl.docsPerIpPerMinute, minuteAdmission({ rateLimit: s.docsThrottlingRateLimit, burstLimit: s.docsThrottlingBurstLimit })),
    ],
    [
      'addresses at the per-address limit that fill one API method, ⌈r × 60 ÷ that limit⌉',
      (_, c) => fmt(Math.ceil((c.apiThrottle.rateLimit * 60) / c.webAcl.perIpPerMinute)),
    ],
  ];
  return `${perStage(rows)}\n\n${accountSummary(defaults())}`;
}

/** What the stages need of one account together, now and with one more API method, each comparison worded from the figures. */
export function accountSummary(stages: readonly StageSettings[]): string {
  const capacities = stages.map((s) => stageCapacity(s));
  const needs = capacities.map((c) => c.concurrencyNeed);
  const more = stages.map((s, i) => needWithOneMore(s, capacities[i] as StageCapacity));
  const [total, totalMore] = [sum(needs), sum(more)];
  const limit = Math.min(...stages.map((s) => s.accountConcurrency));
  const reservable = limit - minimumUnreserved(limit);
  return (
    `Both stages in one account need ${needs.map(fmt).join(' + ')} = ${fmt(total)} concurrent executions, ${comparedWith(total, limit)} its ${fmt(limit)}; ` +
    `with \`reserveConcurrency\` on in both, they reserve the same ${fmt(total)}, ${comparedWith(total, reservable)} the ${fmt(reservable)} ` +
    `Lambda lets an account reserve (it keeps ${fmt(minimumUnreserved(limit))} unreserved). ` +
    `With one more API method each, they would need ${more.map(fmt).join(' + ')} = ${fmt(totalMore)}, ${comparedWith(totalMore, limit)} its ${fmt(limit)}` +
    (totalMore > limit ? ': the synth refuses it until a decision lands in cdk.json ([adding an operation](#adding-an-operation)).' : '.')
  );
}

/** Seconds in a month of 30 days, and AWS's price of data out to the internet (first 10 TB a month, per GB). */
const SECONDS_PER_MONTH = 30 * 24 * 3600;
const DATA_OUT_PER_GB = 0.09;

/** docs/scaling.md: the most the reference page can send a month at the limits. */
export function docsEgressTable(): string {
  const largest = largestDocsResponseBytes();
  const documentBytes = statSync(new URL('../../openapi.json', import.meta.url)).size;
  const month = (perSecond: number, bytes: number) => {
    const gb = (perSecond * bytes * SECONDS_PER_MONTH) / 1e9;
    return `${fmt(Math.round(gb))} GB, $${fmt(Math.round(gb * DATA_OUT_PER_GB))}`;
  };
  return perStage([
    ['largest answer (an asset, gzip)', () => `${fmt(largest)} bytes`],
    ['the asset route at its throttle, a month', (s) => month(s.docsThrottlingRateLimit, largest)],
    ['the page route at its throttle, a month', (s) => month(s.docsThrottlingRateLimit, 1024)],
    // Uncompressed: a client may refuse gzip.
    ['the OpenAPI document at the docs throttle, a month', (s) => month(s.docsThrottlingRateLimit, documentBytes)],
    ['one source address at its WAF limit, a month', (_, c) => month(c.webAcl.docsPerIpPerMinute / WAF_WINDOW_SECONDS, largest)],
  ]);
}

/** docs/operators.md: every setting a stage takes, its value in cdk.json per stage, and what it does. */
export function stageSettingsTable(): string {
  const stages = (cdkJsonContext()[STAGES_CONTEXT_KEY] ?? {}) as Record<string, Record<string, unknown>>;
  const value = (v: unknown) => (v === undefined ? '—' : `\`${Array.isArray(v) ? v.join(',') || '[]' : String(v)}\``);
  const rows = STAGE_SETTING_KEYS.map((key) => [
    `\`${key}\``,
    ...STAGE_NAMES.map((stage) => value(stages[stage]?.[key])),
    settingDescription(key),
  ]);
  return table(['key', ...STAGE_NAMES.map((s) => `${s} (cdk.json)`), 'effect'], rows, ['l', ...STAGE_NAMES.map(() => 'l' as const), 'l']);
}
