/**
 * Assertions and small clients shared by the end-to-end suites in this folder. Every suite talks
 * to the service over real HTTP (see ../support/local-api.ts). The only things they touch in the
 * test process is, for failure injection, the environment the handlers read.
 */
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestApi } from '../support/local-api.ts';
import { PET_STATUSES, type Pet, type PetStatus as Status } from '#lib/domain/pet.ts';
import { reconfigure } from '#lib/services.ts';
import type { ErrorBody } from '#lib/http/errors.ts';

export { PET_STATUSES, type Pet, type Status };

/** `Content-Type: application/json`, optionally with a UTF-8 charset parameter. */
export function expectJsonContentType(res: Response): void {
  expect(res.headers.get('content-type') ?? '(missing)').toMatch(/^application\/json(?:\s*;\s*charset=utf-8)?$/i);
}

/** Every response carries a request id. */
export function expectRequestId(res: Response): string {
  const id = res.headers.get('x-request-id');
  expect(id, 'X-Request-Id header').toBeTruthy();
  return id as string;
}

/**
 * Asserts an Error answer: the status, `application/json`, a body of exactly `{code, message,
 * status}` with the given code and status, a non-empty message without a stack trace, and (when
 * given) message fragments that name the offending field or the fix.
 */
export async function expectError(
  res: Response,
  status: number,
  code: string,
  mentions: ReadonlyArray<string | RegExp> = [],
): Promise<ErrorBody> {
  const text = await res.text();
  expect(res.status, `status of ${res.url}: ${text}`).toBe(status);
  expectJsonContentType(res);
  expectRequestId(res);
  const body = JSON.parse(text) as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  expect(body.message.trim().length).toBeGreaterThan(0);
  expectNoStackTrace(body.message);
  for (const mention of mentions) {
    if (typeof mention === 'string') expect(body.message).toContain(mention);
    else expect(body.message).toMatch(mention);
  }
  return body;
}

export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/\bat .+\.(?:ts|js|mjs|cjs):\d+/);
  expect(text).not.toMatch(/node_modules|file:\/\//);
}

/** A Pet has exactly id, name, categoryId and optionally status, with the right types. */
export function expectPet(value: unknown): Pet {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  const pet = value as Record<string, unknown>;
  const keys = Object.keys(pet).sort();
  expect(keys.filter((k) => k !== 'status')).toEqual(['categoryId', 'id', 'name']);
  expect(Number.isSafeInteger(pet.id)).toBe(true);
  expect(pet.id as number).toBeGreaterThan(0);
  expect(typeof pet.name).toBe('string');
  expect(Number.isSafeInteger(pet.categoryId)).toBe(true);
  if ('status' in pet) expect(PET_STATUSES).toContain(pet.status);
  return pet as unknown as Pet;
}

/** Reads a 200/201 JSON body after checking status and content type. */
export async function expectJson<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `status of ${res.url}: ${text}`).toBe(status);
  expectJsonContentType(res);
  expectRequestId(res);
  return JSON.parse(text) as T;
}

export function postJson(api: TestApi, body: unknown, init: RequestInit & { auth?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return api.request('/pets', { ...init, method: 'POST', headers, body: JSON.stringify(body) });
}

/** Creates a pet and returns it (asserting 201 and a Pet body). */
export async function createPet(api: TestApi, newPet: { name: string; categoryId: number; status?: Status }): Promise<Pet> {
  const res = await postJson(api, newPet);
  return expectPet(await expectJson(res, 201));
}

/** Creates `count` pets, a few at a time. */
export async function createPets(
  api: TestApi,
  count: number,
  make: (i: number) => { name: string; categoryId: number; status?: Status },
  parallel = 10,
): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, j) => createPet(api, make(start + j)));
    pets.push(...(await Promise.all(batch)));
  }
  return pets;
}

/** The URL of `Link: <url>; rel="next"`, or undefined when there is no such link. */
export function nextLink(res: Response): string | undefined {
  const link = res.headers.get('link');
  if (link === null) return undefined;
  const match = /^<([^>]+)>\s*;\s*rel="next"$/.exec(link.trim());
  expect(match, `Link header "${link}" should be <url>; rel="next"`).not.toBeNull();
  return (match as RegExpExecArray)[1];
}

export interface Walk {
  readonly pets: Pet[];
  readonly pages: Pet[][];
  readonly links: string[];
}

/**
 * Lists from `firstPath` (relative to the base URL) and follows every `rel="next"` Link exactly as
 * given, until a page has none. Bounded, so a Link loop fails the test instead of hanging it.
 */
export async function walkPages(api: TestApi, firstPath: string, maxPages = 1_000): Promise<Walk> {
  const pages: Pet[][] = [];
  const links: string[] = [];
  let res = await api.request(firstPath);
  for (;;) {
    const page = await expectJson<unknown[]>(res, 200);
    expect(Array.isArray(page)).toBe(true);
    pages.push(page.map(expectPet));
    const next = nextLink(res);
    if (next === undefined) break;
    links.push(next);
    expect(pages.length, 'too many pages: does the Link loop?').toBeLessThan(maxPages);
    res = await fetch(next, { headers: { authorization: `Bearer ${api.apiKey}` } });
  }
  return { pets: pages.flat(), pages, links };
}

export const sortedIds = (pets: readonly Pet[]): number[] => pets.map((p) => p.id).sort((a, b) => a - b);

/** The base URL's origin, e.g. `http://127.0.0.1:40123`. */
export const origin = (api: TestApi): string => new URL(api.url).origin;

/**
 * Sets environment variables for the duration of `run`, then restores them exactly; the handlers
 * rebuild their services from them each time (reconfigure, as local mode does).
 */
export async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  reconfigure(vars);
  try {
    return await run();
  } finally {
    reconfigure(saved);
  }
}

/** A loopback port on which nothing listens (bound by the OS, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The body as it came over the wire (compressed, if it was). */
  readonly bytes: Buffer;
}

/**
 * One request with its header lines exactly as given, repetitions included (fetch would merge a
 * repeated header into one comma-separated line). Not checked against the OpenAPI document.
 */
export function rawRequest(url: string, init: { method?: string; headers: [string, string][]; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Given as raw lines, the headers replace Node's defaults, Host among them.
    const lines = init.headers.some(([name]) => name.toLowerCase() === 'host')
      ? init.headers
      : [['Host', new URL(url).host], ...init.headers];
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: lines.flat() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The Error body of a raw response, checked for the spec's shape. */
export function rawError(res: RawResponse, status: number, code: string): ErrorBody {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as ErrorBody;
  expect(body).toEqual({ code, message: expect.any(String), status });
  return body;
}
