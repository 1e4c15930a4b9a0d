import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const LOG_ONE_LINE = `import { createLogger } from './src/logger/index.ts'; createLogger('info').info({ orderId: 'o-1' }, 'order placed');`;

/** Runs the snippet in a fresh process whose stdout is a pipe, or a terminal made by `script`. */
async function logOutput(terminal: boolean, env: Record<string, string> = {}): Promise<string> {
  const command = `${TSX} --eval "${LOG_ONE_LINE}"`;
  const childEnv = { ...process.env, NODE_ENV: '', ...env };
  const { stdout } = terminal
    ? await run('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: childEnv })
    : await run(TSX, ['--eval', LOG_ONE_LINE], { cwd: ROOT, env: childEnv });
  return stdout;
}

describe('logs', () => {
  it('are one JSON object per line when stdout is not a terminal', async () => {
    const line = JSON.parse((await logOutput(false)).trim());
    expect(line).toMatchObject({ level: 30, msg: 'order placed', orderId: 'o-1' });
  });

  // `script` (util-linux) gives the child a pseudo-terminal.
  it.runIf(existsSync('/usr/bin/script'))(
    'are readable lines on a terminal, and JSON there too in production',
    async () => {
      const pretty = await logOutput(true);
      expect(pretty).toContain('INFO');
      expect(pretty).toContain('order placed');
      expect(pretty).not.toContain('"msg"');

      const production = await logOutput(true, { NODE_ENV: 'production' });
      expect(JSON.parse(production.trim().split('\n').pop()!)).toMatchObject({ msg: 'order placed' });
    },
  );
});
