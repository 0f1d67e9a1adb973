/**
 * The idempotency protocol (lib/store/idempotency.ts) on in-memory storage where every storage call
 * of every request waits until the test lets it through and takes effect at that moment. So each
 * test fixes one interleaving of requests with the same key and asserts exactly what each gets;
 * the last suite runs every interleaving. test/store/idempotency.test.ts pins the DynamoDB side.
 */
import { describe, expect, it } from 'vitest';
import type { NewPet, Pet } from '#lib/domain/pet.ts';
import { DependencyUnavailableError, IdempotencyKeyReusedError } from '#lib/store/store-errors.ts';
import {
  hashNewPet,
  IDEMPOTENCY_TTL_SECONDS,
  IdempotencyProtocol,
  type IdempotencyRecord,
  type IdempotencyRecordStore,
  type PetWrites,
  type StoredPet,
} from '#lib/store/idempotency.ts';
import type { CreatedPet } from '#lib/store/pet-store.ts';

const KEY = 'caller-and-key';
const NOW_MS = Date.UTC(2026, 5, 1, 12);
const NOW_SECONDS = NOW_MS / 1000;
const REX: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
const TOM: NewPet = { name: 'Tom', categoryId: 2 };
const STRANGER: NewPet = { name: 'Stranger', categoryId: 9 };
/** Ids each request draws, in order: A's start at 101, B's at 201, C's at 301. */
const ids = (first: number): number[] => Array.from({ length: 30 }, (_, i) => first + i);

const pet = (id: number, body: NewPet): Pet => ({ id, ...body });
const created = (id: number, body: NewPet): CreatedPet => ({ pet: pet(id, body), replayed: false });
const replayed = (id: number, body: NewPet): CreatedPet => ({ pet: pet(id, body), replayed: true });
/** A stored pet as a request with KEY reads it back: marked with KEY by the create that stored it. */
const ours = (id: number, body: NewPet) => ({ pet: pet(id, body), recordKey: KEY });

/** The two tables and the clock that all requests share; writes have the adapters' conditions. */
class World {
  readonly records = new Map<string, IdempotencyRecord>();
  readonly pets = new Map<number, Pet>();
  /** The record key each pet's create marked it with; none for an unrelated pet. */
  readonly marks = new Map<number, string>();
  nowMs = NOW_MS;

  reserve(record: IdempotencyRecord, nowSeconds: number): boolean {
    const held = this.records.get(record.recordKey);
    if (held && !(held.expiresAt < nowSeconds)) return false;
    this.records.set(record.recordKey, { ...record });
    return true;
  }

  read(recordKey: string): IdempotencyRecord | undefined {
    const record = this.records.get(recordKey);
    return record && { ...record };
  }

  repoint(recordKey: string, fromPetId: number, toPetId: number): void {
    const record = this.records.get(recordKey);
    if (record?.petId === fromPetId && !record.created) this.records.set(recordKey, { ...record, petId: toPetId });
  }

  markCreated(recordKey: string, petId: number): void {
    const record = this.records.get(recordKey);
    if (record?.petId === petId) this.records.set(recordKey, { ...record, created: true });
  }

  /** What any delete operation does to a pet: the item is gone, its mark with it. */
  delete(id: number): void {
    this.pets.delete(id);
    this.marks.delete(id);
  }

  put(candidate: Pet, recordKey: string): boolean {
    if (this.pets.has(candidate.id)) return false;
    this.pets.set(candidate.id, { ...candidate });
    this.marks.set(candidate.id, recordKey);
    return true;
  }

  get(id: number): { pet: Pet; recordKey: string | undefined } | undefined {
    const stored = this.pets.get(id);
    return stored && { pet: { ...stored }, recordKey: this.marks.get(id) };
  }

  /** A record another request left: `petId` reserved, its pet perhaps never written. */
  seedRecord(petId: number, body: NewPet, expiresAt = NOW_SECONDS + 60): void {
    this.records.set(KEY, { recordKey: KEY, petId, bodyHash: hashNewPet(body), expiresAt });
  }
}

