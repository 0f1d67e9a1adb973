/**
 * The two things a newcomer does first: `npm start` (which prints a working development key on the
 * first start) and `npm run keys` (create, list, revoke) against local mode and any endpoint.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../infra/cli/keys.ts';
import { UsageError } from '../../infra/cli/usage-error.ts';
import { type ChildServer, startChildServer } from '../support/child-server.ts';
import { testStore, type TestStore } from '../support/store-endpoint.ts';
import { openLocalStore } from '../../infra/local/local-stack.ts';
import { generateApiKey, newApiKeyRecord } from '#lib/auth/api-keys.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';

let dataDir: string;
const servers: ChildServer[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'petstore-start-'));
});

afterAll(async () => {
  for (const server of servers) await server.kill().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
});

async function keys(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(args, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

/** A port nothing listens on now: the system's pick for a server that is closed at once. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const get = (url: string, key: string) => fetch(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });

describe('npm start', () => {
  it('prints a working development key on the first start only, and never logs it', async () => {
    const env = { PETSTORE_DATA_DIR: dataDir, PETSTORE_API_KEY: '' };
    const first = await startChildServer(env);
    servers.push(first);
    const key = /development API key[^:]*: (psk_[A-Za-z0-9_-]{32})/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    expect(first.output()).toContain(`store: embedded dynalite (${dataDir})`);
    expect((await get(first.url, key as string)).status).toBe(200);
    expect(first.output().split(key as string)).toHaveLength(3); // printed in two lines, logged nowhere else
    expect(await first.stop()).toBe(0);

    const second = await startChildServer(env);
    servers.push(second);
    expect(second.output()).not.toContain('psk_');
    expect((await get(second.url, key as string)).status).toBe(200);

    // The key CLI finds the running server through its data folder.
    const created = await keys('create', '--label', 'while running', '--data-dir', dataDir);
    expect(created.out).toContain('the running local API');
    const newKey = /^psk_\S+$/m.exec(created.out)?.[0] as string;
    expect((await get(second.url, newKey)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('listens on the port --port names, over PORT, and refuses one out of range', async () => {
    const port = await freePort();
    const server = await startChildServer({ PETSTORE_DATA_DIR: ':memory:', PORT: '1' }, ['--port', String(port)]);
    servers.push(server);
    expect(server.url).toBe(`http://127.0.0.1:${port}/v1`);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    await expect(startChildServer({ PETSTORE_DATA_DIR: ':memory:' }, ['--port', '65536'])).rejects.toThrow(
      /exited with 2[\s\S]*--port \(or PORT\) must be a port number from 0 to 65535, not "65536"/,
    );
  });

  it('refuses a malformed PETSTORE_API_KEY with an explanation', async () => {
    await expect(startChildServer({ PETSTORE_DATA_DIR: ':memory:', PETSTORE_API_KEY: 'secret' })).rejects.toThrow(
      /PETSTORE_API_KEY must be "psk_"/,
    );
  });
});

describe('npm run keys', () => {
  it('creates, lists and revokes keys in a local data folder', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'petstore-keys-'));
    try {
      const created = await keys('create', '--label', 'alice', '--expires-in', '30d', '--data-dir', folder);
      expect(created.code).toBe(0);
      const id = /Created (key_[0-9a-f]{16}) \(alice\)/.exec(created.out)?.[1] as string;
      expect(id).toBeDefined();
      const key = /^psk_[A-Za-z0-9_-]{32}$/m.exec(created.out)?.[0] as string;
      expect(key).toBeDefined();

      const listed = await keys('list', '--data-dir', folder);
      expect(listed.out).toMatch(new RegExp(`${id}\\s+alice\\s+\\S+\\s+\\S+\\s+active`));
      expect(listed.out).not.toContain(key);

      expect((await keys('revoke', id, '--data-dir', folder)).out).toContain(`Revoked ${id}`);
      expect((await keys('list', '--data-dir', folder)).out).toMatch(new RegExp(`${id}.*revoked`));
      expect((await keys('revoke', 'key_0000000000000000', '--data-dir', folder)).code).toBe(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('works on any DynamoDB endpoint and table', async () => {
    const store: TestStore = await testStore();
    const local = await openLocalStore({ dynamodbEndpoint: store.endpoint, tablePrefix: store.tablePrefix });
    try {
      const target = ['--endpoint', store.endpoint, '--table', local.tableNames.apiKeys];
      expect((await keys('create', '--label', 'remote', ...target)).out).toContain(`table ${local.tableNames.apiKeys}`);
      expect((await keys('list', ...target)).out).toContain('remote');
      // A label stored with a newline (before labels were checked, or by another tool) stays on its row.
      const client = createDocumentClient({ endpoint: store.endpoint });
      try {
        await new DynamoDbApiKeyStore(client, local.tableNames.apiKeys).add(newApiKeyRecord(generateApiKey(), 'two\nlines'));
      } finally {
        client.destroy();
      }
      const listed = (await keys('list', ...target)).out.split('\n');
      expect(listed).toHaveLength(3);
      expect(listed.find((row) => row.includes('two'))).toMatch(/two\\u000alines\s+\S+\s+-\s+active$/);
    } finally {
      await local.close();
      await store.close();
    }
  });

  it('explains usage mistakes', async () => {
    await expect(keys('create')).rejects.toBeInstanceOf(UsageError);
    await expect(keys('revoke')).rejects.toBeInstanceOf(UsageError);
    await expect(keys('bogus')).rejects.toBeInstanceOf(UsageError);
    await expect(keys('list', '--endpoint', 'http://127.0.0.1:1')).rejects.toThrow(/--endpoint needs --table/);
    await expect(keys('list', '--stage', 'qa')).rejects.toThrow(/Unknown stage "qa"/);
    for (const bad of ['soon', '3x', '0d']) {
      const refused = keys('create', '--label', 'x', '--expires-in', bad, '--data-dir', ':memory:');
      await expect(refused).rejects.toBeInstanceOf(UsageError);
      await expect(refused).rejects.toThrow(/--expires-in: Invalid duration/);
    }
    const absurd = keys('create', '--label', 'x', '--expires-in', '999999999999d', '--data-dir', ':memory:');
    await expect(absurd).rejects.toBeInstanceOf(UsageError);
    await expect(absurd).rejects.toThrow(/--expires-in: .*at most 3650d/);
    const twoLines = keys('create', '--label', 'evil\nSTATE: active', '--data-dir', ':memory:');
    await expect(twoLines).rejects.toBeInstanceOf(UsageError);
    await expect(twoLines).rejects.toThrow(/--label: .*control character/);
    const typo = path.join(dataDir, 'no-such-folder');
    await expect(keys('list', '--data-dir', typo)).rejects.toThrow(/No local data folder at .*no-such-folder/);
    await expect(keys('revoke', 'key_0000000000000000', '--data-dir', typo)).rejects.toBeInstanceOf(UsageError);
    await expect(keys()).rejects.toThrow(/Give a command: create, list or revoke/);
  });
});
