/**
 * `npm run test:artillery`: the load test on its engine, Artillery, which only this suite and the
 * command install (.loadtest/engine, about 460 MB), against local mode serving `cdk synth`'s
 * bundles (test/support/bundle-setup.ts): kept out of `npm test`.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/distributed/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/support/bundle-setup.ts'],
  },
});
