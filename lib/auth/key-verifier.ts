/**
 * Decides whether a bearer token is a usable API key. Lookups are cached in memory for at most
 * `cacheMs` (≤ 60 s, see config.ts), so a warm function checks a busy key against DynamoDB about
 * once a minute and a revoked or expired key stops working within that time.
 */
import { type ApiKeyRecord, hashApiKey, isUsable, isWellFormedApiKey } from './api-keys.ts';

export interface ApiKeyLookup {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
}

interface CacheEntry {
  readonly record: ApiKeyRecord | undefined;
  readonly expires: number;
}

/** Bounds memory when a client sprays random well-formed keys at us. */
export const MAX_CACHE_ENTRIES = 1_000;

export class KeyVerifier {
  readonly #lookup: ApiKeyLookup;
  readonly #cacheMs: number;
  readonly #now: () => number;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(lookup: ApiKeyLookup, options: { cacheMs: number; now?: () => number }) {
    this.#lookup = lookup;
    this.#cacheMs = options.cacheMs;
    this.#now = options.now ?? Date.now;
  }

  /** The record of a known, unrevoked, unexpired key, else undefined. Store failures propagate. */
  async verify(token: string): Promise<ApiKeyRecord | undefined> {
    if (!isWellFormedApiKey(token)) return undefined;
    const keyHash = hashApiKey(token);
    const now = this.#now();
    let entry = this.#cache.get(keyHash);
    if (!entry || entry.expires <= now) {
      entry = { record: await this.#lookup.findByHash(keyHash), expires: now + this.#cacheMs };
      this.#remember(keyHash, entry);
    }
    return entry.record !== undefined && isUsable(entry.record, new Date(now)) ? entry.record : undefined;
  }

  #remember(keyHash: string, entry: CacheEntry): void {
    this.#cache.delete(keyHash);
    if (this.#cache.size >= MAX_CACHE_ENTRIES) {
      // Maps iterate in insertion order: the first key is the least recently refreshed.
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(keyHash, entry);
  }
}
