import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Photo, Project } from '../db/entities';
import { finishProjectBuild, readBuildSource, startProjectBuild } from '../services/projects/build-steps';
import type { PhotoProblem } from '../db/entities/Photo';
import type { FileStore } from '../storage/file-store';
import { withScratchDir } from '../storage/scratch-dir';
import { OutboundError, type SafeFetch } from '../outbound/safe-fetch';
import { analyzePhoto, NotAnImageError } from '../imaging/photo-analysis';
import { makeThumbnail } from '../imaging/thumbnail';
import { renderCoverPreview } from '../imaging/cover-preview';
import { recordFlowFailure, timeRender } from '../metrics/work-metrics';
import { PROJECT_BUILD_FLOW } from '../domain/flows';
import { buildBook } from '../services/projects/book-builder';
import { recordProjectStatus } from '../services/projects/project-events';
import { photosStatusOf, type ProjectStatus } from '../domain/project-status';
import { photoOriginalKey, photoThumbnailKey, previewKey, projectPrefix } from '../services/projects/storage-keys';
import { emForPhoto, emForProject } from './tenant-scope';
import { failProjectBuild } from '../services/notifications/project-build-failure';
import type { Config } from '../config';

export interface ProjectActivityDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  log: Logger;
  config: { durations: Pick<Config['durations'], 'photoDownloadTimeoutMs' | 'buildDownloadDeadlineMs'> };
}

/** A photo's problem when the build's download deadline passed before it was fetched. */
const DOWNLOAD_TIME_LIMIT = 'DOWNLOAD_TIME_LIMIT';

/** Preview size: long side in pixels, enough for a list thumbnail and the editor's start screen. */
const PREVIEW_LONG_SIDE = 800;

/**
 * The steps of building a project. Each is idempotent: it looks at the current state first and
 * skips work already done, and files are written under deterministic keys, so at-least-once
 * execution (retries, a resumed flow) is safe.
 */
