/**
 * The end-to-end suites again, against the deployed artifacts: the staging stage's template and
 * the esbuild bundles `cdk synth` writes (bundle mode of local mode, infra/local/). Left out: the
 * suites that reach into the handlers in this process (their log sink, their environment), which
 * a bundle in a worker thread does not share; the store's retries and outages run against the
 * bundles through a fault proxy instead (test/api/store-retries.test.ts).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export const IN_PROCESS_ONLY = ['test/api/logging.test.ts', 'test/api/store-outage.test.ts'];

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts'],
    exclude: IN_PROCESS_ONLY,
    globalSetup: ['test/support/bundle-setup.ts'],
  },
});
