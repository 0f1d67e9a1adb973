/** Reading a request's headers as API Gateway passes them: case-insensitively, and every value of a repeated one. */
import type { APIGatewayProxyEvent } from 'aws-lambda';

export type RequestHeaders = Pick<APIGatewayProxyEvent, 'headers'> & Partial<Pick<APIGatewayProxyEvent, 'multiValueHeaders'>>;

// For headers that must not be ambiguous (credentials): `headers` keeps only the last value.
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

// Case-insensitive; `for…in` allocates nothing where Object.entries would (several lookups a request).
export function header<V = string | undefined>(headers: Readonly<Record<string, V>> | null, name: string): V | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const key in headers) {
    if (key.length === wanted.length && Object.hasOwn(headers, key) && key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}
