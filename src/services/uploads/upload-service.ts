import { createHash, randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { Photo, Project } from '../../db/entities';
import { scopeToOwnerOf } from '../../db/tenant-filter';
import type { Config } from '../../config';
import {
  ConflictError,
  DomainError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ValidationError,
} from '../../domain/errors';
import { UPLOADED_PHOTO_FLOW, type WorkflowEngine } from '../../domain/flows';
import { isProjectId } from '../../domain/ids';
import { photosStatusOf } from '../../domain/project-status';
import { readImageMetadata } from '../../imaging/decode';
import { NotAnImageError } from '../../imaging/errors';
import type { FileStore } from '../../storage/file-store';
import type { UploadStore } from '../../storage/upload-store';
import { withScratchDir } from '../../storage/scratch-dir';
import type { RequestContext } from '../context';
import { refuseClosedForEdits } from '../editor/editor-service';
import { recordProjectStatus } from '../projects/project-events';
import { photoOriginalKey, projectPrefix } from '../projects/storage-keys';
import type { LimitStore } from '../tenancy/limit-store';

export interface UploadServiceDeps {
  /** The root EntityManager: the expiry pass works across tenants in its own fork. */
  em: EntityManager;
  config: Pick<Config, 'publicUrl' | 'limits' | 'durations'>;
  engine: WorkflowEngine;
  files: FileStore;
  uploads: UploadStore;
  limitStore: LimitStore;
}

/** What `Upload-Metadata` and `Upload-Length` declare when an upload is created. */
export interface UploadDeclaration {
  metadata: Record<string, string | null>;
  /** `Upload-Length`; undefined when absent or not a number. */
  length: number | undefined;
}

/** What a finished upload became: its photo, or the photo of the same bytes uploaded before. */
export interface FinishedUpload {
  photoId: string;
  duplicate: boolean;
}

/** Where an upload stands, for HEAD and PATCH: open (tus answers) or finished (its photo answers). */
export type UploadState = { open: true } | { open: false; length: number };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Photos from the device over tus 1.0 (docs/api.md, Uploads). An upload is a photo from its
 * creation: a row `uploading` (so the project's `status.photos` is `uploading` while any is open),
 * owned by the project's tenant, whose id is the upload's. Its last byte copies it into the file
 * store, `analyzing`, and starts the uploaded-photo flow (analysis, then its place in the book);
 * the same bytes twice in one project are one photo (SHA-256). Every limit is checked before a byte
 * is taken, on the declared length, except the pixel limit, which needs the image's header.
 */
export class UploadService {
  private readonly dailyBytes: RateLimiterAbstract;

  constructor(private readonly deps: UploadServiceDeps) {
    this.dailyBytes = deps.limitStore.windowCounter({
      keyPrefix: 'upload-bytes',
      points: deps.config.limits.uploadBytesPerDay,
      windowMs: DAY_MS,
    });
  }

  /** POST /v2/uploads: checks the declaration, the project and the limits, and makes the photo row; answers the upload id. */
  async create(ctx: RequestContext, { metadata, length }: UploadDeclaration): Promise<{ uploadId: string }> {
    const { limits, durations, publicUrl } = this.deps.config;
    const projectId = metadata.projectId;
    if (!isProjectId(projectId)) {
      throw ValidationError.field(
        'Upload-Metadata.projectId',
        'is required: the id (p-...) of the project the photo is for',
      );
    }
    if (length === undefined || !Number.isSafeInteger(length) || length < 0) {
      throw ValidationError.field(
        'Upload-Length',
        'is required: the size of the photo in bytes (deferred lengths are not taken)',
      );
    }
    if (length === 0) throw ValidationError.field('Upload-Length', 'must be more than 0: an empty file is not a photo');
    if (length > limits.uploadMaxBytes) {
      throw new DomainError(
        'too_large',
        'UPLOAD_TOO_LARGE',
        `Upload-Length: ${length} bytes is more than UPLOAD_MAX_BYTES, the limit of ${limits.uploadMaxBytes} bytes for one photo`,
        [{ path: 'Upload-Length', message: `more than ${limits.uploadMaxBytes} bytes (UPLOAD_MAX_BYTES)` }],
      );
    }
    // An editor link reaches its own project only: another is as unknown as another tenant's.
    if (ctx.projectScope !== undefined && ctx.projectScope !== projectId) {
      throw new NotFoundError('project', projectId, 'Upload-Metadata.projectId');
    }
    const tenantKey = `${ctx.tenant.clientId}:${ctx.tenant.env}`;
    await this.spendDailyBytes(tenantKey, length);
    const uploadId = randomUUID();
    try {
      await ctx.em.transactional(async (tx) => {
        const project = await lockProject(tx, projectId);
        if (!project) throw new NotFoundError('project', projectId, 'Upload-Metadata.projectId');
        refuseClosedForEdits(project);
        const photos = await tx.count(Photo, { project });
        if (photos >= limits.uploadMaxPhotosPerProject) {
          throw new RejectedError(
            'PROJECT_PHOTO_LIMIT',
            'Upload-Metadata.projectId',
            `project ${projectId} has ${photos} photos, the limit of UPLOAD_MAX_PHOTOS_PER_PROJECT (${limits.uploadMaxPhotosPerProject})`,
          );
        }
        const [last] = await tx.find(
          Photo,
          { project },
          { orderBy: { position: 'desc' }, limit: 1, fields: ['position'] },
        );
        tx.create(Photo, {
          id: uploadId,
          project,
          url: `${publicUrl}/v2/uploads/${uploadId}`,
          position: (last?.position ?? -1) + 1,
          status: 'uploading',
          uploaded: true,
          bytes: length,
          uploadExpiresAt: new Date(Date.now() + durations.uploadExpiryMs),
        });
        await tx.flush();
        await settlePhotosStatus(tx, project);
      });
    } catch (error) {
      // Nothing was made: the bytes were never the tenant's to spend.
      await this.dailyBytes.reward(tenantKey, length).catch(() => undefined);
      throw error;
    }
    return { uploadId };
  }

  /**
   * HEAD, PATCH and DELETE of `/v2/uploads/<id>`: whether the caller may touch this upload (its
   * tenant's, and for an editor link its project's: anything else is not found) and where it
   * stands. A write (PATCH) to an upload whose project was ordered, expired or deleted meanwhile
   * is refused with the project's status.
   */
  async state(ctx: RequestContext, uploadId: string, forWrite: boolean): Promise<UploadState> {
    const photo = await this.ownedUpload(ctx, uploadId);
    if (forWrite) refuseClosedForEdits(photo.project);
    if (photo.uploadExpiresAt) return { open: true };
    return { open: false, length: photo.bytes ?? 0 };
  }

  /** PATCH and DELETE: as `state`, and a finished upload is a 409 (its photo is what remains of it). */
  async requireOpen(ctx: RequestContext, uploadId: string, forWrite: boolean): Promise<void> {
    const state = await this.state(ctx, uploadId, forWrite);
    if (!state.open) {
      throw new ConflictError(
        'UPLOAD_FINISHED',
        `upload ${uploadId} is finished: its bytes are the project's photo ${uploadId} (or the same photo uploaded before)`,
      );
    }
  }

  /** UPLOAD_MAX_BYTES, which tus enforces on every request too. */
  get maxBytes(): number {
    return this.deps.config.limits.uploadMaxBytes;
  }

  /**
   * The upload's last byte arrived: checks the header (a photo, within the pixel limit), copies the
   * bytes into the file store under the photo's key while hashing them, and either makes the photo
   * `analyzing` and starts its flow, or, when the project holds the same bytes already, drops this
   * one and answers that photo. A refusal removes the photo and its stored copy. The caller removes
   * the upload's bytes from the upload store once tus has answered (tus reads them until then).
   */
  async finish(ctx: RequestContext, uploadId: string): Promise<FinishedUpload> {
    const { files, uploads, engine } = this.deps;
    const photo = await this.ownedUpload(ctx, uploadId);
    const key = photoOriginalKey(
      projectPrefix(photo.project.client.id, photo.project.env, photo.project.storageKey),
      photo.id,
    );
    const hash = createHash('sha256');
    let bytes: number;
    try {
      bytes = await files.putFrom(key, hashing(await uploads.read(uploadId), hash));
      await withScratchDir(async (scratch) => readImageMetadata({ file: await files.localFile(key, scratch) }));
    } catch (error) {
      if (!(error instanceof NotAnImageError)) throw error;
      await this.discard(ctx, uploadId, false);
      if (error.reason === 'too-large')
        throw new RejectedError('PHOTO_PIXEL_LIMIT', 'Upload-Metadata.filename', error.message);
      throw new RejectedError('NOT_AN_IMAGE', 'Upload-Metadata.filename', error.message);
    }
    const sha256 = hash.digest('hex');
    const finished = await ctx.em.transactional(async (tx): Promise<FinishedUpload> => {
      const project = await lockProject(tx, photo.project.id);
      if (!project) throw new NotFoundError('upload', uploadId);
      const same = await tx.findOne(Photo, { project, sha256 }, { fields: ['id'] });
      const row = await tx.findOneOrFail(Photo, { id: uploadId });
      if (same) {
        tx.remove(row);
      } else {
        tx.assign(row, { status: 'analyzing', originalKey: key, sha256, bytes, uploadExpiresAt: null });
      }
      await tx.flush();
      await settlePhotosStatus(tx, project);
      return same ? { photoId: same.id, duplicate: true } : { photoId: uploadId, duplicate: false };
    });
    if (finished.duplicate) await files.removeTree(photoFolder(key));
    else await engine.start(UPLOADED_PHOTO_FLOW, { photoId: uploadId }, { tenant: ctx.tenant });
    return finished;
  }

  /** DELETE (tus termination) of an open upload: its photo row and stored copy; tus then removes its bytes. */
  async terminate(ctx: RequestContext, uploadId: string): Promise<void> {
    await this.requireOpen(ctx, uploadId, false);
    await this.discard(ctx, uploadId, false);
  }

  /**
   * The expiry pass: uploads open past UPLOAD_EXPIRY lose their bytes and their photo row (the
   * project's photos status follows). Runs across tenants by design, in plain sight; answers how
   * many it removed.
   */
  async expireAbandoned(now = new Date()): Promise<number> {
    const em = this.deps.em.fork();
    const abandoned = await em.find(
      Photo,
      { uploadExpiresAt: { $lte: now } },
      { filters: false, fields: ['id', 'project.id', 'project.client', 'project.env'], limit: 500 },
    );
    for (const photo of abandoned) {
      // The row first: from then on the upload is unknown (404), as its bytes are a moment later.
      await scopeToOwnerOf(this.deps.em.fork(), photo.project).transactional(async (tx) => {
        const project = await lockProject(tx, photo.project.id);
        await tx.nativeDelete(Photo, { id: photo.id, uploadExpiresAt: { $ne: null } });
        if (project) await settlePhotosStatus(tx, project);
      });
      await this.deps.uploads.remove(photo.id);
    }
    // Bytes of uploads whose row is already gone (a crash between the two): the store's own expiry.
    await this.deps.uploads.datastore.deleteExpired().catch(() => 0);
    return abandoned.length;
  }

  /** An upload of the caller's, with its project; another tenant's or another project's (editor link) is not found. */
  private async ownedUpload(ctx: RequestContext, uploadId: string): Promise<Photo & { project: Project }> {
    const photo = isUuid(uploadId)
      ? await ctx.em.findOne(
          Photo,
          { id: uploadId, uploaded: true },
          { populate: ['project', 'project.owner', 'project.book'] },
        )
      : null;
    if (!photo || (ctx.projectScope !== undefined && photo.project.id !== ctx.projectScope)) {
      throw new NotFoundError('upload', uploadId);
    }
    return photo as Photo & { project: Project };
  }

  /** Removes an upload's photo row, stored copy and (with `bytes`) its bytes; the project's photos status follows. */
  private async discard(ctx: RequestContext, uploadId: string, bytes = true): Promise<void> {
    const photo = await this.ownedUpload(ctx, uploadId);
    await ctx.em.transactional(async (tx) => {
      const project = await lockProject(tx, photo.project.id);
      await tx.nativeDelete(Photo, { id: uploadId });
      if (project) await settlePhotosStatus(tx, project);
    });
    const key = photoOriginalKey(
      projectPrefix(photo.project.client.id, photo.project.env, photo.project.storageKey),
      photo.id,
    );
    await this.deps.files.removeTree(photoFolder(key));
    if (bytes) await this.deps.uploads.remove(uploadId);
  }

  private async spendDailyBytes(tenantKey: string, length: number): Promise<void> {
    const { uploadBytesPerDay } = this.deps.config.limits;
    try {
      await this.dailyBytes.consume(tenantKey, length);
    } catch (refusal) {
      if (refusal instanceof Error) throw refusal;
      const retryAfter = Math.max(1, Math.ceil(((refusal as { msBeforeNext?: number }).msBeforeNext ?? DAY_MS) / 1000));
      // The refused bytes were counted too: give them back, so a later smaller photo still fits.
      await this.dailyBytes.reward(tenantKey, length).catch(() => undefined);
      throw new RateLimitedError(
        `Upload-Length: ${length} more bytes would pass UPLOAD_BYTES_PER_DAY, the ${uploadBytesPerDay} bytes this client and environment may upload in 24 hours`,
        retryAfter,
        'UPLOAD_DAILY_LIMIT',
      );
    }
  }
}

async function lockProject(em: EntityManager, projectId: string): Promise<Project | null> {
  return em.findOne(Project, { id: projectId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['owner', 'book'] });
}

/** The project's photos status from its photos, with its status event when it changed (the caller holds the row lock). */
async function settlePhotosStatus(em: EntityManager, project: Project): Promise<void> {
  const statuses = await em.find(Photo, { project }, { fields: ['status'] });
  const photosStatus = photosStatusOf(statuses);
  if (photosStatus === project.photosStatus) return;
  project.photosStatus = photosStatus;
  project.updatedAt = new Date();
  await em.flush();
  await recordProjectStatus(em, project);
}

async function* hashing(source: AsyncIterable<Buffer>, hash: ReturnType<typeof createHash>): AsyncIterable<Buffer> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

/** The folder of a photo's files, from its original's key. */
function photoFolder(originalKey: string): string {
  return originalKey.slice(0, originalKey.lastIndexOf('/'));
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
}
