/**
 * One load-test run: a pre-flight request, then each phase (warm-up, the run or the ramp's steps)
 * with autocannon, each request's operation picked by weight. `get` asks for pets this run created
 * or listed, so every request of the mix is valid and a 4xx means something is wrong. Every answer
 * is tallied by second, phase, operation and outcome (layers.ts).
 */
import { randomInt } from 'node:crypto';
import type { Request } from 'autocannon';
import { startAutocannon } from './autocannon.ts';
import { Latencies } from './latency.ts';
import { classify, type Outcome } from './layers.ts';
import { CATEGORY_IDS, type LoadTestOptions, OPERATIONS, type Operation, type Phase, phases, request, STATUSES } from './scenario.ts';

/** Ids remembered for `get`: the most recent ones. */
const MAX_KNOWN_IDS = 10_000;

/** Answers by operation and outcome, with their latencies; a request without an answer has no operation. */
export class Tally {
  readonly cells = new Map<string, { requests: number; readonly latencies: Latencies }>();

  add(op: Operation | '', outcome: Outcome, ms?: number): void {
    const key = `${op} ${outcome}`;
    const cell = this.cells.get(key) ?? { requests: 0, latencies: new Latencies() };
    this.cells.set(key, cell);
    cell.requests++;
    if (ms !== undefined) cell.latencies.record(ms);
  }

  /** The requests and latencies of the cells `keep` selects, merged. */
  select(keep: (op: string, outcome: Outcome) => boolean = () => true): { requests: number; latencies: Latencies } {
    const cells = [...this.cells].filter(([key]) => keep(...(key.split(' ') as [string, Outcome]))).map(([, cell]) => cell);
    return { requests: cells.reduce((sum, c) => sum + c.requests, 0), latencies: Latencies.merge(cells.map((c) => c.latencies)) };
  }
}

/** A phase as it ran: seconds from the run's start to its start, how long it ran, its answers. */
export type RunPhase = Phase & { readonly startedAt: number; readonly elapsed: number; readonly tally: Tally };

export interface LoadTestResult {
  readonly runId: string;
  readonly startedAt: string;
  readonly phases: readonly RunPhase[];
  /** `seconds[i]`: the answers that arrived in the run's second i. */
  readonly seconds: readonly Tally[];
  /** Every phase's but the warm-up's, and how long they ran. */
  readonly measured: Tally;
  readonly measuredSeconds: number;
  /** Pets this run created (201), all named `loadtest-<runId>-<n>`. */
  readonly createdPets: number;
}

export type PreflightResult = { readonly ok: true; readonly ids: readonly number[] } | { readonly ok: false; readonly message: string };

/** One `GET /pets?limit=20`: the API is reachable, answers like the Pet Store API and takes the key. */
export async function preflight(options: Pick<LoadTestOptions, 'baseUrl' | 'apiKey' | 'timeoutSeconds'>): Promise<PreflightResult> {
  const url = `${options.baseUrl.href.replace(/\/+$/, '')}/pets?limit=20`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' },
      // Only the URL given: a redirect is reported, never followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutSeconds * 1000),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return { ok: false, message: `cannot reach ${url}: ${cause?.message ?? (error as Error).message}` };
  }
  const text = await response.text();
  if (response.status === 401) return { ok: false, message: 'the API refused the key (401): check --api-key against this stage.' };
  if (response.status >= 300 && response.status < 400) {
    return {
      ok: false,
      message: `${url} answered ${response.status} (redirect to ${response.headers.get('location') ?? '?'}); give the final base URL.`,
    };
  }
  if (response.status !== 200) {
    const hint = response.status === 404 && !options.baseUrl.pathname.endsWith('/v1') ? ' The base URL should end in /v1.' : '';
    // The body is the server's to fill: one that echoes the request must not print the key.
    const excerpt = text.replaceAll(options.apiKey, '<api key>').slice(0, 200);
    return { ok: false, message: `GET ${url} answered ${response.status}: ${excerpt}${hint}` };
  }
  const ids = text.trimStart().startsWith('[') ? petIds(text) : undefined;
  if (ids === undefined) return { ok: false, message: `GET ${url} did not answer with a JSON array of pets; is this the Pet Store API?` };
  return { ok: true, ids };
}

