/**
 * The document in two tools of the ecosystem, run offline from the generators' package: Prism's
 * mock server (`prism mock openapi.json`), walked as a client would, and Spectral's OWASP rate-limit
 * rules. What Prism cannot be made to do is asserted as docs/clients.md states it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PET } from '#lib/domain/pet.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
const KEY = { Authorization: `Bearer psk_${'a'.repeat(32)}` };

let prism: ChildProcess;
let origin: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  prism = spawn(bin('prism'), ['mock', path.join(ROOT, 'openapi.json'), '-h', '127.0.0.1', '-p', String(port)], { stdio: 'pipe' });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    prism.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Prism is listening')) resolve();
    });
    prism.on('exit', (code) => reject(new Error(`prism exited ${code}: ${output}`)));
  });
});

afterAll(() => {
  prism?.kill();
});

describe("Prism's mock of the document", () => {
  it('creates: 201 with the example pet, its rate limits, and (Prism sends every declared header) Idempotent-Replayed', async () => {
    const response = await fetch(`${origin}/pets`, {
      method: 'POST',
      headers: { ...KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(EXAMPLE_PET);
    expect(response.headers.get('RateLimit-Policy')).toMatch(/^"per-key";q=\d+;w=60, "per-address";q=\d+;w=60$/);
    // docs/clients.md: Prism cannot leave an optional header out, nor put Location on its own origin.
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(new URL(response.headers.get('Location') ?? '').origin).not.toBe(origin);
  });

  it('pages: the next page resolves on the mock, and is the same page again (a walk stops on a repeated URL)', async () => {
    let url = new URL(`${origin}/pets?status=available`);
    const visited = new Set<string>();
    while (!visited.has(url.href)) {
      visited.add(url.href);
      const response = await fetch(url, { headers: KEY });
      expect(response.status).toBe(200);
      const next = /<([^>]*)>; rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
      if (next === undefined) break;
      url = new URL(next, url);
      expect(url.origin).toBe(origin);
    }
    expect(visited.size).toBe(2);
  });

  it("answers an invalid request with the document's 422 example (idempotency_key_reused), not the service's 400", async () => {
    const response = await fetch(`${origin}/pets`, { method: 'POST', headers: { ...KEY, 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
  });
});

describe("Spectral's OWASP rate-limit rules", () => {
  it('pass on the document', () => {
    const ruleset = path.join(ROOT, 'test/generators/rate-limit.spectral.mjs');
    const run = spawnSync(bin('spectral'), ['lint', path.join(ROOT, 'openapi.json'), '-r', ruleset, '-f', 'json', '--quiet'], {
      encoding: 'utf8',
    });
    const findings = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as { code: string; path: string[] }[];
    expect(findings.map((f) => `${f.code} ${f.path.join('.')}`)).toEqual([]);
    expect(run.status).toBe(0);
  });
});
