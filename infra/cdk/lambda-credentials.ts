/**
 * Stands in for `@aws-sdk/credential-provider-node` in the bundles (infra/cdk/bundling.ts `alias`):
 * Lambda's credentials are in the environment, the first link of the SDK's default chain; the other
 * links (SSO, INI files, process, web identity, container, IMDS) and the clients they carry stay out.
 * Read once, as the chain caches them.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export function defaultProvider(init?: Parameters<typeof fromEnv>[0]) {
  const read = fromEnv(init);
  let credentials: Awaited<ReturnType<typeof read>> | undefined;
  return async () => (credentials ??= await read());
}
