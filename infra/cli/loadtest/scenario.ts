/**
 * The load test's scenario, one Artillery script for one machine (`artillery run`) and for a fleet
 * (`artillery run-fargate`): the flows and their mix, the arrival phases, the processor that puts
 * each answer down to its layer (processor.ts) and the data file of payloads.
 */
import { randomBytes } from 'node:crypto';
import { operations } from '#lib/operations.ts';
import type { StageName } from '../../cdk/stages.ts';

/** The operations, by operationId, with their method and resource: the descriptors'. */
export const OPERATIONS = operations.map((o) => o.operationId);
export type Operation = (typeof OPERATIONS)[number];
const route = (id: Operation) => operations.find((o) => o.operationId === id) as (typeof operations)[number];

/** What a virtual user does: each step an operation (its path under the base URL, with Artillery's templates) or a pause. */
export const FLOWS = {
  /** A first page. */
  browse: [['listPets', '/pets?limit=20']],
  /** A status's listing, then its next page by the `Link` cursor (when there is one). */
  walk: [['listPets', '/pets?limit=20&status={{ status }}'], 'think', ['listPets', '{{ next }}']],
  /** A page, then one pet of it at random. */
  read: [['listPets', '/pets?limit=20'], 'think', ['getPet', '/pets/{{ id }}']],
  /** A new pet from the data file, then that pet. */
  adopt: [['createPet', '/pets'], 'think', ['getPet', '/pets/{{ id }}']],
} as const satisfies Record<string, readonly (readonly [Operation, string] | 'think')[]>;
export type Flow = keyof typeof FLOWS;
export type Mix = Readonly<Record<Flow, number>>;
/** The operations a flow calls when every step has what it needs. */
export const flowSteps = (flow: Flow) => FLOWS[flow].flatMap((s) => (s === 'think' ? [] : [s[0]]));

/** A run, as the command line gives it (options.ts). */
export interface LoadTestOptions {
  /** Without a trailing slash, e.g. `https://abc.execute-api.us-east-1.amazonaws.com/staging/v1`. */
  readonly baseUrl: URL;
  readonly apiKey: string;
  /** Seconds measured (a ramp's steps share them), after `warmupSeconds`. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly mix: Mix;
  /** Requests per second the whole run offers (a ramp: each step's). */
  readonly rate: number;
  readonly ramp: { readonly start: number; readonly end: number; readonly steps: number } | undefined;
  readonly thinkSeconds: number;
  /** Virtual users one generator may hold at once; past it, arrivals are skipped (and counted as not sent). */
  readonly maxVusers: number | undefined;
  /** A fleet's generators, each offering its share (the run is written, not run); undefined: this machine. */
  readonly workers: number | undefined;
  readonly timeoutSeconds: number;
  readonly slo: { readonly p99Ms: number; readonly errorRate: number; readonly expected4xx: readonly number[] };
  readonly outDir: string;
  readonly stage: StageName | undefined;
  readonly cloudAssembly: string | undefined;
}

/** Every pet a run creates is named `loadtest-<runId>-<n>`; a run id is 8 hex digits (processor.ts). */
export const PET_NAME_PREFIX = 'loadtest-';
export const RUN_ID = /^[0-9a-f]{8}$/;
export const newRunId = (): string => randomBytes(4).toString('hex');
/** Exactly the names of `runId`'s pets, and only when `runId` is a run id. */
export function runPetName(runId: string): RegExp {
  if (!RUN_ID.test(runId)) throw new Error(`"${runId}" is not a run id (8 hex digits, printed by the run)`);
  return new RegExp(`^${PET_NAME_PREFIX}${runId}-[1-9][0-9]*$`);
}

