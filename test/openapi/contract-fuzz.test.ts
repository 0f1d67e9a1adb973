/**
 * Property-based, against the contract a client reads: requests of every kind (each operation,
 * unknown paths, wrong methods, odd Content-Types, missing, garbled and unknown keys, odd bodies and
 * queries) go to local mode serving the staging template, web ACL included, and every answer is
 * checked against the document the stage serves (`GET /v1/openapi.json`) with
 * test/support/response-contract.ts. An answer the document does not declare fails the test.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { PET_STATUSES } from '#lib/domain/pet.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import type { OpenApiDocument } from '../../infra/openapi/document.ts';
import { type ContractValidator, createContractValidator } from '../support/response-contract.ts';
import { testStore } from '../support/store-endpoint.ts';

/**
 * The staging template with its limits out of reach: the web ACL's rules all apply (its 401 to a
 * request without a well-formed key is one of the answers checked), but no rate rule or throttle
 * turns the run into a series of 429s.
 */
function withoutRateLimits(template: CfnTemplate): CfnTemplate {
  const copy = structuredClone(template);
  for (const resource of Object.values(copy.Resources)) {
    const props = resource.Properties ?? {};
    for (const rule of (props.Rules ?? []) as { Statement?: { RateBasedStatement?: { Limit?: number } } }[]) {
      if (rule.Statement?.RateBasedStatement) rule.Statement.RateBasedStatement.Limit = 2_000_000_000;
    }
    for (const setting of (props.MethodSettings ?? []) as Record<string, unknown>[]) {
      if (setting.ThrottlingRateLimit !== undefined) setting.ThrottlingRateLimit = 1_000_000;
      if (setting.ThrottlingBurstLimit !== undefined) setting.ThrottlingBurstLimit = 1_000_000;
    }
  }
  return copy;
}

let stack: LocalStack;
let closeStore: () => Promise<void>;
let validator: ContractValidator;
let origin: string;
const apiKey = generateApiKey();
const petIds: number[] = [];

beforeAll(async () => {
  const template = inject('stageTemplate');
  if (!template) throw new Error('the global setup provides the staging template');
  const store = await testStore();
  closeStore = () => store.close();
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    apiKey,
    dynamodbEndpoint: store.endpoint,
    tablePrefix: store.tablePrefix,
    template: withoutRateLimits(template),
    throttling: true,
  });
  origin = new URL(stack.url).origin;
  validator = createContractValidator((await (await fetch(`${stack.url}/openapi.json`)).json()) as OpenApiDocument);
  for (const [name, status] of [
    ['Rex', 'available'],
    ['Tom', 'sold'],
    ['Bo', undefined],
  ] as const) {
    const res = await fetch(`${stack.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1, ...(status ? { status } : {}) }),
    });
    if (res.status !== 201) throw new Error(`creating ${name} answered ${res.status}`);
    petIds.push(((await res.json()) as { id: number }).id);
  }
});

afterAll(async () => {
  await stack?.close();
  await closeStore?.();
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

const text = fc.string({ maxLength: 12 });
const petId = fc.oneof(
  fc.constantFrom(0, 1, 2).map((i) => () => String(petIds[i])),
  fc.constantFrom('1', '0', '-1', 'abc', '9007199254740992', '1e3', '%20', '__proto__').map((id) => () => id),
  fc.bigInt({ min: 1n, max: 2n ** 60n }).map((id) => () => String(id)),
);
const path = fc.oneof(
  { weight: 4, arbitrary: fc.constant(() => '/v1/pets') },
  { weight: 4, arbitrary: petId.map((id) => () => `/v1/pets/${id()}`) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '/v1/nope',
        '/v1/pets/1/toys',
        '/v1',
        '/',
        '/pets',
        '/v2/pets',
        '/v1/pets/',
        '//v1//pets',
        '/v1/PETS',
        '/v1/openapi.json',
      )
      .map((p) => () => p),
  },
  { weight: 1, arbitrary: fc.array(text.map(encodeURIComponent), { minLength: 1, maxLength: 3 }).map((s) => () => `/v1/${s.join('/')}`) },
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom('limit', 'status', 'cursor', 'other'),
      fc.oneof(fc.constantFrom('1', '20', '100', '0', '101', 'x', '', ...PET_STATUSES, 'Sold', 'abc.def'), text),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => new URLSearchParams(pairs).toString());
const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'image/png',
    'application/x-foo',
    'text/csv',
    'application/xml',
    'application/octet-stream',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/problem+json',
    'application/json; charset=latin1',
  ),
  { nil: undefined },
);
const authorization = fc.oneof(
  { weight: 4, arbitrary: fc.constant(() => `Bearer ${apiKey}`) },
  { weight: 1, arbitrary: fc.constant(() => `bearer   ${apiKey}`) },
  { weight: 2, arbitrary: fc.constant(() => undefined) },
  { weight: 1, arbitrary: fc.constant(() => `Bearer ${generateApiKey()}`) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer psk_short', `Token ${'a'.repeat(10)}`), text)
      .filter((value) => /^[\x20-\x7e]*$/.test(value))
      .map((value) => () => value),
  },
);
const body = fc.oneof(
  fc.record({ name: fc.constantFrom('Rex', ' ', 'x'.repeat(201)), categoryId: fc.constantFrom(1, 0, 2 ** 53) }, { requiredKeys: [] }),
  fc.record({ name: fc.constant('Kit'), categoryId: fc.constant(2), status: fc.constantFrom(...PET_STATUSES, 'lost') }),
  fc.jsonValue({ maxDepth: 2 }),
);
const bytes = fc.oneof(
  body.map((value) => new TextEncoder().encode(JSON.stringify(value))),
  fc.uint8Array({ maxLength: 32 }),
);

const request = fc.record({
  method: fc.constantFrom(...METHODS),
  path,
  query,
  contentType,
  authorization,
  idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('', 'with space', 'a'.repeat(256))), { nil: undefined }),
  acceptEncoding: fc.constantFrom('identity', 'gzip'),
  body: fc.option(bytes, { nil: undefined }),
});

describe('every answer of local mode is one the served document declares', () => {
  it('for requests of every kind, web ACL included', async () => {
    const undeclared = new Map<string, number>();
    let answers = 0;
    let departing = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = { 'accept-encoding': r.acceptEncoding };
        const auth = r.authorization();
        if (auth !== undefined) headers.authorization = auth;
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
        const url = `${origin}${r.path()}${r.query ? `?${r.query}` : ''}`;
        const withBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const response = await fetch(url, { method: r.method, headers, ...(withBody ? { body: r.body } : {}) });
        answers++;
        const problems = await validator.problems(r.method, url, response);
        if (problems.length > 0) departing++;
        for (const problem of problems) {
          const key = problem.replace(/\d{4,}/g, 'N');
          undeclared.set(key, (undeclared.get(key) ?? 0) + 1);
        }
        // Read, not cancelled: the validator read a clone (a tee), whose cancel waits for both branches.
        await response.arrayBuffer();
      }),
      { numRuns: 500 },
    );
    const summary = [...undeclared].sort(([, a], [, b]) => b - a).map(([problem, count]) => `${count} × ${problem}`);
    expect(summary, `${departing} of ${answers} answers depart from the document`).toEqual([]);
  }, 120_000);
});