type Step = 'reserve' | 'read' | 'repoint' | 'mark' | 'put' | 'get';

interface ParkedCall {
  readonly step: Step;
  proceed(): unknown;
  /** Answers with `error`; the call takes effect first when `applied` (its answer was lost). */
  fail(error: unknown, applied: boolean): void;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function stop(message: string): never {
  throw new Error(message);
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * One request running the protocol against the world. It parks at each storage call until the test
 * lets that call through (`step`, `fail`, `finish`); a request the test never lets on has died there.
 */
class Request implements IdempotencyRecordStore, PetWrites {
  readonly name: string;
  readonly world: World;
  readonly outcome: Promise<CreatedPet>;
  /** Whether the key's record was marked `created` when the request answered with a pet (false when it failed). */
  readonly markedWhenAnswered: Promise<boolean>;
  #next = deferred<ParkedCall | 'finished'>();

  constructor(name: string, world: World, newPet: NewPet, petIds: number[]) {
    this.name = name;
    this.world = world;
    const newPetId = () => petIds.shift() ?? stop(`${name} drew more pet ids than the test gave it`);
    this.outcome = new IdempotencyProtocol(this, this, { now: () => world.nowMs, newPetId }).run(KEY, newPet);
    const finished = () => this.#next.resolve('finished');
    this.outcome.then(finished, finished);
    this.markedWhenAnswered = this.outcome.then(
      () => world.records.get(KEY)?.created === true,
      () => false,
    );
  }

  reserve(record: IdempotencyRecord, nowSeconds: number): Promise<boolean> {
    return this.#park('reserve', () => this.world.reserve(record, nowSeconds));
  }

  read(recordKey: string): Promise<IdempotencyRecord | undefined> {
    return this.#park('read', () => this.world.read(recordKey));
  }

  repoint(recordKey: string, fromPetId: number, toPetId: number): Promise<void> {
    return this.#park('repoint', () => this.world.repoint(recordKey, fromPetId, toPetId));
  }

  markCreated(recordKey: string, petId: number): Promise<void> {
    return this.#park('mark', () => this.world.markCreated(recordKey, petId));
  }

  /** The put, then, when refused, the read-back of what holds the id: two steps, as in DynamoDB. */
  async put(candidate: Pet, recordKey: string): Promise<'stored' | StoredPet | undefined> {
    if (await this.#park('put', () => this.world.put(candidate, recordKey))) return 'stored';
    return this.get(candidate.id);
  }

  get(id: number): Promise<StoredPet | undefined> {
    return this.#park('get', () => this.world.get(id));
  }

  /** Where the request waits now: the storage call it is about to make, or 'finished'. */
  async parkedAt(): Promise<Step | 'finished'> {
    const next = await this.#next.promise;
    return next === 'finished' ? next : next.step;
  }

  /** Lets the next storage call, which must be `expected`, take effect now; returns its answer. */
  async step(expected?: Step): Promise<unknown> {
    return (await this.#take(expected)).proceed();
  }

  async fail(expected: Step, error: unknown, { applied }: { applied: boolean }): Promise<void> {
    (await this.#take(expected)).fail(error, applied);
  }

  /** Lets every remaining call through, in order; returns the steps taken. */
  async finish(): Promise<Step[]> {
    const steps: Step[] = [];
    for (let step = await this.parkedAt(); step !== 'finished'; step = await this.parkedAt()) {
      steps.push(step);
      await this.step();
    }
    return steps;
  }

  #park<T>(step: Step, effect: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#next.resolve({
        step,
        proceed: () => {
          const answer = effect();
          resolve(answer);
          return answer;
        },
        fail: (error, applied) => {
          if (applied) effect();
          reject(error);
        },
      });
    });
  }

  async #take(expected: Step | undefined): Promise<ParkedCall> {
    const next = await this.#next.promise;
    if (next === 'finished') stop(`${this.name} has finished; it cannot ${expected ?? 'step'}`);
    if (expected !== undefined && next.step !== expected) stop(`${this.name} is about to ${next.step}, not ${expected}`);
    // Before the call answers, so that the request's next call parks on a fresh promise.
    this.#next = deferred();
    return next;
  }
}

