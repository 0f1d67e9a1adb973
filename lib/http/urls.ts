import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './response.ts';

/**
 * The absolute URL of `path` (a resource path such as `/v1/pets`) as the client addresses this
 * API: same scheme and host, and the same prefix before the resource, which is `/<stage>` on the
 * default execute-api host and empty behind a custom domain or in local mode.
 */
export function absoluteUrl(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'path' | 'requestContext'>,
  path: string,
  query?: URLSearchParams,
): string {
  const requestPath = event.requestContext?.path ?? event.path;
  const prefix = requestPath.endsWith(event.path) ? requestPath.slice(0, requestPath.length - event.path.length) : '';
  const host = header(event.headers, 'host');
  const scheme = header(event.headers, 'x-forwarded-proto') ?? 'https';
  const search = query && query.size > 0 ? `?${query}` : '';
  return `${host ? `${scheme}://${host}` : ''}${prefix}${path}${search}`;
}
