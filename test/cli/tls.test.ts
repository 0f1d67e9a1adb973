/**
 * autocannon 9 hard-codes `rejectUnauthorized: false`; `npm ci` patches that out
 * (patches/autocannon+9.0.0.patch) so that the API key is only ever sent to a server whose certificate checks out. Against a self-signed HTTPS
 * server, the run must fail without a single request reaching it, not silently pass.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { parseOptions } from '../../infra/cli/loadtest/options.ts';
import { runLoad } from '../../infra/cli/loadtest/run.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)));
const apiKey = generateApiKey();
let server: Server;
let baseUrl: string;
/** Requests that got through TLS to HTTP: each would have carried the API key. */
let requestsSeen = 0;

beforeAll(async () => {
  server = createServer({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') }, (_req, res) => {
    requestsSeen++;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[]');
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the load test against a server with a certificate nobody trusts', () => {
  it('gets no response from it: autocannon verifies the certificate, and nothing reaches HTTP', async () => {
    const options = parseOptions(['--base-url', baseUrl, '--api-key', apiKey, '--duration', '1', '--connections', '2']);
    if (options === 'help') throw new Error('unexpected --help');
    const result = await runLoad(options, 'tlstest');
    const tally = result.measured;
    expect(tally.select((_, outcome) => outcome !== 'network').requests).toBe(0);
    expect(tally.select((_, outcome) => outcome === 'network').requests).toBeGreaterThan(0);
    expect(requestsSeen).toBe(0);
  });

  it('exits non-zero as a command, naming the certificate problem', async () => {
    const script = fileURLToPath(new URL('../../infra/cli/loadtest.ts', import.meta.url));
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [script, '--base-url', baseUrl, '--api-key', apiKey, '--duration', '1'],
        { timeout: 120_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: stdout + stderr });
        },
      );
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/certificate/i);
    expect(run.output).not.toContain(apiKey);
    expect(requestsSeen).toBe(0);
  });
});
