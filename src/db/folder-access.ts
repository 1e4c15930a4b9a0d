import { stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The first existing folder on the way to `target` that other users may not enter (no o+x), if
 * any. As root, PostgreSQL runs as the system user "postgres", which must pass every such folder.
 */
export async function closedFolderOnTheWay(target: string): Promise<string | undefined> {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const folder of chain) {
    const info = await stat(folder).catch(() => undefined);
    if (!info) return undefined; // the rest is created by us, open to others
    if (info.isDirectory() && (info.mode & 0o001) === 0) return folder;
  }
  return undefined;
}

/** What to change when the postgres user cannot pass `closed` on the way to `what` (`target`). */
export function unreachableMessage(closed: string, what: string, target: string): string {
  return (
    `The embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses to run as root), which cannot enter ${closed} on the way to ${what} (${target}). ` +
    `Put the checkout and DATA_DIR in a folder other users may enter, allow it with \`chmod o+x ${closed}\`, or set DATABASE_URL to a PostgreSQL server.`
  );
}
