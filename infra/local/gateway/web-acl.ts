/**
 * The rate-based rules of a web ACL on the stage, from the template: each rule counts requests per
 * aggregation key (the source IP, or a header's value; a request without the header is not counted
 * by that rule) over its window, and answers with its Block response once a key is over the limit.
 * The count is a sliding window estimated from the current and the previous fixed window, which
 * weighs recent requests more, as WAF's estimate does. Unlike WAF, which detects a rate with a
 * delay (usually under 30 s) and only near the limit, this blocks the first request over it.
 */
import type { RateRule, WebAclDefinition } from './template.ts';

interface Counter {
  /** Start of the current fixed window, in ms. */
  start: number;
  current: number;
  previous: number;
}

/** Counters above this many per rule are swept of the ones idle for two windows. */
const SWEEP_AT = 10_000;

export interface RateLimitedRequest {
  readonly sourceIp: string;
  /** The request's header value by name (any case); undefined when absent. */
  readonly header: (name: string) => string | undefined;
}

export class WebAclRateRules {
  readonly #rules: readonly { readonly rule: RateRule; readonly counters: Map<string, Counter> }[];
  readonly #now: () => number;

  constructor(definition: WebAclDefinition, now: () => number = () => performance.now()) {
    this.#rules = definition.rules.map((rule) => ({ rule, counters: new Map() }));
    this.#now = now;
  }

  /**
   * Counts the request under each rule in priority order; the Block response of the first rule it
   * is over, which ends the evaluation as a terminating action does in WAF. Undefined: allowed.
   */
  check(request: RateLimitedRequest): RateRule['response'] | undefined {
    const now = this.#now();
    for (const { rule, counters } of this.#rules) {
      const key = 'ip' in rule.key ? request.sourceIp : request.header(rule.key.header);
      if (key === undefined) continue;
      const windowMs = rule.windowSeconds * 1000;
      let counter = counters.get(key);
      if (!counter) {
        if (counters.size >= SWEEP_AT) sweep(counters, now, windowMs);
        counter = { start: now, current: 0, previous: 0 };
        counters.set(key, counter);
      }
      const elapsed = Math.floor((now - counter.start) / windowMs);
      if (elapsed > 0) {
        counter.previous = elapsed === 1 ? counter.current : 0;
        counter.current = 0;
        counter.start += elapsed * windowMs;
      }
      counter.current += 1;
      const estimate = counter.previous * (1 - (now - counter.start) / windowMs) + counter.current;
      if (estimate > rule.limit) return rule.response;
    }
    return undefined;
  }
}

function sweep(counters: Map<string, Counter>, now: number, windowMs: number): void {
  for (const [key, counter] of counters) if (now - counter.start >= 2 * windowMs) counters.delete(key);
}
