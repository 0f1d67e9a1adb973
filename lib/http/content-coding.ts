/**
 * The content codings API Gateway applies to a response (the RestApi's MinimumCompressionSize):
 * gzip and deflate, chosen from the request's Accept-Encoding. Local mode's gateway compresses by
 * `preferredCoding`, and the reference page serves its assets only where `gatewayCompresses`.
 */

/** The coding a client's Accept-Encoding prefers among those API Gateway applies (q-values honoured; gzip first on a tie). */
export function preferredCoding(acceptEncoding: string | undefined): 'gzip' | 'deflate' | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const [best] = (['gzip', 'deflate'] as const).filter((c) => weight(c) > 0).sort((a, b) => weight(b) - weight(a));
  return best;
}

/**
 * Whether API Gateway surely compresses the answer to this Accept-Encoding: its highest-priority
 * coding must be one the gateway supports, or it compresses nothing
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-enable-compression.html).
 * Stricter than `preferredCoding`: the first coding listed with the highest q-value must be gzip or
 * deflate (browsers list gzip first), so `br, gzip` or `*` do not count.
 */
export function gatewayCompresses(acceptEncoding: string | undefined): boolean {
  let best: { coding: string; q: number } | undefined;
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (coding !== '' && weight > 0 && (best === undefined || weight > best.q)) best = { coding, q: weight };
  }
  return best?.coding === 'gzip' || best?.coding === 'deflate';
}
