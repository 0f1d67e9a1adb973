/**
 * Local mode's memory under list traffic. dynalite 4.0.0 never closed the LevelDB
 * iterator behind a Scan or a Query, so every list left one open and registered with the
 * database: +4.6 KB of heap per list on disk, +0.8 KB in memory, until swap. patches/ fixes
 * it at install (patch-package).
 *
 * 4,000 list pages (a Scan page and a status page in turn, Limit 20; a status page is one Query
 * of the byStatus index), 4,000 reads, through the service's own store code and the real AWS
 * SDK, against the embedded store on disk as `npm start` runs it. The measurement runs in a child
 * Node with --expose-gc (test/support/list-memory.ts), so it does not depend on the test runner's
 * flags or heap. This stays at the store level, not through
 * the local API's HTTP server: the leak is the store's, and the HTTP layer is tested elsewhere.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ListMemoryReport } from '../support/list-memory.ts';

const REQUESTS = 4_000;
/**
 * Heap growth after GC allowed over the 4,000 reads: 2 MB, about 500 bytes per read. The patched
 * store grows by a small fraction of that, noise included; the leak it guards against holds 4.6 KB
 * per read, about 18 MB here.
 */
const MAX_GROWTH_BYTES = 2 * 2 ** 20;

const root = path.resolve(import.meta.dirname, '../..');

function measure(args: string[]): Promise<ListMemoryReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/node'), ['--expose-gc', 'test/support/list-memory.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        reject(new Error(`list-memory exited with ${code}:\n${stderr}${stdout}`));
        return;
      }
      resolve(JSON.parse(last) as ListMemoryReport);
    });
  });
}

describe('embedded store (dynalite) under list traffic', () => {
  it(`keeps the heap after GC within ${MAX_GROWTH_BYTES / 2 ** 20} MB over ${REQUESTS} Scan and status pages`, async () => {
    const report = await measure(['--requests', String(REQUESTS), '--sample', '500', '--store', 'disk']);
    const first = report.samples[0];
    const last = report.samples.at(-1);
    if (!first || !last) throw new Error('no samples');
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    const trail = report.samples.map((s) => `${s.requests}: ${mb(s.heapUsed)}`).join(', ');
    expect(last.requests).toBe(REQUESTS);
    expect(
      last.heapUsed - first.heapUsed,
      `heap after GC per 500 lists: ${trail} (is patches/dynalite+4.0.0.patch applied? npx patch-package)`,
    ).toBeLessThan(MAX_GROWTH_BYTES);
  });
});
