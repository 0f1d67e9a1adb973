/**
 * Worker: invokes the bundled handlers (the very files Lambda would load) in process, one invocation at a time, and measures each one's
 * duration: what Lambda bills, less the platform's own overhead and with the local store's latency instead of DynamoDB's.
 */
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { Latencies } from '../../cli/loadtest/latency.ts';
import { lambdaContext, proxyEvent, requestFor, SCENARIOS } from '../scenarios.ts';
import { serve } from './rpc.ts';

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyResult>;

export interface HandlerTiming {
  /** A scenario's id (infra/bench/scenarios.ts). */
  readonly scenario: string;
  readonly invocations: number;
  readonly medianMs: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  /** Process CPU time (user + system) per invocation: the work, without waiting for the store. */
  readonly cpuMs: number;
  /** Mean of ceil(duration): Lambda bills whole milliseconds. */
  readonly billedMeanMs: number;
  readonly logBytesPerInvocation: number;
  readonly logLinesPerInvocation: number;
  readonly statuses: Record<string, number>;
}

let logBytes = 0;
let logLines = 0;
// The handlers log with process.stdout.write: count what they write instead of writing it.
process.stdout.write = ((chunk: string | Uint8Array) => {
  logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  logLines += 1;
  return true;
}) as typeof process.stdout.write;

serve({
  run: async (request) => {
    const { bundles, apiKey, ids, warmup, iterations, rounds } = request as unknown as {
      bundles: Record<string, string>;
      apiKey: string;
      ids: number[];
      warmup: number;
      iterations: number;
      rounds: number;
    };
    let n = 0;
    const cases = await Promise.all(
      SCENARIOS.map(async (scenario) => {
        const { functionId } = scenario.operation;
        const { handler } = (await import(pathToFileURL(bundles[functionId] as string).href)) as { handler: Handler };
        const invoke = async () => {
          const requestId = `bench-${++n}`;
          const event = proxyEvent(requestFor(scenario, ids, n), apiKey, requestId);
          const started = performance.now();
          const result = await handler(event, lambdaContext(functionId, requestId));
          return { ms: performance.now() - started, status: result.statusCode };
        };
        return { scenario, invoke, durations: [] as number[], cpuUs: 0, logBytes: 0, logLines: 0, statuses: {} as Record<string, number> };
      }),
    );
    for (const { invoke } of cases) for (let i = 0; i < warmup; i++) await invoke();
    // The cases take turns, a share of the iterations at a time, the order reversed every round:
    // a machine whose speed drifts slows them all alike.
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
        logBytes = 0;
        logLines = 0;
        const cpuBefore = process.cpuUsage();
        for (let i = 0; i < iterations / rounds; i++) {
          const { ms, status } = await c.invoke();
          c.durations.push(ms);
          c.statuses[status] = (c.statuses[status] ?? 0) + 1;
        }
        const cpu = process.cpuUsage(cpuBefore);
        c.cpuUs += cpu.user + cpu.system;
        c.logBytes += logBytes;
        c.logLines += logLines;
      }
    }
    return cases.map(({ scenario, durations, statuses, cpuUs, logBytes: bytes, logLines: lines }): HandlerTiming => {
      const count = durations.length;
      const latencies = new Latencies();
      for (const ms of durations) latencies.record(ms);
      return {
        scenario: scenario.id,
        invocations: count,
        medianMs: latencies.percentile(50),
        meanMs: durations.reduce((a, b) => a + b, 0) / count,
        p99Ms: latencies.percentile(99),
        cpuMs: cpuUs / 1000 / count,
        billedMeanMs: durations.reduce((a, b) => a + Math.ceil(b), 0) / count,
        logBytesPerInvocation: bytes / count,
        logLinesPerInvocation: lines / count,
        statuses,
      };
    });
  },
});
