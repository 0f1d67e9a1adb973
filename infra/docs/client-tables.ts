/**
 * The tables a client developer reads: every error with whether to retry it (README.md), the retry
 * contract whole (docs/clients.md), and each stage's per-client limits, from the capacity model.
 */
import { ERRORS } from '#lib/http/errors.ts';
import { RETRY_CONTRACT } from '../openapi/contract.ts';
import { fmt, stageCapacity, WAF_WINDOW_SECONDS } from '../cdk/capacity.ts';
import { readStageSettings, STAGE_NAMES } from '../cdk/stages.ts';
import { table } from './stage-tables.ts';

/** README.md: every error code, what it means, and the retry contract's word on its status. */
export function errorTable(): string {
  const rows = Object.entries(ERRORS).map(([code, { status, meaning }]) => {
    const rules = RETRY_CONTRACT.filter((rule) => rule.statuses.includes(status));
    const retry = rules[0]?.retry.map((answer) => answer.split(/[,:]/)[0]).join(' / ') ?? '—';
    return [String(status), `\`${code}\``, meaning, retry, [...new Set(rules.map((rule) => rule.wait))].join('; ')];
  });
  const header = ['status', '`code`', 'when', 'retry: read / keyed create / unkeyed create', 'wait'];
  return table(header, rows, ['r', 'l', 'l', 'l', 'l']);
}

/** docs/clients.md: the retry contract, one row per status and who answers it. */
export function retryTable(): string {
  const rows = RETRY_CONTRACT.map((r) => [r.statuses.join(', '), r.who, ...r.retry, r.wait]);
  return table(['status', 'who answers', 'read', 'create with `Idempotency-Key`', 'create without', 'wait'], rows, Array(6).fill('l'));
}

/** README.md and docs/clients.md: each stage's per-client limits, as `RateLimit-Policy` states them. */
export function clientLimitsTable(): string {
  const rows = STAGE_NAMES.map((stage) => {
    const settings = readStageSettings(stage, () => undefined);
    const { webAcl, apiThrottle: api } = stageCapacity(settings);
    const minute = (n: number) => (settings.webAcl ? `${fmt(n)} a minute` : '— (no web ACL)');
    return [
      stage,
      minute(webAcl.perKeyPerMinute),
      minute(webAcl.perIpPerMinute),
      `${fmt(api.rateLimit)} a second, ${fmt(api.burstLimit)} at once`,
    ];
  });
  const header = [
    'stage',
    `per API key (\`"per-key"\`, ${WAF_WINDOW_SECONDS} s)`,
    '`"per-address"`',
    "each operation's throttle, shared by every client",
  ];
  return table(header, rows, ['l', 'r', 'r', 'r']);
}
