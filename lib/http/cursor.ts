/** Bound to its status filter by a checksum, so an edited cursor is a 400 before the store. */
import { hash } from 'node:crypto';
import { PET_STATUSES, type PetStatus } from '../domain/pet.ts';
import { HttpError } from './errors.ts';

const VERSION = 1;

interface CursorPayload {
  readonly v: number;
  readonly s: PetStatus | null;
  readonly a: number;
}

// 9 bytes: 12 whole base64url characters.
const checksum = (payload: string): string => hash('sha256', `petstore-cursor:${payload}`, 'base64url').slice(0, 12);

export function encodeCursor(status: PetStatus | undefined, afterId: number): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, s: status ?? null, a: afterId })).toString('base64url');
  return `${payload}.${checksum(payload)}`;
}

export function decodeCursor(cursor: string, status: PetStatus | undefined): number {
  const [payload = '', sum, ...rest] = cursor.split('.');
  if (sum === undefined || rest.length > 0 || sum !== checksum(payload)) {
    throw invalid('it is damaged or was not issued by this service');
  }
  let data: Partial<CursorPayload>;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw invalid('it is damaged or was not issued by this service');
  }
  const valid =
    typeof data === 'object' &&
    data !== null &&
    data.v === VERSION &&
    (data.s === null || PET_STATUSES.includes(data.s as PetStatus)) &&
    Number.isSafeInteger(data.a) &&
    (data.a as number) > 0;
  if (!valid) throw invalid('it is damaged or was not issued by this service');
  if (data.s !== (status ?? null)) {
    throw invalid(
      `it belongs to ${data.s === null ? 'the unfiltered list' : `status=${data.s}`}, not to this request's ${status === undefined ? 'unfiltered list' : `status=${status}`}`,
    );
  }
  return data.a as number;
}

function invalid(why: string): HttpError {
  return new HttpError(
    'invalid_cursor',
    `Invalid query parameter: cursor is not valid (${why}). Start again without a cursor, and follow the Link header with rel="next".`,
  );
}
