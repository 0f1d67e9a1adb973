import { IdempotencyKeyHeader } from '../domain/requests.ts';
import { HttpError } from './errors.ts';
import { headerValues, type RequestHeaders } from './request-headers.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The key of the optional `Idempotency-Key` header (the rule: `IdempotencyKeyHeader`), unquoted. */
export function idempotencyKey(event: RequestHeaders): string | undefined {
  const values = headerValues(event, IDEMPOTENCY_KEY_HEADER);
  if (values.length > 1) {
    throw new HttpError('validation_failed', `${values.length} Idempotency-Key headers: send at most one.`);
  }
  const raw = values[0]?.trim();
  if (raw === undefined) return undefined;
  const checked = IdempotencyKeyHeader.safeParse(raw);
  if (!checked.success) {
    throw new HttpError('validation_failed', `Invalid Idempotency-Key header: ${checked.error.issues[0]?.message ?? 'malformed'}.`);
  }
  return raw.startsWith('"') ? raw.slice(1, -1) : raw;
}
