/**
 * One load-test run: a pre-flight request, then autocannon with a request generator that picks
 * each request's operation by weight. `get` asks for pets this run created or listed, so every
 * request of the mix is valid and a 4xx means something is wrong.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import { type AutocannonRequest, autocannon } from './autocannon.ts';
import { Latencies } from './latency.ts';
import { type LoadTestOptions, OPERATIONS, type Operation, PET_NAME_PREFIX } from './options.ts';

const STATUSES = ['available', 'pending', 'sold'] as const;
/** Ids remembered for `get`: the most recent ones, in a ring. */
const MAX_KNOWN_IDS = 10_000;

export interface OperationStats {
  requests: number;
  readonly statuses: Map<number, number>;
  /** One per response. */
  readonly latencies: Latencies;
}

export interface LoadTestResult {
  readonly runId: string;
  /** Seconds the load actually ran. */
  readonly durationSeconds: number;
  readonly operations: Readonly<Record<Operation, OperationStats>>;
  /** Network errors (refused, reset, TLS) and timeouts: requests that got no HTTP response. */
  readonly networkErrors: number;
  readonly timeouts: number;
  /** Pets this run created (201), all named `loadtest-<runId>-<n>`. */
  readonly createdPets: number;
}

export function newRunId(): string {
  return randomBytes(4).toString('hex');
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
  const ids = petIds(text);
  if (ids === undefined) return { ok: false, message: `GET ${url} did not answer with a JSON array of pets; is this the Pet Store API?` };
  return { ok: true, ids };
}

export interface RunHooks {
  /** Progress lines, about ten per run (at most one a second). */
  readonly progress?: (line: string) => void;
  /** Ids known before the run (from the pre-flight list). */
  readonly knownIds?: readonly number[];
}

export async function runLoad(options: LoadTestOptions, runId: string, hooks: RunHooks = {}): Promise<LoadTestResult> {
  const base = options.baseUrl;
  const basePath = base.pathname.replace(/\/+$/, '');
  const empty = (): OperationStats => ({ requests: 0, statuses: new Map(), latencies: new Latencies() });
  const operations: Record<Operation, OperationStats> = { list: empty(), get: empty(), create: empty() };

  const ids: number[] = [];
  let nextId = 0;
  const remember = (id: number) => {
    if (ids.length < MAX_KNOWN_IDS) ids.push(id);
    else ids[nextId++ % MAX_KNOWN_IDS] = id;
  };
  for (const id of hooks.knownIds ?? []) remember(id);

  const weights = OPERATIONS.map((op) => options.mix[op]);
  const total = weights.reduce((a, b) => a + b, 0);
  const pick = (): Operation => {
    let r = Math.random() * total;
    for (const [i, op] of OPERATIONS.entries()) {
      r -= weights[i] ?? 0;
      if (r < 0) return op;
    }
    return OPERATIONS.find((op) => options.mix[op] > 0) ?? 'list';
  };

  const auth = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json', 'User-Agent': `petstore-loadtest/${runId}` };
  let created = 0;
  let sequence = 0;
  let responses = 0;
  let errors = 0;
  const classes = [0, 0, 0, 0, 0];

  const request: AutocannonRequest = {
    setupRequest: (req, context) => {
      let op = pick();
      if (op === 'get' && ids.length === 0) op = 'list';
      context.op = op;
      context.startedAt = performance.now();
      if (op === 'create') {
        const status = STATUSES[randomInt(STATUSES.length + 1)];
        const body = JSON.stringify({
          name: `${PET_NAME_PREFIX}${runId}-${++sequence}`,
          categoryId: 1 + randomInt(10),
          ...(status ? { status } : {}),
        });
        return { ...req, method: 'POST', path: `${basePath}/pets`, headers: { ...auth, 'Content-Type': 'application/json' }, body };
      }
      if (op === 'get') {
        const id = ids[randomInt(ids.length)] as number;
        return { ...req, method: 'GET', path: `${basePath}/pets/${id}`, headers: auth, body: undefined };
      }
      const query = randomInt(3) === 0 ? `limit=20&status=${STATUSES[randomInt(STATUSES.length)]}` : 'limit=20';
      return { ...req, method: 'GET', path: `${basePath}/pets?${query}`, headers: auth, body: undefined };
    },
    onResponse: (status, body, context) => {
      const op = context.op as Operation;
      const stats = operations[op];
      stats.requests++;
      stats.latencies.record(performance.now() - (context.startedAt as number));
      stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
      responses++;
      const statusClass = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
      classes[statusClass] = (classes[statusClass] ?? 0) + 1;
      if (op === 'create' && status === 201) {
        created++;
        const id = petId(body);
        if (id !== undefined) remember(id);
      } else if (op === 'list' && status === 200) {
        for (const id of petIds(body) ?? []) remember(id);
      }
    },
  };

  const restoreTls = base.protocol === 'https:' ? enforceCertificateVerification() : () => undefined;
  const started = performance.now();
  const every = Math.max(1, Math.round(options.durationSeconds / 10));
  let lastResponses = 0;
  const ticker = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    const rate = (responses - lastResponses) / every;
    lastResponses = responses;
    hooks.progress?.(
      `[${elapsed.toFixed(0).padStart(String(options.durationSeconds).length)}s/${options.durationSeconds}s] ` +
        `${responses} responses (${rate.toFixed(0)}/s)  2xx ${classes[1]}  3xx ${classes[2]}  4xx ${classes[3]}  5xx ${classes[4]}  network errors ${errors}`,
    );
  }, every * 1000);
  try {
    const instance = autocannon({
      url: base.href,
      connections: options.connections,
      duration: options.durationSeconds,
      timeout: options.timeoutSeconds,
      ...(options.rate === undefined ? {} : { overallRate: options.rate }),
      requests: [request],
    });
    instance.on('reqError', () => {
      errors++;
    });
    const result = await instance;
    return {
      runId,
      durationSeconds: result.duration,
      operations,
      networkErrors: result.errors,
      timeouts: result.timeouts,
      createdPets: created,
    };
  } finally {
    clearInterval(ticker);
    restoreTls();
  }
}

/**
 * autocannon 9 opens TLS connections with `rejectUnauthorized: false` hard-coded, so it would send
 * the API key to a server whose certificate it never checked. For the run, its `tls.connect` calls
 * verify the certificate and host name like any HTTPS client; a failure is a network error.
 */
function enforceCertificateVerification(): () => void {
  // The CommonJS module object autocannon calls `connect` on (an ESM namespace is read-only).
  const tls = createRequire(import.meta.url)('node:tls') as { connect: (...args: unknown[]) => TLSSocket };
  const original = tls.connect;
  tls.connect = (...args: unknown[]) =>
    original(
      ...args.map((arg) => (typeof arg === 'object' && arg !== null ? { ...(arg as ConnectionOptions), rejectUnauthorized: true } : arg)),
    );
  return () => {
    tls.connect = original;
  };
}

function petId(body: string): number | undefined {
  try {
    const value = (JSON.parse(body) as { id?: unknown }).id;
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function petIds(body: string): number[] | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (!Array.isArray(value)) return undefined;
    return value.flatMap((pet: { id?: unknown }) =>
      typeof pet?.id === 'number' && Number.isSafeInteger(pet.id) && pet.id > 0 ? [pet.id] : [],
    );
  } catch {
    return undefined;
  }
}
