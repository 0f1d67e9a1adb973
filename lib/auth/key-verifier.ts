// Cached for at most `cacheMs` (≤ 60 s): a revoked or expired key stops working within that time.
import { type ApiKeyRecord, hashApiKey, isUsable, isWellFormedApiKey } from './api-keys.ts';

export interface ApiKeyLookup {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
}

interface CacheEntry {
  readonly record: ApiKeyRecord | undefined;
  readonly expires: number;
}

/** Bounds memory, for known keys and for unknown ones each, when a client sprays random well-formed keys at us. */
export const MAX_CACHE_ENTRIES = 1_000;

export class KeyVerifier {
  readonly #lookup: ApiKeyLookup;
  readonly #cacheMs: number;
  readonly #now: () => number;
  readonly #known = new Map<string, CacheEntry>();
  /** Keys the store does not hold, kept apart: made-up keys evict only each other, never a real key. */
  readonly #unknown = new Map<string, CacheEntry>();

  constructor(lookup: ApiKeyLookup, options: { cacheMs: number; now?: () => number }) {
    this.#lookup = lookup;
    this.#cacheMs = options.cacheMs;
    this.#now = options.now ?? Date.now;
  }

  async verify(token: string): Promise<ApiKeyRecord | undefined> {
    if (!isWellFormedApiKey(token)) return undefined;
    const keyHash = hashApiKey(token);
    const now = this.#now();
    let entry = this.#known.get(keyHash) ?? this.#unknown.get(keyHash);
    if (!entry || entry.expires <= now) {
      entry = { record: await this.#lookup.findByHash(keyHash), expires: now + this.#cacheMs };
      this.#known.delete(keyHash);
      this.#unknown.delete(keyHash);
      remember(entry.record ? this.#known : this.#unknown, keyHash, entry);
    }
    return entry.record !== undefined && isUsable(entry.record, new Date(now)) ? entry.record : undefined;
  }
}

function remember(cache: Map<string, CacheEntry>, keyHash: string, entry: CacheEntry): void {
  if (cache.size >= MAX_CACHE_ENTRIES) {
    // Maps iterate in insertion order: the first key is the least recently refreshed.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(keyHash, entry);
}
