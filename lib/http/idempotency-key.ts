import { HttpError } from './errors.ts';
import { headerValues, type RequestHeaders } from './response.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const VALID = /^[\x21-\x7e]{1,255}$/;

/**
 * The optional `Idempotency-Key` request header: 1 to 255 visible ASCII characters, either bare
 * (as most clients send it) or as a quoted structured-field string (the IETF draft's form).
 */
export function idempotencyKey(event: RequestHeaders): string | undefined {
  const values = headerValues(event, IDEMPOTENCY_KEY_HEADER);
  if (values.length > 1) {
    throw new HttpError('validation_failed', `${values.length} Idempotency-Key headers: send at most one.`);
  }
  const raw = values[0]?.trim();
  if (raw === undefined) return undefined;
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!VALID.test(value)) {
    throw new HttpError('validation_failed', 'Invalid Idempotency-Key header: use 1 to 255 visible ASCII characters, such as a UUID.');
  }
  return value;
}
