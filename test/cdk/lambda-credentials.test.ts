/**
 * The credentials provider the bundles carry instead of the SDK's default chain
 * (infra/cdk/bundling.ts `alias`): the execution role's keys, which Lambda puts in the environment,
 * read once, as the chain caches them; nothing else.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../infra/cdk/lambda-credentials.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the bundles’ credentials provider', () => {
  it("answers with the environment's keys and keeps them", async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');
    const provider = defaultProvider();
    expect(await provider()).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAOTHER');
    expect((await provider()).accessKeyId).toBe('ASIAEXAMPLE');
  });

  it('fails without them, naming what is missing, and answers once they are set', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', undefined);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', undefined);
    const provider = defaultProvider();
    await expect(provider()).rejects.toThrow(/environment variable credentials/);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    expect((await provider()).accessKeyId).toBe('ASIAEXAMPLE');
  });
});
