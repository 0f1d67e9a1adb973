import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './request-headers.ts';

/** The stage path prefix every base address ends with (the major version of the interface). */
export const API_BASE_PATH = '/v1';

/**
 * From what the gateway asserts, never the client's Host: `requestContext.domainName`, the prefix its
 * `path` has beyond `path`, and `https` unless `X-Forwarded-Proto` says `http` (local mode).
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
