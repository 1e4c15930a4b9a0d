/**
 * `npm run cli -- photo faces`: finds the faces of photos analysed before faces were looked for
 * (or whose detection did not run), so their automatic crops keep them in the safe area
 * (docs/operations.md, Faces of older photos). Prints, builds and proofs detect a photo's missing
 * faces when they need them; this does it ahead, for every shop or one, in batches an operator chooses.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FileStore } from '../storage/file-store';
import { Client } from '../db/entities';
import { FaceFinding } from '../services/projects/face-finding';
import { PhotoFaces } from '../services/projects/photo-faces';
import { terminalJson, terminalLine } from './terminal-text';

/** Client ids are UUIDs: anything else names no client (and is never sent to the database). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const PHOTO_USAGE = `  npm run cli -- photo faces [--client <clientId>] [--limit <n>] [--json]`;

export interface PhotoCommandInput {
  em: EntityManager;
  files: FileStore;
  log: Logger;
  values: { client?: string; limit?: string; json: boolean };
  usage(message: string): never;
}

/** Runs `command` if it is one of these; false when it is not. */
export async function runPhotoCommand(command: string, input: PhotoCommandInput): Promise<boolean> {
  if (command !== 'photo faces') return false;
  const { client, limit, json } = input.values;
  const count = limit === undefined ? undefined : Number(limit);
  if (count !== undefined && !(Number.isInteger(count) && count > 0))
    return input.usage('--limit must be a whole number of photos, at least 1');
  if (client !== undefined && (!UUID.test(client) || !(await input.em.findOne(Client, { id: client }))))
    return input.usage(`--client: no client ${client}`);
  const faces = new PhotoFaces(input.files, new FaceFinding(input.log));
  const report = await faces.fillMissing(input.em, client ? { project: { client } } : {}, {
    ...(count ? { limit: count } : {}),
    acrossTenants: true,
  });
  console.log(
    json
      ? terminalJson(report)
      : terminalLine`${report.checked} photos without faces looked at: ${report.withFaces} show faces, ${report.withoutFaces} none, ${report.unknown} still unknown (the detector failed: see the log)`,
  );
  return true;
}
