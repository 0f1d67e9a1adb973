import type { APIGatewayProxyEvent } from 'aws-lambda';
import { integerText } from '../domain/requests.ts';
import { HttpError } from './errors.ts';

/** One value per name: a repeated parameter is refused rather than resolved to its first or last value. */
export function queryParameters(
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
  integers: readonly string[] = [],
): Record<string, string | number> {
  const multi = event.multiValueQueryStringParameters ?? {};
  const entries = Object.entries(event.queryStringParameters ?? {}).map(([name, value]): [string, string | number] => {
    const count = Object.hasOwn(multi, name) ? (multi[name]?.length ?? 1) : 1;
    if (count > 1) {
      throw new HttpError('validation_failed', `Invalid query parameter: ${name} is given ${count} times; give it at most once.`);
    }
    const text = value ?? '';
    return [name, integers.includes(name) ? integerText(text) : text];
  });
  // fromEntries defines own properties: `__proto__` stays data and is refused as unknown.
  return Object.fromEntries(entries);
}
