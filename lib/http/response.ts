import type { APIGatewayProxyResult } from 'aws-lambda';
import type { HttpError } from './errors.ts';

export type ApiResult = APIGatewayProxyResult & { headers: Record<string, string> };

export const JSON_CONTENT_TYPE = 'application/json';

/** On every answer of an operation and every error, whoever makes it (a function or the gateway). */
export const COMMON_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Accept-Encoding',
};

/**
 * The headers that tell a client a stage's per-client limits (its web ACL's): the IETF httpapi draft's `RateLimit-Policy` with both,
 * and `X-RateLimit-Limit`, the per-key one, which more tools read. Never a remaining count: WAF keeps that.
 */
export const rateLimitHeaders = (limits: { perKeyPerMinute: number; perIpPerMinute: number }, window: number) => ({
  'RateLimit-Policy': `"per-key";q=${limits.perKeyPerMinute};w=${window}, "per-address";q=${limits.perIpPerMinute};w=${window}`,
  'X-RateLimit-Limit': String(limits.perKeyPerMinute),
});

/** `headers`, then `more` over them, except `Vary`: the answer varies on the fields of both. */
export function withHeaders(headers: Readonly<Record<string, string>>, more: Readonly<Record<string, string>>): Record<string, string> {
  const merged = { ...headers, ...more };
  // Most answers bring at most one Vary list: then one spread, no parsing (a warm path of every function).
  if (headers.Vary && more.Vary) merged.Vary = [...new Set(`${headers.Vary},${more.Vary}`.split(/\s*,\s*/))].join(', ');
  return merged;
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResult(error: HttpError): ApiResult {
  return json(error.status, error.toBody(), { ...error.headers });
}
