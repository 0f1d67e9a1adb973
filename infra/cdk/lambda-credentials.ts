/**
 * Replaces `@aws-sdk/credential-provider-node` in the bundles (bundling.ts `alias`): Lambda's credentials
 * are in the environment, so the chain's other links and their clients stay out. Read once, as the chain caches.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export function defaultProvider(init?: Parameters<typeof fromEnv>[0]) {
  const read = fromEnv(init);
  let credentials: Awaited<ReturnType<typeof read>> | undefined;
  return async () => (credentials ??= await read());
}