/** The warm-up (measured apart), then one phase at the rate, or the ramp's steps; rates in requests per second. */
export function phases(o: Pick<LoadTestOptions, 'warmupSeconds' | 'durationSeconds' | 'rate' | 'ramp'>) {
  const first = o.ramp?.start ?? o.rate;
  const warm = o.warmupSeconds > 0 ? [{ name: 'warm-up', seconds: o.warmupSeconds, rate: first, warmup: true }] : [];
  if (!o.ramp) return [...warm, { name: 'run', seconds: o.durationSeconds, rate: o.rate, warmup: false }];
  const { start, end, steps } = o.ramp;
  const seconds = Math.max(1, Math.round(o.durationSeconds / steps));
  const rate = (i: number) => Math.round(start + ((end - start) * i) / Math.max(1, steps - 1));
  return [...warm, ...Array.from({ length: steps }, (_, i) => ({ name: `step ${i + 1}`, seconds, rate: rate(i), warmup: false }))];
}

/** Requests per arrival: the flows' lengths weighted by the mix. */
export function requestsPerArrival(mix: Mix): number {
  const flows = Object.keys(FLOWS) as Flow[];
  return flows.reduce((sum, f) => sum + mix[f] * flowSteps(f).length, 0) / flows.reduce((sum, f) => sum + mix[f], 0);
}

/** What the report needs of the plan, kept in the script (Artillery ignores it) for `loadtest:report`. */
export type Plan = ReturnType<typeof plan>;
export function plan(o: LoadTestOptions) {
  const { baseUrl, mix, slo, thinkSeconds, ramp, stage } = o;
  const workers = o.workers ?? 1;
  // Each worker's arrivals in a phase, a whole number spread evenly over it (Artillery's arrivalCount).
  const all = phases(o).map((p) => ({ ...p, arrivals: Math.round(((p.rate / requestsPerArrival(mix)) * p.seconds) / workers) }));
  return { target: baseUrl.href, mix, workers, slo, thinkSeconds, ramp: ramp !== undefined, stage: stage ?? null, phases: all };
}

/** The scenario as an Artillery script (JSON, which Artillery reads as YAML); `ltRun` is the run's id (processor.ts). */
export function artilleryScript(o: LoadTestOptions) {
  const headers = { Authorization: 'Bearer {{ $env.PETSTORE_API_KEY }}', 'User-Agent': 'petstore-loadtest/{{ ltRun }}' };
  const step = (s: (typeof FLOWS)[Flow][number]) => {
    if (s === 'think') return { think: o.thinkSeconds };
    const [op, url] = s;
    const { method } = route(op);
    const body =
      op === 'createPet'
        ? { body: `{"name":"${PET_NAME_PREFIX}{{ ltRun }}-{{ n }}","categoryId":{{ categoryId }},"status":"{{ status }}"}` }
        : {};
    const needs = /\{\{ (id|next) \}\}/.exec(url)?.[1];
    const contentType = op === 'createPet' ? { 'Content-Type': 'application/json' } : {};
    return {
      [method.toLowerCase()]: {
        url,
        name: op,
        followRedirect: false,
        headers: { ...headers, ...contentType },
        ...body,
        ...(needs ? { ifTrue: needs } : {}),
      },
    };
  };
  const info = plan(o);
  return {
    config: {
      target: o.baseUrl.href,
      processor: './processor.cjs',
      payload: { path: './pets.csv', fields: ['categoryId', 'status'], order: 'random', skipHeader: true },
      phases: info.phases.map((p) => ({
        name: p.name,
        duration: p.seconds,
        arrivalCount: p.arrivals,
        ...(o.maxVusers ? { maxVusers: o.maxVusers } : {}),
      })),
      http: { timeout: o.timeoutSeconds },
      // The processor's view of the phases: when each ends (seconds from a worker's first arrival), which is the warm-up.
      variables: { ltPhases: JSON.stringify(info.phases.map((p) => [p.seconds, p.warmup])), ltOrigin: o.baseUrl.origin },
      petstore: info,
    },
    scenarios: (Object.keys(FLOWS) as Flow[])
      .filter((f) => o.mix[f] > 0)
      .map((f) => ({
        name: f,
        weight: o.mix[f],
        beforeScenario: 'arrive',
        beforeRequest: 'stamp',
        afterResponse: 'answered',
        onError: 'failed',
        flow: FLOWS[f].map(step),
      })),
  };
}
