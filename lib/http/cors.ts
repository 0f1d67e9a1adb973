// docs/cors.md. `Vary: Origin` once CORS is on, so a cache never hands one origin's answer to another.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './request-headers.ts';
import type { ApiResult } from './response.ts';

export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
/** Response headers a page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = 'Location, Link, X-Request-Id, Idempotent-Replayed, Retry-After, Deprecation, Sunset';
export const CORS_MAX_AGE_SECONDS = 600;

/** The CORS headers of an answer to a request from `origin`; none when CORS is off (no allowed origin). */
export function corsHeaders(origin: string | undefined, allowed: ReadonlySet<string>): Record<string, string> {
  if (allowed.size === 0) return {};
  if (origin === undefined || !allowed.has(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS, Vary: 'Origin' };
}

export function cors(allowedOrigins: () => ReadonlySet<string>): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const mark = (request: Request<APIGatewayProxyEvent, ApiResult>): void => {
    const allowed = allowedOrigins();
    // CORS off (the default): no header lookup and no copy of the headers on the hot path.
    if (!request.response || allowed.size === 0) return;
    request.response.headers = { ...request.response.headers, ...corsHeaders(header(request.event.headers, 'origin'), allowed) };
  };
  return { after: mark, onError: mark };
}
