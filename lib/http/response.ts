import type { APIGatewayProxyResult } from 'aws-lambda';
import type { HttpError } from './errors.ts';

export type ApiResult = APIGatewayProxyResult & { headers: Record<string, string> };

export const JSON_CONTENT_TYPE = 'application/json';

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

/** Reads a header case-insensitively, as HTTP requires (API Gateway keeps the client's casing). */
export function header(headers: Record<string, string | undefined> | null, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
