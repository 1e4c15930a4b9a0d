import { execFileSync } from 'node:child_process';

/**
 * Whether Debian's `heif-enc` (libheif-examples, installed by scripts/install-test-tools.sh) is on
 * the PATH: the tests that make HEIC photos with it skip without it. `--help` exits non-zero on some
 * versions, so any exit status counts as present; only a spawn failure (no such file) does not.
 */
export const heifEncAvailable: boolean = (() => {
  try {
    execFileSync('heif-enc', ['--help'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status !== undefined;
  }
})();
