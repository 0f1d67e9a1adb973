/**
 * Local mode loses nothing it acknowledged: kill -9 the server in the middle of a burst of creates,
 * start it again on the same data folder, and every pet answered 201 is there, intact.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { Pet } from '#lib/domain/pet.ts';
import { type ChildServer, startChildServer } from '../support/child-server.ts';

let dataDir: string;
const apiKey = generateApiKey();
const servers: ChildServer[] = [];

async function start(): Promise<ChildServer> {
  const server = await startChildServer({ PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: apiKey });
  servers.push(server);
  return server;
}

const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'petstore-durability-'));
});

afterAll(async () => {
  for (const server of servers) await server.kill().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
});

describe('durability of local mode', () => {
  it('keeps every acknowledged pet through kill -9 during a burst of creates', async () => {
    const first = await start();
    const acknowledged: Pet[] = [];
    let stopped = false;
    // Eight clients creating as fast as they can, until the server dies under them.
    const client = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        try {
          const response = await fetch(`${first.url}/pets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `durable ${n}-${i} ✓`, categoryId: n + 1, status: 'available' }),
          });
          if (response.status === 201) acknowledged.push((await response.json()) as Pet);
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    };
    let ended = 0;
    const clients = Array.from({ length: 8 }, (_, n) => client(n).finally(() => ended++));
    while (acknowledged.length < 150) {
      // Every client gave up before the server was killed: fail now, saying why, not at the timeout.
      if (ended === clients.length)
        throw new Error(`the server stopped answering after ${acknowledged.length} creates:\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.kill();
    stopped = true;
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    const second = await start();
    for (const pet of acknowledged) {
      const response = await fetch(`${second.url}/pets/${pet.id}`, { headers });
      expect(response.status, `pet ${pet.id}`).toBe(200);
      expect(await response.json()).toEqual(pet);
    }
    // And the listing has them all, each once.
    const listed: number[] = [];
    let next: string | undefined = `${second.url}/pets?status=available&limit=100`;
    while (next) {
      const response: Response = await fetch(next, { headers });
      listed.push(...((await response.json()) as Pet[]).map((p) => p.id));
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(new Set(listed).size).toBe(listed.length);
    for (const pet of acknowledged) expect(listed).toContain(pet.id);

    // Nothing the server printed contains the key.
    for (const server of servers) expect(server.output()).not.toContain(apiKey);
    expect(await second.stop()).toBe(0);
  });
});
