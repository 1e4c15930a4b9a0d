import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../src/config/project-root';

/**
 * `npm test` keeps the tree formatted and linted: `biome ci --error-on-warnings` (npm run lint) fails on a file the
 * formatter would change or on a lint error; `npm run format` rewrites the tree.
 */
describe('format and lint (Biome)', () => {
  it('finds nothing to reformat and no lint error', () => {
    const run = spawnSync('npx', ['biome', 'ci', '--error-on-warnings', '--colors=off', '--max-diagnostics=20'], {
      cwd: projectPath('.'),
      encoding: 'utf8',
    });
    expect(run.status, `${run.stdout}\n${run.stderr}\nrun \`npm run format\` and fix what remains`).toBe(0);
  }, 120_000);
});
