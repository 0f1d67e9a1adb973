/**
 * The load test's scenario, the one source of both the one-machine run (run.ts) and the Artillery
 * script that runs it on many generators (`--artillery FILE`): the operations and their requests,
 * the load's phases, the SLO.
 */
import { randomBytes } from 'node:crypto';
import type { StageName } from '../../cdk/stages.ts';

export const OPERATIONS = ['list', 'get', 'create'] as const;
export type Operation = (typeof OPERATIONS)[number];
export type Mix = Readonly<Record<Operation, number>>;
export const STATUSES = ['available', 'pending', 'sold'] as const;
export const CATEGORY_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** A run, as the command line gives it (options.ts). */
export interface LoadTestOptions {
  /** Without a trailing slash, e.g. `https://abc.execute-api.us-east-1.amazonaws.com/staging/v1`. */
  readonly baseUrl: URL;
  readonly apiKey: string;
  /** Seconds measured (a ramp's steps share them), after `warmupSeconds`. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly mix: Mix;
  /** Requests per second; undefined: as fast as the connections go. */
  readonly rate: number | undefined;
  readonly ramp: { readonly start: number; readonly end: number; readonly steps: number } | undefined;
  readonly timeoutSeconds: number;
  readonly slo: { readonly p99Ms: number; readonly errorRate: number; readonly expected4xx: readonly number[] };
  readonly outDir: string;
  readonly stage: StageName | undefined;
  /** Write the scenario as an Artillery script to this file instead of running it. */
  readonly artillery: string | undefined;
}
export type Slo = LoadTestOptions['slo'];

/** Every pet a run creates is named `loadtest-<runId>-<n>`; a run id is 8 random hex digits. */
export const PET_NAME_PREFIX = 'loadtest-';
export const RUN_ID = /^[0-9a-f]{8}$/;
export const newRunId = (): string => randomBytes(4).toString('hex');
/** Exactly the names of `runId`'s pets, and only when `runId` is a run id. */
export function runPetName(runId: string): RegExp {
  if (!RUN_ID.test(runId)) throw new Error(`"${runId}" is not a run id (8 hex digits, printed by the run)`);
  return new RegExp(`^${PET_NAME_PREFIX}${runId}-[1-9][0-9]*$`);
}

/** The variable parts of a request: values (run.ts) or Artillery templates. `status` empty: no filter. */
type Values = Readonly<Record<'id' | 'status' | 'n' | 'categoryId', string>>;

/** Each operation's request under the base URL; a `list` filters by status one time in three. */
export function request(op: Operation, runId: string, v: Values): { method: 'GET' | 'POST'; path: string; body?: string } {
  if (op === 'list') return { method: 'GET', path: `/pets?limit=20${v.status ? `&status=${v.status}` : ''}` };
  if (op === 'get') return { method: 'GET', path: `/pets/${v.id}` };
  const name = `${PET_NAME_PREFIX}${runId}-${v.n}`;
  return { method: 'POST', path: '/pets', body: `{"name":"${name}","categoryId":${v.categoryId},"status":"${v.status}"}` };
}

/** The warm-up (measured apart), then one phase at a rate (undefined: as fast as the connections go), or the ramp's steps. */
export function phases(o: Pick<LoadTestOptions, 'warmupSeconds' | 'durationSeconds' | 'rate' | 'ramp'>) {
  const first = o.ramp?.start ?? o.rate;
  const warm = o.warmupSeconds > 0 ? [{ name: 'warm-up', seconds: o.warmupSeconds, rate: first, warmup: true }] : [];
  if (!o.ramp) return [...warm, { name: 'run', seconds: o.durationSeconds, rate: o.rate, warmup: false }];
  const { start, end, steps } = o.ramp;
  const seconds = Math.max(1, Math.round(o.durationSeconds / steps));
  const rate = (i: number) => Math.round(start + ((end - start) * i) / Math.max(1, steps - 1));
  return [...warm, ...Array.from({ length: steps }, (_, i) => ({ name: `step ${i + 1}`, seconds, rate: rate(i), warmup: false }))];
}
export type Phase = ReturnType<typeof phases>[number];

/**
 * The same scenario as an Artillery script (JSON, which Artillery reads as it reads YAML). A virtual
 * user makes one operation; a `get` lists first to learn an id (no pet listed: no get), so arrivals
 * are the rate ÷ (1 + the share of gets). Each worker reads the key from $PETSTORE_API_KEY.
 */
export function artilleryScript(o: LoadTestOptions, runId: string): object {
  const total = OPERATIONS.reduce((sum, op) => sum + o.mix[op], 0);
  const headers = { Authorization: 'Bearer {{ $env.PETSTORE_API_KEY }}', 'User-Agent': `petstore-loadtest/${runId}` };
  const step = (op: Operation, status: string, capture?: object) => {
    const r = request(op, runId, { id: '{{ id }}', status, n: '{{ $randomNumber(1, 999999999) }}', categoryId: '{{ categoryId }}' });
    const body = r.body ? { body: r.body, headers: { ...headers, 'Content-Type': 'application/json' } } : { headers };
    return { [r.method.toLowerCase()]: { url: r.path, name: op, ...body, ...capture } };
  };
  const scenarios = [
    { name: 'list', weight: 2 * o.mix.list, flow: [step('list', '')] },
    { name: 'list by status', weight: o.mix.list, flow: [step('list', '{{ status }}')] },
    {
      name: 'get',
      weight: 3 * o.mix.get,
      flow: [step('list', '', { capture: { json: '$[0].id', as: 'id', strict: false } }), step('get', '', { ifTrue: 'id' })],
    },
    { name: 'create', weight: 3 * o.mix.create, flow: [step('create', '{{ status }}')] },
  ];
  return {
    config: {
      target: o.baseUrl.href,
      phases: phases(o).map((p) => ({
        name: p.name,
        duration: p.seconds,
        arrivalRate: Math.max(1, Math.round((p.rate ?? 1) / (1 + o.mix.get / total))),
      })),
      http: { timeout: o.timeoutSeconds },
      variables: { status: STATUSES, categoryId: CATEGORY_IDS },
      ensure: { thresholds: [{ 'http.response_time.p99': o.slo.p99Ms }], maxErrorRate: o.slo.errorRate * 100 },
      plugins: { ensure: {}, 'metrics-by-endpoint': { useOnlyRequestNames: true } },
    },
    scenarios: scenarios.filter((s) => s.weight > 0).map((s) => ({ ...s, weight: Math.max(1, Math.round(s.weight)) })),
  };
}
