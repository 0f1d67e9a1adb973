/**
 * The store and API suites again, against AWS's own DynamoDB Local instead of dynalite, so that
 * nothing passes only because dynalite is lenient. Needs Java 17.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/store/**/*.test.ts', 'test/api/**/*.test.ts'],
      globalSetup: ['test/support/conformance-setup.ts'],
    },
  }),
);
