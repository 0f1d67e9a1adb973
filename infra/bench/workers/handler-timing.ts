/**
 * Worker: invokes the bundled handlers (the very files Lambda would load) in process, one
 * invocation at a time, and measures each one's duration: what Lambda bills, less the platform's
 * own overhead and with the local store's latency instead of DynamoDB's. Also counts the bytes the
 * handlers log per invocation (CloudWatch Logs ingestion). The parent sets the environment.
 */
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { lambdaContext, proxyEvent, requestFor, type Scenario, SCENARIOS } from '../scenarios.ts';
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
    const bundles = request.bundles as Record<string, string>;
    const apiKey = request.apiKey as string;
    const ids = request.ids as number[];
    const warmup = request.warmup as number;
    const iterations = request.iterations as number;
    const handlers = new Map<string, Handler>();
    for (const [name, file] of Object.entries(bundles)) {
      handlers.set(name, ((await import(pathToFileURL(file).href)) as { handler: Handler }).handler);
    }
    const results: HandlerTiming[] = [];
    let n = 0;
    const rounds = request.rounds as number;
    const invokerOf = (scenario: Scenario) => {
      const { functionId } = scenario.operation;
      const handler = handlers.get(functionId);
      if (!handler) throw new Error(`no bundle for ${functionId}`);
      return async () => {
        const requestId = `bench-${++n}`;
        const event = proxyEvent(requestFor(scenario, ids, n), apiKey, requestId);
        const context = lambdaContext(functionId, requestId);
        const started = performance.now();
        const result = await handler(event, context);
        return { ms: performance.now() - started, status: result.statusCode };
      };
    };
    const totals = SCENARIOS.map((scenario) => ({
      scenario,
      invoke: invokerOf(scenario),
      durations: [] as number[],
      cpuUs: 0,
      logBytes: 0,
      logLines: 0,
      statuses: {} as Record<string, number>,
    }));
    for (const { invoke } of totals) for (let i = 0; i < warmup; i++) await invoke();
    // The cases take turns, a share of the iterations at a time, the order reversed every round:
    // a machine whose speed drifts slows them all alike.
    for (let round = 0; round < rounds; round++) {
      for (const total of round % 2 === 0 ? totals : [...totals].reverse()) {
        logBytes = 0;
        logLines = 0;
        const cpuBefore = process.cpuUsage();
        for (let i = 0; i < iterations / rounds; i++) {
          const { ms, status } = await total.invoke();
          total.durations.push(ms);
          total.statuses[status] = (total.statuses[status] ?? 0) + 1;
        }
        const cpu = process.cpuUsage(cpuBefore);
        total.cpuUs += cpu.user + cpu.system;
        total.logBytes += logBytes;
        total.logLines += logLines;
      }
    }
    for (const { scenario, durations, statuses, cpuUs, logBytes: bytes, logLines: lines } of totals) {
      const count = durations.length;
      const sorted = [...durations].sort((a, b) => a - b);
      results.push({
        scenario: scenario.id,
        invocations: count,
        medianMs: sorted[Math.floor(count / 2)] as number,
        meanMs: durations.reduce((a, b) => a + b, 0) / count,
        p99Ms: sorted[Math.min(count - 1, Math.ceil(0.99 * count) - 1)] as number,
        cpuMs: cpuUs / 1000 / count,
        billedMeanMs: durations.reduce((a, b) => a + Math.ceil(b), 0) / count,
        logBytesPerInvocation: bytes / count,
        logLinesPerInvocation: lines / count,
        statuses,
      });
    }
    return results;
  },
});
