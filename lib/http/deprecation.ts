// `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a successor `Link`, on every answer errors included.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ApiResult } from './response.ts';
import { API_BASE_PATH, absoluteUrl } from './urls.ts';

/** RFC 9745 date of deprecation, `@<epoch seconds>`: 2026-01-01, the API's first release. */
export const DEPRECATED_SINCE = '@1767225600';

/** `headers` and the deprecation headers, given the successor's absolute URL; the web ACL's 401 for the operation carries them too. */
export function deprecationHeaders(options: { sunset: string }, successorUrl: string, headers: Record<string, string> = {}) {
  return { ...headers, Deprecation: DEPRECATED_SINCE, Sunset: options.sunset, Link: `<${successorUrl}>; rel="successor-version"` };
}

export function deprecation(options: { sunset: string; successor: string }): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const mark = (request: Request<APIGatewayProxyEvent, ApiResult>): void => {
    if (!request.response) return;
    const successorUrl = absoluteUrl(request.event, API_BASE_PATH + options.successor);
    request.response.headers = deprecationHeaders(options, successorUrl, request.response.headers);
  };
  return { after: mark, onError: mark };
}
