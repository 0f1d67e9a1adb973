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
 * Stricter than `preferredCoding`: API Gateway compresses only when the highest-priority coding is one
 * it supports (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-enable-compression.html).
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
