// A token bucket per method from `MethodSettings`; approximate, as API Gateway's own limits are best-effort.
import type { ThrottleSetting } from './template.ts';

interface Bucket {
  tokens: number;
  updatedAt: number;
  readonly rate: number;
  readonly burst: number;
}

export class MethodThrottle {
  readonly #settings: readonly ThrottleSetting[];
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;

  constructor(settings: readonly ThrottleSetting[], now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
  }

  tryAcquire(resourcePath: string, httpMethod: string): boolean {
    const key = `${httpMethod} ${resourcePath}`;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      const setting = throttleFor(this.#settings, resourcePath, httpMethod);
      if (!setting) return true;
      bucket = { tokens: setting.burstLimit, updatedAt: this.#now(), rate: setting.rateLimit, burst: setting.burstLimit };
      this.#buckets.set(key, bucket);
    }
    const now = this.#now();
    bucket.tokens = Math.min(bucket.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * bucket.rate);
    bucket.updatedAt = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** The setting of a method: the most specific one (resource and method, then either, then the stage default). */
export function throttleFor(settings: readonly ThrottleSetting[], resourcePath: string, httpMethod: string): ThrottleSetting | undefined {
  const escaped = resourcePath.replace(/\//g, '~1');
  const matches = (s: ThrottleSetting) =>
    (s.resourcePath === '/*' || s.resourcePath === `/${escaped}`) && (s.httpMethod === '*' || s.httpMethod === httpMethod);
  const specificity = (s: ThrottleSetting) => (s.resourcePath === '/*' ? 0 : 2) + (s.httpMethod === '*' ? 0 : 1);
  return settings.filter(matches).sort((a, b) => specificity(b) - specificity(a))[0];
}
