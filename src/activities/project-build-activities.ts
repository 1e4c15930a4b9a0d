import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { ProjectStatus } from '../domain/project-status';
import type { PhotoProblem } from '../db/entities/Photo';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import { BookBuild, type BuildStart } from '../services/projects/book-build';
import { PhotoIntake } from '../services/projects/photo-intake';
import { FaceFinding, type FaceDetector } from '../services/projects/face-finding';
import { EditorLinks } from '../services/projects/editor-links';
import { ProjectBuildOutcome } from '../services/notifications/build-outcome';

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
  /** Finds faces in analysed photos: the CPU detector (imaging/faces) unless a test brings another. */
  detectFaces?: FaceDetector;
}

/**
 * The steps of building a project (workflows/project-build.ts): its photos go through the photo
 * intake, its book through the book build (src/services/projects), its end through the build
 * outcome (src/services/notifications). Each step is idempotent there; a row that is gone is a no-op.
 */
export function createProjectBuildActivities({
  orm,
  files,
  fetch,
  log,
  config,
  pepper,
  engine,
  detectFaces,
}: ProjectBuildActivityDeps) {
  const faces = new FaceFinding(log, detectFaces);
  const photos = new PhotoIntake({ orm, files, fetch, config, faces });
  const books = new BookBuild({ orm, files, log, config, faces });
  const editorLinks = new EditorLinks(config.frontendUrl, pepper);
  const outcome = new ProjectBuildOutcome({ orm, engine, config, editorLinks });
  return {
    startBuilding: (projectId: string): Promise<BuildStart> => books.start(projectId),
    downloadPhoto: (photoId: string, downloadDeadline?: number): Promise<void> =>
      photos.download(photoId, downloadDeadline),
    failPhoto: (photoId: string, problem: PhotoProblem): Promise<void> => photos.fail(photoId, problem),
    analyzePhoto: (photoId: string): Promise<void> => photos.analyze(photoId),
    buildBook: (projectId: string): Promise<{ status: ProjectStatus; pages: number }> => books.build(projectId),

    failBuild: (projectId: string, reason: string): Promise<void> => outcome.failed(projectId, reason),
    notifyProjectReady: (projectId: string): Promise<void> => outcome.ready(projectId),
    reportProjectNotReady: (projectId: string, reason: string): Promise<void> => outcome.notReady(projectId, reason),
  };
}

export type ProjectBuildActivities = ReturnType<typeof createProjectBuildActivities>;
