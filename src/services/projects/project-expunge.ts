import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Project } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';
import { emForProject } from '../tenancy/row-tenant-scope';
import { projectPrefix } from './storage-keys';

/**
 * The end of a deleted project (the project-expunge flow): its files first, then its rows (photos
 * go with the project). Idempotent: a project already gone is expunged; one restored meanwhile, or
 * never deleted, is left alone.
 */
export async function expungeDeletedProject(
  orm: MikroORM,
  { files, log }: { files: FileStore; log: Logger },
  projectId: string,
): Promise<{ expunged: boolean }> {
  const em = await emForProject(orm, projectId);
  const project = em && (await em.findOne(Project, { id: projectId }));
  if (!em || !project) return { expunged: true };
  if (project.status !== 'deleted') return { expunged: false };
  await files.removeTree(projectPrefix(project.client.id, project.env, project.storageKey));
  await em.nativeDelete(Project, { id: projectId, status: 'deleted' });
  log.info({ projectId }, 'deleted project expunged');
  return { expunged: true };
}
