/**
 * `npm run test:browser`: the API reference page in headless Chromium (Debian's `chromium`, which
 * .ci/run installs when it is missing). Kept out of `npm test` so that a machine without a browser
 * can run every other suite.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/browser/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
