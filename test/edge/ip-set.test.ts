/**
 * The blocking function's WAF calls, with the real AWS SDK client against a fake WAFV2 endpoint on
 * 127.0.0.1 (AWS JSON 1.1: the operation in X-Amz-Target): GetIPSet's lock token goes with
 * UpdateIPSet, and a WAFOptimisticLockException (another writer in between) is retried on a fresh read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WAFOptimisticLockException, WAFV2Client } from '@aws-sdk/client-wafv2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { updateIpSet } from '#lib/edge/ip-set.ts';

const id = { Name: 'PetStore-staging-automatic-blocks-ipv4', Id: 'set-id', Scope: 'REGIONAL' } as const;
let server: Server;
let client: WAFV2Client;
/** The set as the fake holds it, its lock token, and what it was asked. */
let addresses: string[];
let token: number;
let conflicts: number;
const calls: { operation: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target']).split('.')[1] ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      calls.push({ operation, body });
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify(payload));
      };
      if (operation === 'GetIPSet')
        return answer(200, { IPSet: { ...id, ARN: 'arn', IPAddressVersion: 'IPV4', Addresses: addresses }, LockToken: `t${token}` });
      if (operation !== 'UpdateIPSet') return answer(400, { __type: 'WAFInvalidOperationException', Message: operation });
      // Another writer got in first: the token read is stale.
      if (conflicts > 0) {
        conflicts -= 1;
        token += 1;
        return answer(400, { __type: 'WAFOptimisticLockException', Message: 'stale lock token' });
      }
      if (body.LockToken !== `t${token}`) return answer(400, { __type: 'WAFOptimisticLockException', Message: 'stale lock token' });
      addresses = body.Addresses as string[];
      token += 1;
      return answer(200, { NextLockToken: `t${token}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new WAFV2Client({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client?.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  addresses = ['192.0.2.1/32'];
  token = 1;
  conflicts = 0;
  calls.length = 0;
});

describe('updateIpSet', () => {
  it("replaces the set with what the change makes of it, under the read's lock token", async () => {
    const written = await updateIpSet(client, id, (current) => [...current, '192.0.2.2/32']);
    expect(written).toEqual(['192.0.2.1/32', '192.0.2.2/32']);
    expect(addresses).toEqual(written);
    expect(calls.map((c) => c.operation)).toEqual(['GetIPSet', 'UpdateIPSet']);
    expect(calls[1]?.body).toMatchObject({ ...id, LockToken: 't1' });
  });

  it('reads again and retries when another writer changed the set in between', async () => {
    conflicts = 2;
    await updateIpSet(client, id, (current) => [...current, '192.0.2.3/32']);
    expect(addresses).toEqual(['192.0.2.1/32', '192.0.2.3/32']);
    expect(calls.map((c) => c.operation)).toEqual(['GetIPSet', 'UpdateIPSet', 'GetIPSet', 'UpdateIPSet', 'GetIPSet', 'UpdateIPSet']);
    expect(calls.at(-1)?.body.LockToken).toBe('t3');
  });

  it('gives up after its attempts, with the lock exception', async () => {
    conflicts = 10;
    await expect(updateIpSet(client, id, (current) => current, 3)).rejects.toBeInstanceOf(WAFOptimisticLockException);
    expect(calls.filter((c) => c.operation === 'UpdateIPSet')).toHaveLength(3);
  });
});
