import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KNIP = path.join(ROOT, 'node_modules/.bin/knip');

/** What knip (configured by knip.json) finds in `directory`: one line per unused file, export, type or dependency. */
async function findings(directory: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    KNIP,
    [
      '--directory',
      directory,
      '--reporter',
      'compact',
      '--no-progress',
      '--no-exit-code',
      '--treat-config-hints-as-errors',
    ],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

describe('dead code (knip)', () => {
  it('finds no unused file, export, type or dependency in the repository', { timeout: 180_000 }, async () => {
    expect(await findings(ROOT)).toEqual([]);
  });
});

describe('the dead-code check itself', () => {
  let fixture: string;

  beforeAll(async () => {
    fixture = await mkdtemp(path.join(tmpdir(), 'dead-code-'));
    const files: Record<string, string> = {
      'package.json': JSON.stringify({
        name: 'fixture',
        private: true,
        type: 'module',
        main: 'src/main.ts',
        dependencies: { 'left-pad': '1.3.0' },
      }),
      'knip.json': JSON.stringify({ entry: ['src/main.ts'], project: ['src/**/*.ts'] }),
      'src/main.ts': "import { used } from './prices';\nconsole.log(used);\n",
      'src/prices.ts': 'export const used = 1;\nexport const forgotten = 2;\n',
      'src/orphan.ts': 'export const nobody = 3;\n',
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(fixture, file)), { recursive: true });
      await writeFile(path.join(fixture, file), text);
    }
  });
  afterAll(() => rm(fixture, { recursive: true, force: true }));

  it('reports an unused file, an unused export and an unused dependency', { timeout: 60_000 }, async () => {
    const report = (await findings(fixture)).join('\n');
    expect(report).toContain('src/orphan.ts');
    expect(report).toMatch(/forgotten/);
    expect(report).toMatch(/left-pad/);
  });
});
