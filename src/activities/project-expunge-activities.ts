import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FileStore } from '../storage/file-store';
import { expungeDeletedProject } from '../services/projects/project-expunge';

/** The step of the project-expunge flow (workflows/project-expunge.ts). */
export function createProjectExpungeActivities({ orm, files, log }: { orm: MikroORM; files: FileStore; log: Logger }) {
  return {
    expungeProject: (projectId: string): Promise<{ expunged: boolean }> =>
      expungeDeletedProject(orm, { files, log }, projectId),
  };
}

export type ProjectExpungeActivities = ReturnType<typeof createProjectExpungeActivities>;
