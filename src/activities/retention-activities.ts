import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Project } from '../db/entities';
import type { FileStore } from '../storage/file-store';
import { projectPrefix } from '../services/projects/storage-keys';
import { emForProject } from './tenant-scope';

/** Expunging a deleted project: files first, then rows (photos go with the project). Idempotent. */
export function createRetentionActivities({ orm, files, log }: { orm: MikroORM; files: FileStore; log: Logger }) {
  return {
    async expungeProject(projectId: string): Promise<{ expunged: boolean }> {
      const em = await emForProject(orm, projectId);
      const project = em && (await em.findOne(Project, { id: projectId }));
      if (!em || !project) return { expunged: true };
      if (project.status !== 'deleted') return { expunged: false }; // restored or never deleted
      await files.removeTree(projectPrefix(project.client.id, project.env, project.storageKey));
      await em.nativeDelete(Project, { id: projectId, status: 'deleted' });
      log.info({ projectId }, 'deleted project expunged');
      return { expunged: true };
    },
  };
}

export type ProjectRetentionActivities = ReturnType<typeof createRetentionActivities>;
