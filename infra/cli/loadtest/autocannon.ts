/**
 * autocannon 9 with types. It is CommonJS without type declarations; this file states the part of
 * its API the load test and the benchmark use (see node_modules/autocannon/README.md).
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';

/** A request as autocannon builds it; `setupRequest` may rewrite it before each send. */
export interface AutocannonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Called before every request of a connection. `context` lives from this call to the request's
   * `onResponse` (autocannon resets it after each request when `requests` has one entry).
   */
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  /** Called with every HTTP response (any status); not called for network errors and timeouts. */
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
}

export interface AutocannonOptions {
  /** Origin (and default path) of the target: `http://127.0.0.1:3000/v1/pets`. */
  url: string;
  connections?: number;
  /** Seconds. */
  duration?: number;
  /** Seconds before a request counts as timed out. */
  timeout?: number;
  /** Requests per second across all connections (0: as fast as possible). */
  overallRate?: number;
  method?: AutocannonRequest['method'];
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}

/** autocannon's summary of a histogram (latency in ms, requests per second, bytes per second). */
export interface HistogramSummary {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  /** For `requests`: the responses of the run; for `throughput`: its bytes. */
  total: number;
}

export interface AutocannonResult {
  latency: HistogramSummary;
  requests: HistogramSummary;
  throughput: HistogramSummary;
  /** Network errors and timeouts together. */
  errors: number;
  timeouts: number;
  non2xx: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats: Record<string, { count: number }>;
  /** Seconds. */
  duration: number;
}

/**
 * Events: `response` (client, statusCode, bytes, responseTimeMs — a float, from hrtime),
 * `reqError` (error), `tick` (once a second), `done` (result).
 */
export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
  /** Ends the run early; the promise then resolves with what was measured so far. */
  stop(): void;
}

// The one call we make of the CommonJS module: start a run, get an event emitter that is also a promise.
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => AutocannonInstance;
