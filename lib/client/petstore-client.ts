/** The official TypeScript client of the Pet Store API: openapi-fetch, typed by the types generated from the document (./openapi.ts). */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

type Schemas = components['schemas'];

export interface ClientOptions {
  /** The stage's base address, ending in `/v1` (`http://127.0.0.1:3000/v1` for `npm start`). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Attempts after the first (default 3). */
  readonly retries?: number;
  /** The longest wait in seconds (default 60); an answer asking for longer is thrown at once. */
  readonly maxWaitSeconds?: number;
}

interface ErrorFields {
  readonly status: number;
  readonly code: Schemas['ErrorCode'] | 'network_error';
  readonly message: string;
  /** `X-Request-Id`: quote it when reporting a problem (none from the web ACL or the network). */
  readonly requestId?: string | undefined;
  /** What `Retry-After` asked, in seconds, if it did. */
  readonly retryAfterSeconds?: number | undefined;
}

/** An error answer, or the last one once the retries are spent: `code`, `status`, the request id and the wait. */
export interface PetStoreError extends Omit<ErrorFields, 'message'> {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only declares the fields Object.assign sets.
export class PetStoreError extends Error {
  override readonly name = 'PetStoreError';
  constructor(fields: ErrorFields) {
    super(`${fields.status} ${fields.code}: ${fields.message}`);
    Object.assign(this, fields);
  }
}

/** The seconds `Retry-After` asks: the API sends delay-seconds only. */
const retryAfter = (value: string | null) => (value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined);
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 * (1 + Math.random() / 4)));

/**
 * fetch, sent again on 429 and 503, and on 504 or a network error for a read or a keyed create (which no retry can
 * store twice), until the retries are spent or an answer asks to wait longer than the cap; the last answer is returned.
 */
async function send({ retries = 3, maxWaitSeconds = 60 }: ClientOptions, request: Request): Promise<Response> {
  const resendable = request.method === 'GET' || request.headers.has('Idempotency-Key');
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(request.clone()).catch((e) => new PetStoreError({ status: 0, code: 'network_error', message: String(e) }));
    const [status, wait] = answer instanceof Response ? [answer.status, retryAfter(answer.headers.get('Retry-After'))] : [0, undefined];
    const seconds = wait ?? 2 ** attempt;
    const again = status === 429 || status === 503 || (resendable && (status === 504 || status === 0));
    if (!again || attempt >= retries || seconds > maxWaitSeconds) return answer instanceof Response ? answer : Promise.reject(answer);
    if (answer instanceof Response) await answer.body?.cancel(); // an answer left unread would hold its connection
    await sleep(seconds);
  }
}

/** The body of a success, or the answer as a PetStoreError: openapi-fetch resolves error answers too. */
async function answered<T>(call: Promise<{ data?: T; error?: Partial<Schemas['Error']>; response: Response }>) {
  const { data, error, response } = await call;
  if (data !== undefined) return { data, response };
  const [code, message] = [error?.code ?? 'internal_error', error?.message ?? response.statusText];
  const [requestId, wait] = [response.headers.get('X-Request-Id') ?? undefined, retryAfter(response.headers.get('Retry-After'))];
  throw new PetStoreError({ status: response.status, code, message, requestId, retryAfterSeconds: wait });
}

export class PetStoreClient {
  readonly #client: Client<paths>;

  constructor(options: ClientOptions) {
    const headers = { Accept: 'application/json', Authorization: `Bearer ${options.apiKey}` };
    this.#client = createClient<paths>({ baseUrl: options.baseUrl, headers, fetch: (request) => send(options, request) });
  }

  /** Every pet (of `status`, if given), page after page along `Link: <…>; rel="next"` as sent, on the same origin only. */
  async *pets(query: { status?: Schemas['PetStatus']; limit?: number } = {}): AsyncGenerator<Schemas['Pet']> {
    let next: URL | undefined;
    do {
      const page = next;
      const middleware = page ? [{ onRequest: ({ request }: { request: Request }) => new Request(page, request) }] : [];
      const { data, response } = await answered(this.#client.GET('/pets', { params: { query }, middleware }));
      yield* data;
      const link = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get('Link') ?? '')?.[1];
      next = link === undefined ? undefined : new URL(link, response.url);
      if (next && next.origin !== new URL(response.url).origin) throw new Error(`The next page is on another origin: ${next.href}`);
    } while (next);
  }

  /** A pet by id (`GET /pets/{petId}`, deprecated: it carries `Sunset`). */
  async getPet(petId: number): Promise<Schemas['Pet']> {
    return (await answered(this.#client.GET('/pets/{petId}', { params: { path: { petId } } }))).data;
  }

  /** Creates `pet` once, however often it is retried: one `Idempotency-Key` for every attempt (give yours to resume a create). */
  async createPet(pet: Schemas['NewPet'], idempotencyKey: string = crypto.randomUUID()) {
    const header = { 'Idempotency-Key': idempotencyKey };
    const { data, response } = await answered(this.#client.POST('/pets', { params: { header }, body: pet }));
    const [replayed, location] = [response.headers.get('Idempotent-Replayed') === 'true', response.headers.get('Location') ?? ''];
    return { pet: data, replayed, location }; // replayed: an earlier request with the same key created it
  }
}