describe('one request at a time', () => {
  it('the first request reserves the key for a fresh id, stores the pet under it, and is no replay', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    expect(await a.step('reserve')).toBe(true);
    expect(await a.step('put')).toBe(true);
    await a.step('mark');
    expect(await a.outcome).toEqual(created(101, REX));
    expect(world.records.get(KEY)).toEqual({
      recordKey: KEY,
      petId: 101,
      bodyHash: hashNewPet(REX),
      expiresAt: NOW_SECONDS + IDEMPOTENCY_TTL_SECONDS,
      created: true,
    });
    expect([...world.pets.values()]).toEqual([pet(101, REX)]);
  });

  it('a retry after the first answered finds the record marked, puts nothing and replays the same pet', async () => {
    const world = new World();
    await new Request('A', world, REX, ids(101)).finish();
    // The same pet, its fields sent in another order.
    const b = new Request('B', world, { status: 'available', categoryId: 1, name: 'Rex' }, ids(201));
    expect(await b.step('reserve')).toBe(false);
    expect(await b.step('read')).toMatchObject({ petId: 101, created: true });
    expect(await b.step('get')).toEqual(ours(101, REX));
    expect(await b.outcome).toEqual(replayed(101, REX));
    expect(world.pets.size).toBe(1);
  });

  it('a retry after a later write changed the pet replays it as it is now: the mark, not the fields, makes it ours', async () => {
    const world = new World();
    await new Request('A', world, REX, ids(101)).finish();
    world.pets.set(101, pet(101, TOM));
    const b = new Request('B', world, REX, ids(201));
    expect(await b.finish()).toEqual(['reserve', 'read', 'get']);
    expect(await b.outcome).toEqual(replayed(101, TOM));
    expect(world.pets.size).toBe(1);
  });

  it.each([
    ['another pet', TOM],
    ['the same pet without its status', { name: 'Rex', categoryId: 1 }],
  ])('the key sent again with %s is refused before any pet is written', async (_, body) => {
    const world = new World();
    await new Request('A', world, REX, ids(101)).finish();
    const b = new Request('B', world, body, ids(201));
    expect(await b.finish()).toEqual(['reserve', 'read']);
    await expect(b.outcome).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect([...world.pets.values()]).toEqual([pet(101, REX)]);
  });
});

describe('two requests with one key, racing', () => {
  it('A reserves and stores the pet; B, which found A’s record, replays A’s pet', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const b = new Request('B', world, REX, ids(201));
    expect(await a.step('reserve')).toBe(true);
    expect(await b.step('reserve')).toBe(false);
    expect(await b.step('read')).toMatchObject({ petId: 101 });
    expect(await a.step('put')).toBe(true);
    expect(await b.step('put')).toBe(false);
    expect(await b.step('get')).toEqual(ours(101, REX));
    // B answers only once the record is marked, whichever of them marks it first.
    await b.step('mark');
    await a.step('mark');
    expect(await a.outcome).toEqual(created(101, REX));
    expect(await b.outcome).toEqual(replayed(101, REX));
    expect(world.pets.size).toBe(1);
  });

  it('B overtakes A and stores the pet under the id A reserved; A, still running, replays it', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const b = new Request('B', world, REX, ids(201));
    await a.step('reserve');
    expect(await b.step('reserve')).toBe(false);
    await b.step('read');
    expect(await b.step('put')).toBe(true);
    await b.step('mark');
    expect(await b.outcome).toEqual(created(101, REX));
    expect(await a.step('put')).toBe(false);
    expect(await a.step('get')).toEqual(ours(101, REX));
    await a.step('mark');
    expect(await a.outcome).toEqual(replayed(101, REX));
    expect(world.pets.size).toBe(1);
  });

  it('B with another pet is refused while A’s create is still in flight, and A goes on to create', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const b = new Request('B', world, TOM, ids(201));
    await a.step('reserve');
    expect(await b.finish()).toEqual(['reserve', 'read']);
    await expect(b.outcome).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await a.finish()).toEqual(['put', 'mark']);
    expect(await a.outcome).toEqual(created(101, REX));
  });
});

