import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'photobook-service';

/**
 * The checkout's root folder (where package.json, catalogue/ and web/ live), found by walking up
 * from this module. Paths to shipped files start here rather than from a module's own location,
 * because the same module runs from `src/` under tsx and from the bundle `npm start` builds.
 */
const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE_NAME) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no ${PACKAGE_NAME} package.json above ${from}`);
  }
}

/** A shipped file or folder by its path from the checkout's root. */
export function projectPath(...segments: string[]): string {
  return path.join(PROJECT_ROOT, ...segments);
}
