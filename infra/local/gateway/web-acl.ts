/**
 * A web ACL on the stage, from the template, as docs/local-mode.md ("The web ACL") describes it:
 * the first rule that blocks answers with its Block response.
 */
import { isIPv6 } from 'node:net';
import type { InspectedField, TextTransformation, WafStatement, WebAclDefinition, WebAclRule } from './template.ts';

interface Counter {
  /** Start of the current fixed window, in ms. */
  start: number;
  current: number;
  previous: number;
}

/** Counters above this many per rule are swept of the ones idle for two windows. */
const SWEEP_AT = 10_000;

export interface InspectedRequest {
  readonly sourceIp: string;
  readonly method: string;
  /** The path as the client sent it, without the query string. */
  readonly uriPath: string;
  /** The request's header value by name (any case); undefined when absent. */
  readonly header: (name: string) => string | undefined;
  /** The body's size: its Content-Length, or the bytes of a chunked body read (0 without a body). */
  readonly bodyBytes?: number;
}

/**
 * The transformations AWS WAF documents (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-transformation.html),
 * on the value as bytes (header values arrive as latin1, one character a byte).
 */
const TRANSFORM: Readonly<Record<TextTransformation, (text: string) => string>> = {
  NONE: (text) => text,
  // A-Z only.
  LOWERCASE: (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase()),
  // \f, \t, \n, \r, \v and the no-break space (decimal 160) become a space; then runs of spaces one.
  COMPRESS_WHITE_SPACE: (text) => text.replace(/[\f\t\n\r\v\u00a0]/g, ' ').replace(/ {2,}/g, ' '),
  // %XX to its byte; a `%` not followed by two hex digits stays; `+` stays (a path's `+` is literal).
  URL_DECODE: (text) => text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  // Repeated slashes, `.` parts and `..` parts with a part before them to undo go; a leading `..` stays.
  NORMALIZE_PATH: (text) => {
    const parts = text.split('/');
    const kept: string[] = [];
    parts.forEach((part, i) => {
      const before = kept.at(-1);
      if (part === '.' || (part === '' && i > 0 && i < parts.length - 1)) return;
      if (part === '..' && before !== undefined && before !== '' && before !== '..') kept.pop();
      else kept.push(part);
    });
    return kept.join('/');
  },
};

function transform(text: string, transformations: readonly TextTransformation[]): string {
  return transformations.reduce((value, type) => TRANSFORM[type](value), text);
}

function inspect({ field, transformations }: InspectedField, request: InspectedRequest): string | undefined {
  const value = 'uriPath' in field ? request.uriPath : 'method' in field ? request.method : request.header(field.header);
  return value === undefined ? undefined : transform(value, transformations);
}

export function matches(statement: WafStatement, request: InspectedRequest): boolean {
  if ('and' in statement) return statement.and.every((s) => matches(s, request));
  if ('or' in statement) return statement.or.some((s) => matches(s, request));
  if ('not' in statement) return !matches(statement.not, request);
  if ('bodyLargerThan' in statement) return (request.bodyBytes ?? 0) > statement.bodyLargerThan;
  if ('ipSet' in statement) return statement.ipSet.list.check(request.sourceIp, isIPv6(request.sourceIp) ? 'ipv6' : 'ipv4');
  if ('regexMatch' in statement) {
    const value = inspect(statement.regexMatch, request);
    return value !== undefined && statement.regexMatch.pattern.test(value);
  }
  const { constraint, search } = statement.byteMatch;
  const value = inspect(statement.byteMatch, request);
  if (value === undefined) return false;
  switch (constraint) {
    case 'EXACTLY':
      return value === search;
    case 'STARTS_WITH':
      return value.startsWith(search);
    case 'ENDS_WITH':
      return value.endsWith(search);
    case 'CONTAINS':
      return value.includes(search);
  }
}

export class LocalWebAcl {
  readonly #rules: readonly { readonly rule: WebAclRule; readonly counters: Map<string, Counter> }[];
  readonly #now: () => number;

  constructor(definition: WebAclDefinition, now: () => number = () => performance.now()) {
    this.#rules = definition.rules.map((rule) => ({ rule, counters: new Map() }));
    this.#now = now;
  }

  /** The Block response of the first rule that blocks the request; undefined: allowed. */
  check(request: InspectedRequest): WebAclRule['response'] | undefined {
    const now = this.#now();
    for (const { rule, counters } of this.#rules) {
      if ('match' in rule) {
        if (matches(rule.match, request)) return rule.response;
        continue;
      }
      const { key: by, limit, windowSeconds, scopeDown } = rule.rate;
      if (scopeDown && !matches(scopeDown, request)) continue;
      const key = 'ip' in by ? request.sourceIp : request.header(by.header);
      if (key === undefined) continue;
      const aggregate = 'ip' in by ? key : transform(key, by.transformations);
      const windowMs = windowSeconds * 1000;
      let counter = counters.get(aggregate);
      if (!counter) {
        if (counters.size >= SWEEP_AT) sweep(counters, now, windowMs);
        counter = { start: now, current: 0, previous: 0 };
        counters.set(aggregate, counter);
      }
      const elapsed = Math.floor((now - counter.start) / windowMs);
      if (elapsed > 0) {
        counter.previous = elapsed === 1 ? counter.current : 0;
        counter.current = 0;
        counter.start += elapsed * windowMs;
      }
      counter.current += 1;
      const estimate = counter.previous * (1 - (now - counter.start) / windowMs) + counter.current;
      if (estimate > limit) return rule.response;
    }
    return undefined;
  }
}

function sweep(counters: Map<string, Counter>, now: number, windowMs: number): void {
  for (const [key, counter] of counters) if (now - counter.start >= 2 * windowMs) counters.delete(key);
}
