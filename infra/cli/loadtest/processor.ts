/**
 * The scenario's Artillery processor (bundled beside the script as processor.cjs): each request put down to its layer (layers.ts) when
 * its answer or error comes, under the second and phase it was sent in; each arrival counted under its run's id.
 */
import { createHash, randomInt } from 'node:crypto';
import { classify, type Outcome } from './layers.ts';

type Emitter = { emit(type: 'counter' | 'histogram', name: string, value: number): void };
type Context = { vars: Record<string, unknown> };
type Sent = { name: string; lt?: { second: number; phase: number; at: number } };
type Next = (error?: Error) => void;

let started: number | undefined;
let ends: [number, boolean][] | undefined;
let run: string | undefined;

function when(vars: Record<string, unknown>) {
  started ??= performance.now();
  ends ??= (JSON.parse(String(vars.ltPhases)) as [number, boolean][]).map(([, w], i, all) => [
    all.slice(0, i + 1).reduce((sum, [x]) => sum + x, 0),
    w,
  ]);
  const second = Math.floor((performance.now() - started) / 1000);
  const phase = ends.findIndex(([end]) => second < end);
  return { second, phase: phase === -1 ? ends.length - 1 : phase, at: performance.now() };
}

function record(ee: Emitter, sent: Sent, outcome: Outcome, ms?: number): void {
  const { second, phase } = sent.lt ?? { second: 0, phase: 0 };
  const scopes = [`s${second}`, `p${phase}`, ...(ends?.[phase]?.[1] ? [] : ['m'])];
  for (const scope of scopes)
    for (const key of [`${sent.name}|${outcome}`, `${sent.name}|*`, `*|${outcome}`, '*|*']) {
      if (ms === undefined) ee.emit('counter', `lt|${scope}|${key}`, 1);
      else ee.emit('histogram', `lt|${scope}|${key}`, ms);
    }
}

/** The ids of a JSON pet or array of pets. */
function petIds(body: unknown): number[] {
  try {
    const value: unknown = typeof body === 'string' ? JSON.parse(body) : body;
    return (Array.isArray(value) ? value : [value]).flatMap((p: { id?: unknown }) => (typeof p?.id === 'number' ? [p.id] : []));
  } catch {
    return [];
  }
}

/**
 * Each execution of the script is a run of its own, all workers of one sharing its id: Artillery gives every worker (its own, a fleet's)
 * the test run id its CLI drew or found in $ARTILLERY_TEST_RUN_ID. The run id is that when it is 8 hex digits, else 8 of its hash.
 */
export function arrive(context: Context, ee: Emitter, next: Next): void {
  const id = String(context.vars.$testId);
  context.vars.ltRun = run ??= /^[0-9a-f]{8}$/.test(id) ? id : createHash('sha256').update(id).digest('hex').slice(0, 8);
  ee.emit('counter', `lt|run|${run}`, 1);
  ee.emit('counter', `lt|s${when(context.vars).second}|arrivals`, 1);
  context.vars.n = randomInt(1, 2 ** 47);
  next();
}

export function stamp(sent: Sent, context: Context, _ee: Emitter, next: Next): void {
  sent.lt = when(context.vars);
  next();
}

export function answered(
  sent: Sent,
  response: { statusCode: number; headers: Record<string, unknown>; body: unknown },
  context: Context,
  ee: Emitter,
  next: Next,
): void {
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
  record(ee, sent, classify(response.statusCode, response.headers, body), performance.now() - (sent.lt?.at ?? 0));
  // What the flow's next step needs: a pet of the page or the one created, the next page of the same origin.
  const ids = response.statusCode < 300 ? petIds(body) : [];
  context.vars.id = ids[randomInt(Math.max(1, ids.length))];
  const link = /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
  context.vars.next = link && URL.parse(link)?.origin === context.vars.ltOrigin ? link : undefined;
  next();
}

export function failed(error: Error & { code?: string }, sent: Sent, _context: Context, ee: Emitter, next: Next): void {
  record(ee, sent, /TIMEDOUT|TIMEOUT/.test(error.code ?? '') || error.name === 'TimeoutError' ? 'timeout' : 'network');
  next();
}