describe('a request that dies or fails half-way, then a retry', () => {
  it('dies after reserving: the retry stores the pet under the reserved id and is no replay; if A was only stalled, it replays', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    await a.step('reserve');
    expect(await a.parkedAt()).toBe('put');
    const retry = new Request('retry', world, REX, ids(201));
    expect(await retry.finish()).toEqual(['reserve', 'read', 'put', 'mark']);
    expect(await retry.outcome).toEqual(created(101, REX));
    // A wakes up after all, at the put it decided on before the mark.
    expect(await a.finish()).toEqual(['put', 'get', 'mark']);
    expect(await a.outcome).toEqual(replayed(101, REX));
  });

  it('dies after storing the pet, before marking the record: the retry replays it and marks the record', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    await a.step('reserve');
    await a.step('put');
    const retry = new Request('retry', world, REX, ids(201));
    expect(await retry.finish()).toEqual(['reserve', 'read', 'put', 'get', 'mark']);
    expect(await retry.outcome).toEqual(replayed(101, REX));
    expect(world.records.get(KEY)?.created).toBe(true);
  });

  it.each([
    { applied: false, retryGets: created(101, REX) },
    { applied: true, retryGets: replayed(101, REX) },
  ])(
    'a failed pet put (stored: $applied) fails A with that very error; the retry gets the pet, stored once',
    async ({ applied, retryGets }) => {
      const world = new World();
      const a = new Request('A', world, REX, ids(101));
      const unavailable = new DependencyUnavailableError('create pet: the store is unavailable', { cause: new Error('ECONNRESET') });
      await a.step('reserve');
      await a.fail('put', unavailable, { applied });
      await expect(a.outcome).rejects.toBe(unavailable);
      const retry = new Request('retry', world, REX, ids(201));
      await retry.finish();
      expect(await retry.outcome).toEqual(retryGets);
      expect(world.pets.size).toBe(1);
    },
  );

  it('a failed reserve fails the request with that very error and leaves no record', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const throttled = new DependencyUnavailableError('reserve idempotency key: the store is throttling requests', {
      cause: new Error('throttled'),
    });
    await a.fail('reserve', throttled, { applied: false });
    await expect(a.outcome).rejects.toBe(throttled);
    expect(world.records.size).toBe(0);
  });

  it('dies between finding its reserved id taken and repointing: the retry repoints and creates; A then replays', async () => {
    const world = new World();
    world.pets.set(101, pet(101, STRANGER));
    const a = new Request('A', world, REX, ids(101));
    await a.step('reserve');
    expect(await a.step('put')).toBe(false);
    expect(await a.step('get')).toEqual({ pet: pet(101, STRANGER) });
    expect(await a.parkedAt()).toBe('repoint');
    const retry = new Request('retry', world, REX, ids(201));
    // 201 is drawn for a reserve that fails, 202 for the repoint, 203 for the second reserve.
    expect(await retry.finish()).toEqual(['reserve', 'read', 'put', 'get', 'repoint', 'reserve', 'read', 'put', 'mark']);
    expect(await retry.outcome).toEqual(created(202, REX));
    // A's repoint from 101 no longer matches the record, so it changes nothing; the record is marked.
    expect(await a.finish()).toEqual(['repoint', 'reserve', 'read', 'get']);
    expect(await a.outcome).toEqual(replayed(202, REX));
    expect(world.records.get(KEY)?.petId).toBe(202);
    expect([...world.pets.values()]).toEqual([pet(101, STRANGER), pet(202, REX)]);
  });
});

