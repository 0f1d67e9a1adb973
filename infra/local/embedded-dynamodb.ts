import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';

// dynalite is CommonJS without type declarations; this is the one call we make of it.
const dynalite = createRequire(import.meta.url)('dynalite') as (options: {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => Server;

export interface EmbeddedDynamoDb {
  readonly endpoint: string;
  close(): Promise<void>;
}

// `path` undefined: in memory; otherwise LevelDB files in that folder.
export async function startEmbeddedDynamoDb(options: { path?: string; port?: number } = {}): Promise<EmbeddedDynamoDb> {
  const server = dynalite({
    ...(options.path ? { path: options.path } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((error) => (error ? reject(error) : resolve()));
      })),
  };
}