/** `progress` gets a line a second; `knownIds` are the pre-flight list's. */
export async function runLoad(
  options: LoadTestOptions,
  runId: string,
  hooks: { progress?: (line: string) => void; knownIds?: readonly number[] } = {},
): Promise<LoadTestResult> {
  const basePath = options.baseUrl.pathname.replace(/\/+$/, '');
  const ids = [...(hooks.knownIds ?? [])];
  const remember = (found: readonly number[] = []) => ids.splice(0, Math.max(0, ids.push(...found) - MAX_KNOWN_IDS));
  // Each operation as often as its weight (to a hundredth) in the urn a request is drawn from.
  const urn = OPERATIONS.flatMap((op) => Array<Operation>(Math.round(options.mix[op] * 100)).fill(op));

  const auth = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json', 'User-Agent': `petstore-loadtest/${runId}` };
  let created = 0;
  let sequence = 0;
  const started = performance.now();
  const seconds: Tally[] = [];
  const measured = new Tally();
  let phaseTally = new Tally();
  let warmup = false;
  const record = (op: Operation | '', outcome: Outcome, ms?: number) => {
    const second = Math.floor((performance.now() - started) / 1000);
    for (let i = seconds.length; i <= second; i++) seconds.push(new Tally());
    for (const tally of [seconds[second], phaseTally, warmup ? undefined : measured]) tally?.add(op, outcome, ms);
  };

  const template: Request = {
    setupRequest: (req, context: { op?: Operation; startedAt?: number }) => {
      const picked = urn[randomInt(urn.length)] ?? 'list';
      const op = picked === 'get' && ids.length === 0 ? 'list' : picked;
      const status = op === 'create' || (op === 'list' && randomInt(3) === 0) ? (STATUSES[randomInt(STATUSES.length)] as string) : '';
      const id = String(op === 'get' ? ids[randomInt(ids.length)] : '');
      const categoryId = String(CATEGORY_IDS[randomInt(CATEGORY_IDS.length)]);
      const shape = request(op, runId, { id, status, n: String(op === 'create' ? ++sequence : 0), categoryId });
      context.op = op;
      context.startedAt = performance.now();
      const headers = shape.body ? { ...auth, 'Content-Type': 'application/json' } : auth;
      return { ...req, method: shape.method, path: `${basePath}${shape.path}`, headers, body: shape.body };
    },
    onResponse: (status, body, context: { op?: Operation; startedAt?: number }, headers = {}) => {
      const op = context.op ?? 'list';
      record(op, classify(status, headers, body), performance.now() - (context.startedAt ?? 0));
      if (status === 201) created++;
      if (status === 201 || (op === 'list' && status === 200)) remember(petIds(body));
    },
  };

  const done: RunPhase[] = [];
  const ticker = setInterval(() => {
    const last = seconds.at(-2);
    if (!last) return;
    const counts = [...last.cells].map(([key, c]) => `${key.trim()} ${c.requests}`).join(', ');
    hooks.progress?.(`[${seconds.length - 1}s] ${options.ramp ? `phase ${done.length + 1}: ` : ''}${last.select().requests}/s  ${counts}`);
  }, 1000);
  try {
    for (const phase of phases(options)) {
      phaseTally = new Tally();
      warmup = phase.warmup;
      const startedAt = (performance.now() - started) / 1000;
      const { instance, result } = startAutocannon({
        url: options.baseUrl.href,
        connections: options.connections,
        duration: phase.seconds,
        timeout: options.timeoutSeconds,
        ...(phase.rate === undefined ? {} : { overallRate: phase.rate }),
        requests: [template],
      });
      instance.on('reqError', (error: Error) => record('', error.message === 'request timed out' ? 'timeout' : 'network'));
      await result;
      done.push({ ...phase, startedAt, elapsed: (performance.now() - started) / 1000 - startedAt, tally: phaseTally });
    }
  } finally {
    clearInterval(ticker);
  }
  const startedAt = new Date(Date.now() - (performance.now() - started)).toISOString();
  const measuredSeconds = done.reduce((sum, p) => sum + (p.warmup ? 0 : p.elapsed), 0);
  return { runId, startedAt, phases: done, seconds, measured, measuredSeconds, createdPets: created };
}

/** The ids of a JSON pet or array of pets (undefined: neither). */
function petIds(body: string): number[] | undefined {
  try {
    const value: unknown = JSON.parse(body);
    const pets = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? [value] : undefined;
    return pets?.flatMap((pet: { id?: unknown }) =>
      typeof pet?.id === 'number' && Number.isSafeInteger(pet.id) && pet.id > 0 ? [pet.id] : [],
    );
  } catch {
    return undefined;
  }
}
