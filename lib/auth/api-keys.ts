// `psk_` + 32 base64url characters (192 bits). Only the key's SHA-256 hash is stored; the key is shown once.
import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'psk_';
/** A key's whole format: the service's shape check, and the web ACL's (infra/cdk/constructs/web-acl.ts). */
export const API_KEY_PATTERN = /^psk_[A-Za-z0-9_-]{32}$/;

export interface ApiKeyRecord {
  readonly keyHash: string;
  readonly keyId: string;
  readonly label: string;
  readonly createdAt: string;
  readonly expiresAt?: string;
  readonly revokedAt?: string;
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function isWellFormedApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

/** Every request hashes its key: the one-shot `hash` skips building a Hash object for it. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyIdFromHash(keyHash: string): string {
  return `key_${keyHash.slice(0, 16)}`;
}

export function newApiKeyRecord(key: string, label: string, options: { now?: Date; expiresAt?: Date } = {}): ApiKeyRecord {
  const keyHash = hashApiKey(key);
  return {
    keyHash,
    keyId: keyIdFromHash(keyHash),
    label,
    createdAt: (options.now ?? new Date()).toISOString(),
    ...(options.expiresAt ? { expiresAt: options.expiresAt.toISOString() } : {}),
  };
}

export function isUsable(record: ApiKeyRecord, now: Date = new Date()): boolean {
  if (record.revokedAt) return false;
  return record.expiresAt === undefined || Date.parse(record.expiresAt) > now.getTime();
}

// Ten years: longer is a typo, and past about 275,000 years the expiry is no valid date.
export const MAX_KEY_LIFETIME_DAYS = 3650;

/** `30d`, `12h`, `90m` or `45s` in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) throw new Error(`Invalid duration "${text}": use a whole number followed by s, m, h or d, e.g. 30d`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw new Error(`Invalid duration "${text}": it must be longer than zero`);
  if (ms > MAX_KEY_LIFETIME_DAYS * 86_400_000) {
    throw new Error(`Invalid duration "${text}": it must be at most ${MAX_KEY_LIFETIME_DAYS}d (ten years)`);
  }
  return ms;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A label is one line of text for `keys list`: non-empty, at most 100 characters, no control characters. */
export function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length === 0) throw new Error('the label is empty: give a name that tells this key apart');
  if (trimmed.length > 100) throw new Error(`the label has ${trimmed.length} characters; at most 100`);
  if (escapeControlCharacters(trimmed) !== trimmed)
    throw new Error('the label contains a control character (a newline, tab or similar); use one line of plain text');
  return trimmed;
}