export function createProjectActivities({ orm, files, fetch, log, config }: ProjectActivityDeps) {
  const { photoDownloadTimeoutMs, buildDownloadDeadlineMs } = config.durations;
  const timeLimitProblem = {
    code: DOWNLOAD_TIME_LIMIT,
    message: `not downloaded within the build's download time limit (${buildDownloadDeadlineMs / 1000} s)`,
  };
  return {
    /**
     * created -> building; returns the photos still to fetch and analyse, and when their
     * downloads must have ended (the build's deadline, recorded with this step's result).
     */
    async startBuilding(projectId: string): Promise<{ photoIds: string[]; downloadDeadline: number }> {
      const { photoIds } = await startProjectBuild(orm.em.getConnection(), projectId);
      return { photoIds, downloadDeadline: Date.now() + buildDownloadDeadlineMs };
    },

    /**
     * Streams the photo through the guarded client into the file store (never whole in memory) and
     * stores the original; uploading -> analyzing. An attempt takes at most PHOTO_DOWNLOAD_TIMEOUT
     * and never runs past the build's `downloadDeadline`; once that has passed the photo fails
     * with DOWNLOAD_TIME_LIMIT. (Runs recorded without a deadline pass none.)
     */
    async downloadPhoto(photoId: string, downloadDeadline?: number): Promise<void> {
      const em = await emForPhoto(orm, photoId);
      if (!em) return;
      const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
      if (photo?.status !== 'uploading') return;
      const left = downloadDeadline === undefined ? Infinity : downloadDeadline - Date.now();
      if (left <= 0) {
        await updatePhoto(em, photo, { status: 'failed', problem: timeLimitProblem });
        return;
      }
      const timeoutMs = Math.min(photoDownloadTimeoutMs, left);
      const key = photoOriginalKey(
        projectPrefix(photo.project.client.id, photo.project.env, photo.project.storageKey),
        photo.id,
      );
      try {
        const bytes = await files.putStreamed(key, (write) => fetch(photo.url, { timeoutMs, onChunk: write }));
        await updatePhoto(em, photo, { status: 'analyzing', originalKey: key, bytes });
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error; // unexpected: let the activity retry
        if (error.code === 'TIMEOUT' && timeoutMs < photoDownloadTimeoutMs) {
          // Cut short by the build's deadline: no time is left for another attempt.
          await updatePhoto(em, photo, { status: 'failed', problem: timeLimitProblem });
          return;
        }
        if (
          error.code === 'TIMEOUT' ||
          error.code === 'UNREACHABLE' ||
          (error.code === 'HTTP_STATUS' && (error.status ?? 0) >= 500)
        ) {
          // Possibly passing: retry, and report the photo as failed only when retries are spent.
          throw Object.assign(new Error(`${error.code}: ${error.message}`), { name: 'PhotoDownloadFailed' });
        }
        await updatePhoto(em, photo, { status: 'failed', problem: { code: error.code, message: error.message } });
      }
    },

    /** The build gave up: the project is `failed` with the reason (project-build-failure.ts). */
    async failBuild(projectId: string, reason: string): Promise<void> {
      const em = await emForProject(orm, projectId);
      if (em) await failProjectBuild(em, projectId, reason);
      recordFlowFailure(PROJECT_BUILD_FLOW.name, 'gave_up');
    },

    /** Records a photo as failed after its download kept failing; the flow calls it on give-up. */
    async failPhoto(photoId: string, problem: PhotoProblem): Promise<void> {
      const em = await emForPhoto(orm, photoId);
      if (!em) return;
      const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
      if (!photo || photo.status === 'idle' || photo.status === 'failed') return;
      await updatePhoto(em, photo, { status: 'failed', problem });
    },

    /** Decodes and measures the stored original, makes the thumbnail; analyzing -> idle. */
    async analyzePhoto(photoId: string): Promise<void> {
      const em = await emForPhoto(orm, photoId);
      if (!em) return;
      const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
      if (photo?.status !== 'analyzing' || !photo.originalKey) return;
      const originalKey = photo.originalKey;
      try {
        // Decoded from a file (a local copy of this job's when the store is remote): the original never sits whole in memory.
        const { analysis, thumbnail } = await withScratchDir(async (scratch) => {
          const original = { file: await files.localFile(originalKey, scratch) };
          return { analysis: await analyzePhoto(original), thumbnail: await makeThumbnail(original) };
        });
        const thumbnailKey = photoThumbnailKey(
          projectPrefix(photo.project.client.id, photo.project.env, photo.project.storageKey),
          photo.id,
        );
        await files.put(thumbnailKey, thumbnail);
        await updatePhoto(em, photo, {
          status: 'idle',
          thumbnailKey,
          format: analysis.format,
          width: analysis.width,
          height: analysis.height,
          exifOrientation: analysis.exifOrientation,
          capturedAt: analysis.capturedAt,
          sharpness: round4(analysis.sharpness),
          quality: round4(analysis.quality),
        });
      } catch (error) {
        if (!(error instanceof NotAnImageError)) throw error;
        await updatePhoto(em, photo, { status: 'failed', problem: { code: 'NOT_AN_IMAGE', message: error.message } });
      }
    },

    /** Lays out the book from the usable photos, renders the cover preview; -> editable. */
    async buildBook(projectId: string): Promise<{ status: ProjectStatus; pages: number }> {
      const db = orm.em.getConnection();
      const project = await readBuildSource(db, projectId);
      if (!project) return { status: 'deleted', pages: 0 };
      if (project.status !== 'building') return { status: project.status, pages: project.pages };
      const bookPhotos = project.usablePhotos.filter((p) => !p.assetId);
      const coverAsset = project.usablePhotos.find((p) => p.assetId === 'coverPhoto');
      const { specifications } = project;
      const book = buildBook({
        layoutType: project.layoutType,
        photos: bookPhotos,
        // An order that priced the rebuilt book at a page count gets exactly that many pages.
        minPages: project.heldPageCount ?? specifications.min.pages,
        maxPages: project.heldPageCount ?? specifications.max.pages,
        texts: project.custom,
        coverPhotoId: coverAsset?.id,
        fallbackTitle: project.sku,
      });

      const coverPhoto = project.usablePhotos.find((p) => p.id === book.cover.photoId);
      const { widthMm, heightMm } = specifications.format;
      const scale = PREVIEW_LONG_SIDE / Math.max(widthMm, heightMm);
      const preview = await withScratchDir(async (scratch) => {
        const original = coverPhoto?.originalKey;
        const photo = original ? { file: await files.localFile(original, scratch) } : undefined;
        return timeRender('cover_preview', () =>
          renderCoverPreview({
            widthPx: Math.round(widthMm * scale),
            heightPx: Math.round(heightMm * scale),
            photo,
            title: book.cover.title,
            subtitle: book.cover.subtitle,
          }),
        );
      });
      const key = previewKey(projectPrefix(project.clientId, project.env, project.storageKey));
      await files.put(key, preview);

      const status = await finishProjectBuild(db, projectId, { book, previewKey: key });
      if (status === 'editable')
        log.info({ projectId, pages: book.pages.length, photos: bookPhotos.length }, 'project built');
      return { status, pages: book.pages.length };
    },
  };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;

async function lockProject(em: EntityManager, projectId: string): Promise<Project | null> {
  return em.findOne(Project, { id: projectId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['owner'] });
}

/** Saves a photo change and, under the project's row lock, the project's photos status. */
async function updatePhoto(em: EntityManager, photo: Photo, changes: Partial<Photo>): Promise<void> {
  await em.transactional(async (tx) => {
    const project = await lockProject(tx, photo.project.id);
    if (!project) return;
    tx.assign(photo, changes);
    await tx.flush();
    const statuses = await tx.find(Photo, { project }, { fields: ['status'] });
    const photosStatus = photosStatusOf(statuses);
    if (photosStatus !== project.photosStatus) {
      project.photosStatus = photosStatus;
      project.updatedAt = new Date();
      await tx.flush();
      await recordProjectStatus(tx, project);
    }
  });
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
