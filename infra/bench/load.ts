/**
 * One measurement with autocannon: a fixed number of connections for a fixed time after a short warm-up, against the local API or the
 * baseline, with the CPU time the server and the store spent per request.
 */
import type { Request as AutocannonRequest } from 'autocannon';
import { startAutocannon } from '../cli/loadtest/autocannon.ts';
import type { WorkerProcess } from './child.ts';
import { requestFor, requestHeaders, type Scenario } from './scenarios.ts';
import { Latencies } from '../cli/loadtest/latency.ts';

export interface LoadSettings {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
}

export interface LoadResult {
  /** Mean requests per second over the run's one-second samples. */
  readonly rps: number;
  /** Each round's `rps`, in order (one entry for a single measurement). */
  readonly roundsRps: readonly number[];
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU milliseconds per request of the server process and of the store process. */
  readonly serverCpuMs: number;
  readonly storeCpuMs: number;
  /** Every response time (ms), for merging rounds. */
  readonly latencies: Latencies;
}

/** Several rounds of the same measurement as one: mean throughput, percentiles of all responses. */
export function mergeLoads(rounds: readonly LoadResult[]): LoadResult {
  const latencies = Latencies.merge(rounds.map((r) => r.latencies));
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const weighted = (key: 'serverCpuMs' | 'storeCpuMs') => rounds.reduce((sum, r) => sum + r[key] * r.requests, 0) / Math.max(requests, 1);
  return {
    rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
    roundsRps: rounds.flatMap((r) => r.roundsRps),
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    requests,
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    serverCpuMs: weighted('serverCpuMs'),
    storeCpuMs: weighted('storeCpuMs'),
    latencies,
  };
}

export interface LoadTarget {
  /** Base URL ending in /v1. */
  readonly url: string;
  readonly server: WorkerProcess;
  readonly store: WorkerProcess;
}

export async function measureLoad(
  target: LoadTarget,
  scenario: Scenario,
  context: { ids: readonly number[]; apiKey: string },
  settings: LoadSettings,
): Promise<LoadResult> {
  const basePath = new URL(target.url).pathname;
  let n = 0;
  const request: AutocannonRequest = {
    setupRequest: (req) => {
      const spec = requestFor(scenario, context.ids, ++n);
      return {
        ...req,
        method: spec.method,
        path: `${basePath}${spec.path}`,
        headers: requestHeaders(context.apiKey, spec),
        body: spec.body,
      };
    },
  };
  const run = (duration: number) => startAutocannon({ url: target.url, connections: settings.connections, duration, requests: [request] });

  if (settings.warmupSeconds > 0) await run(settings.warmupSeconds).result;
  const [serverBefore, storeBefore] = await Promise.all([target.server.cpuMs(), target.store.cpuMs()]);
  const { instance, result: done } = run(settings.durationSeconds);
  // autocannon's own percentiles are whole milliseconds; its response event has the exact time.
  const latencies = new Latencies();
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => {
    latencies.record(responseTimeMs);
  });
  const result = await done;
  const [serverAfter, storeAfter] = await Promise.all([target.server.cpuMs(), target.store.cpuMs()]);
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    roundsRps: [result.requests.average],
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    requests,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuMs: (serverAfter - serverBefore) / Math.max(requests, 1),
    storeCpuMs: (storeAfter - storeBefore) / Math.max(requests, 1),
    latencies,
  };
}
