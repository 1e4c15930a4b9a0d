import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Vite would load graphql's ESM build for our code while type-graphql and Apollo load the CJS
    // one through Node: two copies of graphql break `instanceof` and schema building.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only contend for the same database and CPU.
    maxWorkers: 2,
    // The metrics listener on any free port: test services run side by side (docs/operations.md, Metrics).
    env: { LOG_LEVEL: 'silent', METRICS_PORT: '0' },
  },
});
