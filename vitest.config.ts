import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only contend for the same database and CPU.
    maxWorkers: 2,
    env: { LOG_LEVEL: 'silent' },
  },
});
