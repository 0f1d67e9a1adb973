/**
 * The official TypeScript client of the Pet Store API, over fetch, typed by the schemas the document is generated from.
 */
import type { NewPet, Pet, PetStatus } from '../domain/pet.ts';
import type { ErrorBody } from '../http/errors.ts';

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
  readonly code: ErrorBody['code'] | 'network_error';
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

export class PetStoreClient {
  readonly #base: string;
  readonly #options: ClientOptions;

  constructor(options: ClientOptions) {
    [this.#options, this.#base] = [options, options.baseUrl.replace(/\/+$/, '')];
  }

  /** Every pet (of `status`, if given), page after page along `Link: <…>; rel="next"`, on the same origin only. */
  async *pets(query: { status?: PetStatus; limit?: number } = {}): AsyncGenerator<Pet> {
    const params = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
    let url: URL | undefined = new URL(`${this.#base}/pets${params.size > 0 ? `?${params}` : ''}`);
    while (url) {
      const response = await this.#send(url, { method: 'GET' });
      yield* (await response.json()) as Pet[];
      const next = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get('Link') ?? '')?.[1];
      const target: URL | undefined = next === undefined ? undefined : new URL(next, url);
      if (target && target.origin !== url.origin) throw new Error(`The next page is on another origin: ${target.href}`);
      url = target;
    }
  }

  /** A pet by id (`GET /pets/{petId}`, deprecated: it carries `Sunset`). */
  async getPet(petId: number): Promise<Pet> {
    return (await (await this.#send(new URL(`${this.#base}/pets/${petId}`), { method: 'GET' })).json()) as Pet;
  }

  /** Creates `pet` once, however often it is retried: one `Idempotency-Key` for every attempt (give yours to resume a create). */
  async createPet(pet: NewPet, idempotencyKey: string = crypto.randomUUID()): Promise<{ pet: Pet; replayed: boolean; location: string }> {
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey };
    const response = await this.#send(new URL(`${this.#base}/pets`), { method: 'POST', body: JSON.stringify(pet), headers });
    // `replayed`: an earlier request with the same key created it (`Idempotent-Replayed`).
    const [location, replayed] = [response.headers.get('Location') ?? '', response.headers.get('Idempotent-Replayed') === 'true'];
    return { pet: (await response.json()) as Pet, replayed, location };
  }

  /** Sends a read or a keyed create until it is answered other than 429, 503, 504 or a network error, or the retries are spent. */
  async #send(url: URL, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Response> {
    const { retries = 3, maxWaitSeconds = 60, apiKey } = this.#options;
    const headers = { Accept: 'application/json', Authorization: `Bearer ${apiKey}`, ...init.headers };
    for (let attempt = 0; ; attempt++) {
      let failure: PetStoreError;
      try {
        const response = await fetch(url, { ...init, headers });
        if (response.ok) return response;
        const body = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
        const wait = retryAfter(response.headers.get('Retry-After'));
        const requestId = response.headers.get('X-Request-Id') ?? undefined;
        const [code, message] = [body.code ?? 'internal_error', body.message ?? response.statusText];
        failure = new PetStoreError({ status: response.status, code, message, requestId, retryAfterSeconds: wait });
        if (![429, 503, 504].includes(response.status)) throw failure;
      } catch (error) {
        if (error instanceof PetStoreError) throw error;
        failure = new PetStoreError({ status: 0, code: 'network_error', message: String(error) });
      }
      const seconds = failure.retryAfterSeconds ?? 2 ** attempt;
      if (attempt >= retries || seconds > maxWaitSeconds) throw failure;
      await sleep(seconds);
    }
  }
}
