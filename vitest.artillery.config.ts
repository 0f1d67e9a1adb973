/**
 * `npm run test:artillery`: the load test's scenario run by Artillery, which only this suite installs
 * (test/artillery, about 460 MB): kept out of `npm test`.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/distributed/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
