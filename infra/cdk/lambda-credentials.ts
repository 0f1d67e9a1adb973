/**
 * Stands in for `@aws-sdk/credential-provider-node` in the bundles (infra/cdk/bundling.ts `alias`):
 * Lambda puts the execution role's credentials in the environment, the first link of the SDK's
 * default chain, so the others (SSO, INI files, process, web identity, container, IMDS) and the
 * STS and SSO clients they carry are left out. Read once, as the default chain caches them.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export function defaultProvider(init?: Parameters<typeof fromEnv>[0]) {
  const read = fromEnv(init);
  let credentials: Awaited<ReturnType<typeof read>> | undefined;
  return async () => (credentials ??= await read());
}
