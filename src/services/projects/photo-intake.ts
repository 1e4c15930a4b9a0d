import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Photo, Project } from '../../db/entities';
import type { PhotoProblem } from '../../db/entities/Photo';
import type { Config } from '../../config';
import { photosStatusOf } from '../../domain/project-status';
import type { FileStore } from '../../storage/file-store';
import { withScratchDir } from '../../storage/scratch-dir';
import { OutboundError, type SafeFetch } from '../../outbound/safe-fetch';
import { analyzeWorkingCopy, NotAnImageError } from '../../imaging/photo-analysis';
import { thumbnailOfWorkingCopy } from '../../imaging/thumbnail';
import { decodeWorkingCopy } from '../../imaging/working-copy';
import { emForPhoto } from '../tenancy/row-tenant-scope';
import { recordProjectStatus } from './project-events';
import { photoOriginalKey, photoThumbnailKey, projectPrefix } from './storage-keys';
import type { FaceFinding } from './face-finding';

export interface PhotoIntakeDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  config: { durations: Pick<Config['durations'], 'photoDownloadTimeoutMs' | 'buildDownloadDeadlineMs'> };
  /** Finds each analysed photo's faces; a detector that fails leaves them unknown (null), never the photo failed. */
  faces: FaceFinding;
}

/** A photo's problem when the build's download deadline passed before it was fetched. */
const DOWNLOAD_TIME_LIMIT = 'DOWNLOAD_TIME_LIMIT';

/**
 * A project build's photos, one at a time: fetched into the file store (uploading -> analyzing),
 * decoded, measured and thumbnailed (analyzing -> idle), or failed with their problem. Each step
 * looks at the photo first and skips work already done, and files go under deterministic keys, so
 * at-least-once execution is safe; a photo that is gone is a no-op. Every change of a photo
 * updates its project's photos status under the project's row lock.
 */
export class PhotoIntake {
  private readonly timeLimitProblem: PhotoProblem;

  constructor(private readonly deps: PhotoIntakeDeps) {
    const limitSeconds = deps.config.durations.buildDownloadDeadlineMs / 1000;
    this.timeLimitProblem = {
      code: DOWNLOAD_TIME_LIMIT,
      message: `not downloaded within the build's download time limit (${limitSeconds} s)`,
    };
  }

  /**
   * Streams the photo through the guarded client into the file store (never whole in memory) and
   * stores the original; uploading -> analyzing. An attempt takes at most PHOTO_DOWNLOAD_TIMEOUT
   * and never runs past the build's `downloadDeadline`; once that has passed the photo fails
   * with DOWNLOAD_TIME_LIMIT. (Runs recorded without a deadline pass none.) A failure that may
   * pass (a timeout, an unreachable host, a 5xx) throws PhotoDownloadFailed for the flow to
   * retry; any other fails the photo with its code.
   */
  async download(photoId: string, downloadDeadline?: number): Promise<void> {
    const { files, fetch } = this.deps;
    const { photoDownloadTimeoutMs } = this.deps.config.durations;
    const em = await emForPhoto(this.deps.orm, photoId);
    if (!em) return;
    const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
    if (photo?.status !== 'uploading') return;
    const left = downloadDeadline === undefined ? Infinity : downloadDeadline - Date.now();
    if (left <= 0) {
      await updatePhoto(em, photo, { status: 'failed', problem: this.timeLimitProblem });
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
        await updatePhoto(em, photo, { status: 'failed', problem: this.timeLimitProblem });
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
  }

  /** Records a photo as failed after its download kept failing; the flow calls it on give-up. */
  async fail(photoId: string, problem: PhotoProblem): Promise<void> {
    const em = await emForPhoto(this.deps.orm, photoId);
    if (!em) return;
    const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
    if (!photo || photo.status === 'idle' || photo.status === 'failed') return;
    await updatePhoto(em, photo, { status: 'failed', problem });
  }

  /**
   * Decodes the stored original once into its working copy (src/imaging/working-copy.ts: 512 px,
   * shrunk while decoding; a HEIC's pixels decoded in a worker thread), measures it and makes the
   * thumbnail and the face boxes from it; analyzing -> idle. A HEIC stays the photo's original:
   * print renders decode it (src/imaging/heic.ts).
   */
  async analyze(photoId: string): Promise<void> {
    const { files } = this.deps;
    const em = await emForPhoto(this.deps.orm, photoId);
    if (!em) return;
    const photo = await em.findOne(Photo, { id: photoId }, { populate: ['project'] });
    if (photo?.status !== 'analyzing' || !photo.originalKey) return;
    const originalKey = photo.originalKey;
    const prefix = projectPrefix(photo.project.client.id, photo.project.env, photo.project.storageKey);
    try {
      // Decoded from a file (a local copy of this job's when the store is remote): the original never sits
      // whole in memory.
      const copy = await withScratchDir(async (scratch) =>
        decodeWorkingCopy({ file: await files.localFile(originalKey, scratch) }),
      );
      const [analysis, thumbnail] = await Promise.all([analyzeWorkingCopy(copy), thumbnailOfWorkingCopy(copy)]);
      // On the thumbnail: upright, small (a 512 px JPEG decodes in a few ms) and already checked.
      const faces = await this.deps.faces.facesOf(photo.id, thumbnail);
      const thumbnailKey = photoThumbnailKey(prefix, photo.id);
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
        exposure: round4(analysis.exposure),
        perceptualHash: analysis.perceptualHash,
        latitude: analysis.gps?.latitude ?? null,
        longitude: analysis.gps?.longitude ?? null,
        faces,
      });
    } catch (error) {
      if (!(error instanceof NotAnImageError)) throw error;
      await updatePhoto(em, photo, { status: 'failed', problem: { code: 'NOT_AN_IMAGE', message: error.message } });
    }
  }
}

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