describe('a pet deleted, then a retry', () => {
  it.each<[string, Step[], Step[]]>([
    ['after its create answered', ['reserve', 'put', 'mark'], []],
    ['between the first put and its mark', ['reserve', 'put'], ['mark']],
  ])('deleted %s: the mark lands, and a retry replays the pet as created, storing nothing', async (_, beforeDelete, afterDelete) => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    for (const step of beforeDelete) await a.step(step);
    world.delete(101);
    for (const step of afterDelete) await a.step(step);
    expect(await a.outcome).toEqual(created(101, REX));
    const retry = new Request('retry', world, REX, ids(201));
    expect(await retry.finish()).toEqual(['reserve', 'read', 'get']);
    expect(await retry.outcome).toEqual(replayed(101, REX));
    expect(world.pets.size).toBe(0);
  });

  it('deleted between a racing request’s failed put and its read: it keeps the record’s id and replays', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const b = new Request('B', world, REX, ids(201));
    await a.step('reserve');
    await b.step('reserve');
    await b.step('read');
    await a.step('put');
    expect(await b.step('put')).toBe(false);
    await a.step('mark');
    expect(await a.outcome).toEqual(created(101, REX));
    world.delete(101);
    expect(await b.step('get')).toBeUndefined();
    // Gone, not taken: B's repoint fails on the marked record, which B then reads back.
    expect(await b.finish()).toEqual(['repoint', 'reserve', 'read', 'get']);
    expect(await b.outcome).toEqual(replayed(101, REX));
    expect(world.records.get(KEY)?.petId).toBe(101);
    expect(world.pets.size).toBe(0);
  });

  // The window left (docs/data-model.md#idempotent-creates): a put decided on the record before its
  // mark that lands after the pet was deleted stores the pet again. Pinned, so that closing it shows here.
  it('the window left: the first request dies between its put and its mark, the pet is deleted, and a retry stores it again', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    await a.step('reserve');
    await a.step('put');
    world.delete(101);
    const retry = new Request('retry', world, REX, ids(201));
    expect(await retry.finish()).toEqual(['reserve', 'read', 'put', 'mark']);
    expect(await retry.outcome).toEqual(created(101, REX));
  });

  it('the window left: a retry reads the record before the mark, and its put lands after the delete', async () => {
    const world = new World();
    const a = new Request('A', world, REX, ids(101));
    const retry = new Request('retry', world, REX, ids(201));
    await a.step('reserve');
    await retry.step('reserve');
    await retry.step('read');
    expect(await a.finish()).toEqual(['put', 'mark']);
    world.delete(101);
    expect(await retry.finish()).toEqual(['put', 'mark']);
    expect(await retry.outcome).toEqual(created(101, REX));
  });
});

describe('a reserved id taken by an unrelated pet', () => {
  // The very same fields do not make it ours: only the mark of this key's create does.
  it.each([
    ['another pet', STRANGER],
    ['a pet with the very same fields', REX],
  ])('one request moves the key to a fresh id and creates the pet there (the unrelated pet: %s)', async (_, unrelated) => {
    const world = new World();
    world.pets.set(101, pet(101, unrelated));
    const a = new Request('A', world, REX, ids(101));
    expect(await a.finish()).toEqual(['reserve', 'put', 'get', 'repoint', 'reserve', 'read', 'put', 'mark']);
    expect(await a.outcome).toEqual(created(102, REX));
    expect(world.records.get(KEY)?.petId).toBe(102);
    expect(world.pets.get(101)).toEqual(pet(101, unrelated));
  });

  it('two requests both see it: only the first repoint lands, and both settle on its id', async () => {
    const world = new World();
    world.pets.set(101, pet(101, STRANGER));
    const a = new Request('A', world, REX, ids(101));
    const b = new Request('B', world, REX, ids(201));
    await a.step('reserve');
    await b.step('reserve');
    await b.step('read');
    expect(await a.step('put')).toBe(false);
    expect(await b.step('put')).toBe(false);
    await a.step('get');
    await b.step('get');
    await a.step('repoint'); // 101 → 102
    await b.step('repoint'); // 101 → 202: the record is at 102 already
    expect(world.records.get(KEY)?.petId).toBe(102);
    await a.step('reserve');
    await b.step('reserve');
    expect(await a.step('read')).toMatchObject({ petId: 102 });
    expect(await b.step('read')).toMatchObject({ petId: 102 });
    expect(await b.step('put')).toBe(true);
    expect(await a.step('put')).toBe(false);
    expect(await a.step('get')).toEqual(ours(102, REX));
    await b.step('mark');
    await a.step('mark');
    expect(await b.outcome).toEqual(created(102, REX));
    expect(await a.outcome).toEqual(replayed(102, REX));
    expect([...world.pets.keys()]).toEqual([101, 102]);
  });

  it('gives up after 4 attempts when every id it draws is taken', async () => {
    const world = new World();
    for (const id of ids(101)) world.pets.set(id, pet(id, STRANGER));
    const a = new Request('A', world, REX, ids(101));
    const again = ['reserve', 'read', 'put', 'get', 'repoint'];
    expect(await a.finish()).toEqual(['reserve', 'put', 'get', 'repoint', ...again, ...again, ...again]);
    await expect(a.outcome).rejects.toThrow('Idempotent create did not settle after 4 attempts');
  });
});

