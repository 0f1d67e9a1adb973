/**
 * Worker: invokes the bundled handlers (the very files Lambda would load) in process, one
 * invocation at a time, and measures each one's duration: what Lambda bills, less the platform's
 * own overhead and with the local store's latency instead of DynamoDB's. Also counts the bytes the
 * handlers log per invocation (CloudWatch Logs ingestion). The parent sets the environment.
 */
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { lambdaContext, proxyEvent, requestFor, SCENARIOS, type ScenarioId } from '../scenarios.ts';
import { serve } from './rpc.ts';

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyResult>;

export interface HandlerTiming {
  /** `floor`: the floor bundle's handler (one GetCommand), for comparison with `get`. */
  readonly scenario: ScenarioId | 'floor';
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
    const cases = [
      ...SCENARIOS.map((s) => ({ id: s.id, functionName: s.functionName as string })),
      { id: 'floor' as const, functionName: 'floor' },
    ];
    for (const scenario of cases) {
      const handler = handlers.get(scenario.functionName);
      if (!handler) throw new Error(`no bundle for ${scenario.functionName}`);
      const invoke = async () => {
        const requestId = `bench-${++n}`;
        const event = proxyEvent(requestFor(scenario.id === 'floor' ? 'get' : scenario.id, ids, n), apiKey, requestId);
        const context = lambdaContext(scenario.functionName, requestId);
        const started = performance.now();
        const result = await handler(event, context);
        return { ms: performance.now() - started, status: result.statusCode };
      };
      for (let i = 0; i < warmup; i++) await invoke();
      const durations: number[] = [];
      const statuses: Record<string, number> = {};
      logBytes = 0;
      logLines = 0;
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < iterations; i++) {
        const { ms, status } = await invoke();
        durations.push(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      const cpu = process.cpuUsage(cpuBefore);
      const sorted = [...durations].sort((a, b) => a - b);
      results.push({
        scenario: scenario.id,
        invocations: iterations,
        medianMs: sorted[Math.floor(sorted.length / 2)] as number,
        meanMs: durations.reduce((a, b) => a + b, 0) / durations.length,
        p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] as number,
        cpuMs: (cpu.user + cpu.system) / 1000 / iterations,
        billedMeanMs: durations.reduce((a, b) => a + Math.ceil(b), 0) / durations.length,
        logBytesPerInvocation: logBytes / iterations,
        logLinesPerInvocation: logLines / iterations,
        statuses,
      });
    }
    return results;
  },
});
