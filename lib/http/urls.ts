import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './request-headers.ts';

/** The stage path prefix every base address ends with (the major version of the interface). */
export const API_BASE_PATH = '/v1';

/**
 * The absolute URL of `path` (a resource path such as `/v1/pets`) as the client addresses this
 * API, from what the gateway asserts, never from what the client sent: the host is
 * `requestContext.domainName` (the execute-api host or the custom domain the request came in
 * on; a client's `Host` or `X-Forwarded-Host` plays no part), the prefix before the resource is
 * what the gateway's `requestContext.path` has beyond `path` (`/<stage>` on the execute-api host,
 * nothing behind a custom domain's root mapping or in local mode), and the scheme is `https`
 * unless the gateway says `http` (local mode) in `X-Forwarded-Proto`. Anything else there, such as
 * `javascript:` or text meant to end the URL early, is ignored.
 */
export function absoluteUrl(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'path' | 'requestContext'>,
  path: string,
  query?: URLSearchParams,
): string {
  const requestPath = event.requestContext?.path ?? event.path;
  const prefix = requestPath.endsWith(event.path) ? requestPath.slice(0, requestPath.length - event.path.length) : '';
  const host = event.requestContext?.domainName;
  const scheme = header(event.headers, 'x-forwarded-proto')?.trim().toLowerCase() === 'http' ? 'http' : 'https';
  const search = query && query.size > 0 ? `?${query}` : '';
  return `${host ? `${scheme}://${host}` : ''}${prefix}${path}${search}`;
}
