import type { APIGatewayProxyEvent } from 'aws-lambda';
import { integerText } from '../domain/requests.ts';
import { HttpError } from './errors.ts';

/**
 * The query string as one value per name, for schemas to validate. A parameter given more than
 * once is refused rather than silently resolved to its first or last value. Names listed in
 * `integers` are converted from canonical decimal text to numbers.
 */
export function queryParameters(
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
  integers: readonly string[] = [],
): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    const count = multi[name]?.length ?? 1;
    if (count > 1) {
      throw new HttpError('validation_failed', `Invalid query parameter: ${name} is given ${count} times; give it at most once.`);
    }
    const text = value ?? '';
    result[name] = integers.includes(name) ? integerText(text) : text;
  }
  return result;
}
