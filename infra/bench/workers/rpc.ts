/**
 * The benchmark's child processes answer requests from the parent over Node's IPC channel: `{ id,
 * type, ...args }` → `{ id, ok, result | error }`.
 */

export interface RpcRequest {
  readonly id: number;
  readonly type: string;
  readonly [arg: string]: unknown;
}

export type RpcReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

export type RpcHandlers = Record<string, (request: RpcRequest) => unknown>;

/** Serves `handlers` (plus `cpu` and `stop`) until `stop`; `onStop` runs before the process exits. */
export function serve(handlers: RpcHandlers, onStop: () => Promise<void> = async () => undefined): void {
  const all: RpcHandlers = {
    cpu: () => process.cpuUsage(),
    stop: async () => {
      await onStop();
      setImmediate(() => process.exit(0));
      return null;
    },
    ...handlers,
  };
  process.on('message', (message: RpcRequest) => {
    const handler = all[message.type];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown request ${message.type}`);
        return handler(message);
      })
      .then(
        (result) => process.send?.({ id: message.id, ok: true, result: result ?? null } satisfies RpcReply),
        (error: unknown) =>
          process.send?.({ id: message.id, ok: false, error: (error as Error).stack ?? String(error) } satisfies RpcReply),
      );
  });
  // The parent going away ends the worker too.
  process.on('disconnect', () => process.exit(0));
}
