// `ReservedConcurrentExecutions`: one more is refused unrun (429), which API Gateway makes INTEGRATION_FAILURE.
import type { FunctionInvoker } from '../gateway/rest-api.ts';

export function withReservedConcurrency(invoke: FunctionInvoker): FunctionInvoker {
  const inFlight = new Map<string, number>();
  return async (fn, event, requestId) => {
    const limit = fn.reservedConcurrency;
    if (limit === undefined) return invoke(fn, event, requestId);
    const running = inFlight.get(fn.logicalId) ?? 0;
    if (running >= limit) return { ok: false, throttled: true, reason: 'Rate Exceeded.' };
    inFlight.set(fn.logicalId, running + 1);
    try {
      return await invoke(fn, event, requestId);
    } finally {
      inFlight.set(fn.logicalId, (inFlight.get(fn.logicalId) ?? 1) - 1);
    }
  };
}
