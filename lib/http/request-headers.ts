/** Reading a request's headers as API Gateway passes them: case-insensitively, and every value of a repeated one. */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** The headers of a request as API Gateway gives them: the last value of each, and all of them. */
export type RequestHeaders = Pick<APIGatewayProxyEvent, 'headers'> & Partial<Pick<APIGatewayProxyEvent, 'multiValueHeaders'>>;

/**
 * Every value a request sent for a header, whatever the casing of each line. `headers` alone keeps
 * only the last, so a header that must not be ambiguous (credentials) is checked with this.
 */
export function headerValues(event: RequestHeaders, name: string): string[] {
  if (!event.multiValueHeaders) {
    const value = header(event.headers, name);
    return value === undefined ? [] : [value];
  }
  const wanted = name.toLowerCase();
  const found: string[] = [];
  for (const key in event.multiValueHeaders) {
    if (key.length === wanted.length && Object.hasOwn(event.multiValueHeaders, key) && key.toLowerCase() === wanted)
      found.push(...(event.multiValueHeaders[key] ?? []));
  }
  return found;
}

/**
 * Reads a header case-insensitively, as HTTP requires (API Gateway keeps the client's casing).
 * Several lookups a request: a `for…in` over the names allocates nothing, where Object.entries would,
 * and only a name of the wanted length is lowercased; like Object.entries, it reads own names only.
 */
export function header(headers: Record<string, string | undefined> | null, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const key in headers) {
    if (key.length === wanted.length && Object.hasOwn(headers, key) && key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}