describe('expiry', () => {
  it('a record past its expiry counts as absent: the key is reserved afresh, whatever pet it held', async () => {
    const world = new World();
    world.seedRecord(50, TOM, NOW_SECONDS - 1);
    const a = new Request('A', world, REX, ids(101));
    expect(await a.finish()).toEqual(['reserve', 'put', 'mark']);
    expect(await a.outcome).toEqual(created(101, REX));
    expect(world.records.get(KEY)).toMatchObject({
      petId: 101,
      bodyHash: hashNewPet(REX),
      expiresAt: NOW_SECONDS + IDEMPOTENCY_TTL_SECONDS,
    });
  });

  it('the same pet after expiry is a new pet, not a replay of the old one', async () => {
    const world = new World();
    await new Request('A', world, REX, ids(101)).finish();
    world.nowMs += (IDEMPOTENCY_TTL_SECONDS + 1) * 1000;
    const later = new Request('later', world, REX, ids(201));
    expect(await later.finish()).toEqual(['reserve', 'put', 'mark']);
    expect(await later.outcome).toEqual(created(201, REX));
    expect([...world.pets.keys()]).toEqual([101, 201]);
  });

  it('a record expiring this very second still holds (the condition is expiresAt < now)', async () => {
    const world = new World();
    world.seedRecord(50, TOM, NOW_SECONDS);
    const a = new Request('A', world, REX, ids(101));
    expect(await a.finish()).toEqual(['reserve', 'read']);
    await expect(a.outcome).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('a record deleted (TTL) between the failed reserve and the read: the request reserves again', async () => {
    const world = new World();
    world.seedRecord(50, TOM);
    const a = new Request('A', world, REX, ids(101));
    expect(await a.step('reserve')).toBe(false);
    world.records.delete(KEY);
    expect(await a.step('read')).toBeUndefined();
    expect(await a.step('reserve')).toBe(true);
    expect(await a.step('put')).toBe(true);
    await a.step('mark');
    // 101 was drawn for the reserve that failed.
    expect(await a.outcome).toEqual(created(102, REX));
  });
});

/**
 * Runs the requests that `start` makes in every order of their storage calls (depth-first over
 * which parked request goes next) and hands each finished run to `check`. Returns the run count.
 */
async function everyInterleaving(
  start: () => { world: World; requests: Request[] },
  check: (world: World, outcomes: PromiseSettledResult<CreatedPet>[], markedWhenAnswered: boolean[]) => void,
): Promise<number> {
  const toRun: number[][] = [[]];
  let runs = 0;
  for (let prefix = toRun.pop(); prefix; prefix = toRun.pop()) {
    const { world, requests } = start();
    const order = [...prefix];
    for (let depth = 0; ; depth++) {
      const ready: number[] = [];
      for (const [index, request] of requests.entries()) if ((await request.parkedAt()) !== 'finished') ready.push(index);
      const [first, ...others] = ready;
      if (first === undefined) break;
      if (depth === order.length) {
        order.push(first);
        for (const other of others) toRun.push([...order.slice(0, depth), other]);
      }
      await requests[order[depth] as number]?.step();
    }
    const outcomes = await Promise.allSettled(requests.map((request) => request.outcome));
    check(world, outcomes, await Promise.all(requests.map((request) => request.markedWhenAnswered)));
    runs++;
  }
  return runs;
}

/** The pets of `body` in the world: an idempotent create must leave exactly one. */
const petsLike = (world: World, body: NewPet) => [...world.pets.values()].filter((stored) => hashNewPet(stored) === hashNewPet(body));

describe('every interleaving', () => {
  // `orders` is how many distinct orders of storage calls the requests have, so a broken explorer
  // cannot pass quietly. Two requests, fresh key: whoever reserves first (2 ways) then puts and marks;
  // the other reads the record after the mark and only reads the pet (3 ways), or reads it before
  // and puts before the first put (4 ways) or after it (12 ways): 38.
  it.each([
    { case: 'two requests, fresh key', requests: 2, seed: (_: World) => undefined, orders: 38 },
    { case: 'three requests, fresh key', requests: 3, seed: (_: World) => undefined, orders: 34824 },
    {
      case: 'two requests, key left reserved by a request that died',
      requests: 2,
      seed: (world: World) => world.seedRecord(50, REX),
      orders: 90,
    },
    {
      case: 'two requests, both first ids taken by unrelated pets',
      requests: 2,
      seed: (world: World) => {
        world.pets.set(101, pet(101, STRANGER));
        world.pets.set(201, pet(201, STRANGER));
      },
      orders: 23886,
    },
  ])('$case: one pet, every answer names it, exactly one is not a replay', async ({ requests, seed, orders }) => {
    const runs = await everyInterleaving(
      () => {
        const world = new World();
        seed(world);
        return { world, requests: Array.from({ length: requests }, (_, i) => new Request(`R${i}`, world, REX, ids(101 + 100 * i))) };
      },
      (world, outcomes, markedWhenAnswered) => {
        const [one, ...more] = petsLike(world, REX);
        expect(one).toBeDefined();
        expect(more).toEqual([]);
        expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.pet : outcome.reason))).toEqual(
          outcomes.map(() => one),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled' && !outcome.value.replayed)).toHaveLength(1);
        expect(world.records.get(KEY)?.petId).toBe(one?.id);
        // So a client can delete the pet only after the mark, which keeps a later retry from storing it again.
        expect(markedWhenAnswered, 'every answer came after the mark').toEqual(outcomes.map(() => true));
      },
    );
    expect(runs).toBe(orders);
  });

  it('two retries after the pet was created and deleted: both replay it as created, and nothing is stored', async () => {
    const runs = await everyInterleaving(
      () => {
        const world = new World();
        world.seedRecord(50, REX);
        world.markCreated(KEY, 50);
        return { world, requests: [new Request('A', world, REX, ids(101)), new Request('B', world, REX, ids(201))] };
      },
      (world, outcomes) => {
        expect(outcomes).toEqual(outcomes.map(() => ({ status: 'fulfilled', value: replayed(50, REX) })));
        expect(world.pets.size).toBe(0);
      },
    );
    expect(runs).toBe(20);
  });

  it('two requests with different pets: whoever reserves first creates, the other is refused', async () => {
    const runs = await everyInterleaving(
      () => {
        const world = new World();
        return { world, requests: [new Request('A', world, REX, ids(101)), new Request('B', world, TOM, ids(201))] };
      },
      (world, [a, b]) => {
        const winner = a?.status === 'fulfilled' ? REX : TOM;
        expect([a?.status, b?.status].sort()).toEqual(['fulfilled', 'rejected']);
        const refused = a?.status === 'rejected' ? a : b;
        expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(IdempotencyKeyReusedError);
        expect([...world.pets.values()]).toEqual([pet(world.records.get(KEY)?.petId ?? 0, winner)]);
        expect(world.records.get(KEY)?.bodyHash).toBe(hashNewPet(winner));
      },
    );
    expect(runs).toBe(12);
  });
});
