/**
 * Which layer answered, from what the answer itself carries (docs/performance.md "Load testing"):
 * every answer of the stage has `X-Request-Id`, the web ACL's (AWS WAF's) custom responses have
 * static headers only; the gateway's own answers have the bodies of gateway-responses.ts.
 */
import { GATEWAY_RESPONSES } from '../../cdk/constructs/gateway-responses.ts';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';

/** Each outcome: the layer that answered and how its answers are told apart, and its colour in the chart. */
export const OUTCOMES = {
  ok: ['function: 2xx', '#2e7d32'],
  'edge-401': ['edge (WAF): 401 without X-Request-Id, a malformed key', '#8e24aa'],
  'edge-403': ["edge (WAF): 403 without X-Request-Id, a blocked source (automatic or an operator's)", '#4a148c'],
  'edge-429': ['edge (WAF): 429 without X-Request-Id, a per-key or per-address rate rule (Retry-After: 60)', '#d81b60'],
  'throttle-429': ["gateway: 429 with X-Request-Id, the method's token bucket (Retry-After: 1)", '#f57c00'],
  'lambda-503': ['gateway: 503 with its integration-failure message, the function could not run (its concurrency)', '#6d4c41'],
  'store-503': ["function: 503 with the function's message, its data store throttled or too slow", '#c0a000'],
  'timeout-504': ['gateway: 504, the integration timed out', '#455a64'],
  '5xx': ['gateway or function: another 5xx (a crash, a gateway error)', '#c62828'],
  '4xx': ['function or gateway: another 4xx or 3xx (the mix sends valid requests: a bug)', '#1565c0'],
  network: ['network: no HTTP answer (refused, reset, TLS)', '#000000'],
  timeout: ['network: no answer within --timeout', '#9e9e9e'],
} as const;
export type Outcome = keyof typeof OUTCOMES;
/** The outcomes that are a limit being met, in the order of the request path. */
export const LIMITS = [
  'edge-403',
  'edge-429',
  'throttle-429',
  'lambda-503',
  'store-503',
  'timeout-504',
] as const satisfies readonly Outcome[];

/** The outcomes that refuse a request before a function runs: the edge's and the gateway's throttle. */
export const REFUSED: readonly Outcome[] = ['throttle-429', 'edge-429', 'edge-403', 'edge-401'];

export function classify(status: number, headers: Readonly<Record<string, unknown>>, body: string): Outcome {
  if (status >= 200 && status < 300) return 'ok';
  const stage = Object.keys(headers).some((name) => name.toLowerCase() === REQUEST_ID_HEADER.toLowerCase());
  if (!stage && (status === 401 || status === 403 || status === 429)) return `edge-${status}` as Outcome;
  if (status === 429) return 'throttle-429';
  if (status === 503) return body.includes(JSON.stringify(GATEWAY_RESPONSES.INTEGRATION_FAILURE.message)) ? 'lambda-503' : 'store-503';
  if (status === 504) return 'timeout-504';
  return status >= 500 ? '5xx' : '4xx';
}
