/**
 * Clients at chosen loopback addresses (127.0.0.2, 127.0.0.3, …), as WAF counts per source address,
 * and an open-loop pace: each request is sent when due, whatever the earlier ones answered.
 */
import { request as httpRequest, type RequestOptions } from 'node:http';

/** GET `url` from `localAddress`. */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<Response> {
  return requestFrom(localAddress, url, { headers });
}

/** POST `body` to `url` from `localAddress`. */
export function postFrom(localAddress: string, url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return requestFrom(localAddress, url, { method: 'POST', headers }, body);
}

function requestFrom(localAddress: string, url: string, options: RequestOptions, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { ...options, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: out }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Which layer refused a request: WAF's 429 says a minute, the gateway's bucket a second. */
export function outcome(res: Response): 'waf-429' | 'gateway-429' | number {
  if (res.status !== 429) return res.status;
  return res.headers.get('retry-after') === '60' ? 'waf-429' : 'gateway-429';
}

/**
 * `total` calls of `send`: the first `burst` at once, then `perSecond`; their outcomes. `jitter`
 * moves each call by up to half an interval either way, as independent clients arrive: clients in
 * lockstep would always meet the bucket at the same points of its refill.
 */
export async function paced(
  total: number,
  perSecond: number,
  send: (i: number) => Promise<Response>,
  { burst = 0, jitter = false } = {},
): Promise<ReturnType<typeof outcome>[]> {
  const start = performance.now();
  const answers: Promise<ReturnType<typeof outcome>>[] = [];
  for (let i = 0; i < total; i++) {
    const due = Math.max(0, i - burst + 1) + (jitter ? Math.random() - 0.5 : 0);
    const wait = start + (due * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(send(i).then(outcome));
  }
  return Promise.all(answers);
}
