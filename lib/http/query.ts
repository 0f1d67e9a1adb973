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
  const multi = event.multiValueQueryStringParameters ?? {};
  const entries = Object.entries(event.queryStringParameters ?? {}).map(([name, value]): [string, string | number] => {
    const count = Object.hasOwn(multi, name) ? (multi[name]?.length ?? 1) : 1;
    if (count > 1) {
      throw new HttpError('validation_failed', `Invalid query parameter: ${name} is given ${count} times; give it at most once.`);
    }
    const text = value ?? '';
    return [name, integers.includes(name) ? integerText(text) : text];
  });
  // fromEntries defines own properties, so a parameter named `__proto__` stays data and is refused
  // as unknown, instead of being assigned as the object's prototype.
  return Object.fromEntries(entries);
}
