import type { APIGatewayProxyResult } from 'aws-lambda';
import type { HttpError } from './errors.ts';

export type ApiResult = APIGatewayProxyResult & { headers: Record<string, string> };

export const JSON_CONTENT_TYPE = 'application/json';

/** On every answer of an operation and every error, whoever makes it (a function or the gateway). */
export const COMMON_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

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
