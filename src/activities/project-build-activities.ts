import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import { PROJECT_BUILD_FLOW } from '../domain/flows';
import type { ProjectStatus } from '../domain/project-status';
import type { PhotoProblem } from '../db/entities/Photo';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import { recordFlowFailure } from '../metrics/work-metrics';
import { BookBuild } from '../services/projects/book-build';
import { PhotoIntake } from '../services/projects/photo-intake';
import { EditorLinks } from '../services/projects/editor-links';
import { failProjectBuild } from '../services/notifications/project-build-failure';
import { isProjectReadyAwaited, notifyProjectReady } from '../services/notifications/project-ready';
import { failRowOfProject } from '../services/campaigns/campaign-rows';
import { emForProject } from '../services/tenancy/row-tenant-scope';

export interface ProjectBuildActivityDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  log: Logger;
  config: Config;
  /** Opens the sealed editor-link seeds of the ready notification. */
  pepper: string;
  /** The ready notification starts a webhook delivery. */
  engine: WorkflowEngine;
}

/**
 * The steps of building a project (workflows/project-build.ts): its photos go through the photo
 * intake, its book through the book build (src/services/projects), its end is announced by the
 * notifications. Each step is idempotent there; a row that is gone is a no-op.
 */
export function createProjectBuildActivities({
  orm,
  files,
  fetch,
  log,
  config,
  pepper,
  engine,
}: ProjectBuildActivityDeps) {
  const photos = new PhotoIntake({ orm, files, fetch, config });
  const books = new BookBuild({ orm, files, log, config });
  const editorLinks = new EditorLinks(config.frontendUrl, pepper);
  return {
    startBuilding: (projectId: string): Promise<{ photoIds: string[]; downloadDeadline: number }> =>
      books.start(projectId),
    downloadPhoto: (photoId: string, downloadDeadline?: number): Promise<void> =>
      photos.download(photoId, downloadDeadline),
    failPhoto: (photoId: string, problem: PhotoProblem): Promise<void> => photos.fail(photoId, problem),
    analyzePhoto: (photoId: string): Promise<void> => photos.analyze(photoId),
    buildBook: (projectId: string): Promise<{ status: ProjectStatus; pages: number }> => books.build(projectId),

    /** The build gave up: the project is `failed` with the reason (project-build-failure.ts). */
    async failBuild(projectId: string, reason: string): Promise<void> {
      const em = await emForProject(orm, projectId);
      if (em) await failProjectBuild(em, projectId, reason);
      recordFlowFailure(PROJECT_BUILD_FLOW.name, 'gave_up');
    },

    /** The end of every project build: tell the campaign's webhook or the project's callback. */
    async notifyProjectReady(projectId: string): Promise<void> {
      if (!(await isProjectReadyAwaited(orm.em.getConnection(), projectId))) return;
      const em = await emForProject(orm, projectId);
      if (em) await notifyProjectReady(em, { engine, config, editorLinks }, projectId);
    },

    /** A project build ended without an editable book: its campaign row fails with the reason. */
    async reportProjectNotReady(projectId: string, reason: string): Promise<void> {
      const em = await emForProject(orm, projectId);
      if (em) await failRowOfProject(em, projectId, reason);
    },
  };
}

export type ProjectBuildActivities = ReturnType<typeof createProjectBuildActivities>;
