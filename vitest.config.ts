import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Suites load the full release once per file; two cores, so two forks.
    pool: 'forks',
    maxWorkers: 2,
  },
});
