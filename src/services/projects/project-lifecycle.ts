import { Photo, Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { NotFoundError, ValidationError, ConflictError, type FieldError } from '../../domain/errors';
import { findOwnedOrThrow } from '../tenancy/owned';
import { assertProjectId } from './project-queries';
import { findEndUser, findOrCreateEndUser, userKeyOf } from './user-identity';
import { newProjectId, newStorageKey } from './project-ids';
import { newEditorKeySeed } from './editor-links';
import { recordProjectStatus } from './project-events';
import { canMoveProject, moveProject } from '../../domain/project-status';
import { projectPrefix } from './storage-keys';
import type { ProjectServiceDeps } from './project-service-deps';
import { PROJECT_BUILD_FLOW, PROJECT_EXPUNGE_FLOW } from '../../domain/flows';
import { checkCallback } from './generate-project';
import { isProjectId } from '../../domain/ids';
import { MAX_DELETE_IDS } from '../../domain/limits';

/** `sync` answers once the deletion is done, `async` at once (docs/api.md, project/delete). */
export const DELETE_TYPES = ['async', 'sync'] as const;
export type DeleteType = (typeof DELETE_TYPES)[number];

/**
 * docs/api.md, Delete. All ids are checked first (format, ownership by `user`); then every project is marked
 * deleted at once, disappears from listings, and its data is expunged after the retention period.
 * `sync` answers after the marking is committed and the expunge scheduled; `async` answers as soon
 * as the request is accepted and does that work right after.
 */
export async function deleteProjects(
  ctx: RequestContext,
  deps: ProjectServiceDeps,
  input: { user: string; type: string; ids: unknown[] },
): Promise<{ ids: string[]; done: Promise<void> }> {
  if (!(DELETE_TYPES as readonly string[]).includes(input.type))
    throw ValidationError.field('type', 'must be "async" or "sync"', 'UNKNOWN_DELETE_TYPE');
  if (!Array.isArray(input.ids) || input.ids.length === 0)
    throw ValidationError.field('ids', 'must list at least one project id');
  if (input.ids.length > MAX_DELETE_IDS)
    throw ValidationError.field('ids', `must list at most ${MAX_DELETE_IDS} project ids`, 'TOO_MANY_IDS');
  const errors: FieldError[] = [];
  input.ids.forEach((id, i) => {
    if (!isProjectId(id)) errors.push({ path: `ids[${i}]`, message: 'must be a project id starting with p-' });
  });
  if (errors.length > 0) throw new ValidationError(errors, 'INVALID_PROJECT_ID');
  const ids = [...new Set(input.ids as string[])];

  const owner = await findEndUser(ctx.em, userKeyOf(input.user, 'user'));
  const projects = owner ? await ctx.em.find(Project, { id: { $in: ids }, owner }) : [];
  const missing = ids.filter((id) => !projects.some((p) => p.id === id && p.status !== 'deleted'));
  if (missing.length > 0)
    throw new NotFoundError(
      `project of user ${input.user}`,
      missing[0],
      `ids[${(input.ids as string[]).indexOf(missing[0])}]`,
    );
  const ordering = projects.find((p) => !canMoveProject(p.status, 'deleted'));
  if (ordering)
    throw new ConflictError('PROJECT_LOCKED', `project ${ordering.id} is ${ordering.status} and cannot be deleted`);

  const work = async () => {
    await ctx.em.transactional(async (tx) => {
      const now = new Date();
      for (const project of projects) {
        moveProject(project, 'deleted', now);
        project.deletedAt = now;
        await recordProjectStatus(tx, project);
      }
    });
    for (const project of projects) {
      await deps.engine.start(
        PROJECT_EXPUNGE_FLOW,
        {
          projectId: project.id,
          retentionMs: deps.config.durations.deletionRetentionMs,
        },
        { tenant: ctx.tenant },
      );
    }
  };
  if (input.type === 'sync') {
    await work();
    return { ids, done: Promise.resolve() };
  }
  return { ids, done: work() };
}

/** docs/api.md, Duplicate: a copy for the same owner with a new id, its photos (files included) and book. */
export async function duplicateProject(
  ctx: RequestContext,
  deps: ProjectServiceDeps,
  input: { id: string; callback?: string },
): Promise<Project> {
  assertProjectId(input.id, 'id');
  const callback = checkCallback(input.callback);
  const source = await findOwnedOrThrow(ctx, Project, input.id, {
    what: 'project',
    path: 'id',
    populate: ['owner', 'market', 'photos', 'book'],
  });
  if (source.status === 'deleted') throw new NotFoundError('project', input.id, 'id');
  if (source.status === 'building' || source.status === 'created') {
    throw new ConflictError(
      'PROJECT_BUILDING',
      `project ${source.id} is still being built; duplicate it once it is editable`,
    );
  }
  const copyId = newProjectId();
  const copyStorageKey = newStorageKey();
  const fromPrefix = projectPrefix(source.client.id, source.env, source.storageKey);
  const toPrefix = projectPrefix(source.client.id, source.env, copyStorageKey);
  const rekey = (key: string | null | undefined) => (key ? key.replace(fromPrefix, toPrefix) : null);
  // Files first: once the row commits, the copy must be complete. A failed commit removes them.
  const keys = [source.previewKey, ...source.photos.getItems().flatMap((p) => [p.originalKey, p.thumbnailKey])].filter(
    (k): k is string => !!k,
  );
  for (const key of keys) await deps.files.copy(key, rekey(key)!);
  let copy: Project;
  try {
    copy = await ctx.em.transactional(async (tx) => {
      const now = new Date();
      const copied = tx.create(Project, {
        ...pickCopiedFields(source),
        id: copyId,
        storageKey: copyStorageKey,
        editorKeySeed: newEditorKeySeed(),
        callbackUrl: callback ?? source.callbackUrl ?? null,
        previewKey: rekey(source.previewKey),
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + deps.config.durations.projectTtlMs),
      });
      const photoIds = new Map<string, string>();
      const clones: Photo[] = [];
      for (const photo of source.photos) {
        const clone = tx.create(Photo, {
          ...pickPhotoFields(photo),
          project: copied,
          originalKey: rekey(photo.originalKey),
          thumbnailKey: rekey(photo.thumbnailKey),
        });
        photoIds.set(photo.id, clone.id);
        clones.push(clone);
      }
      // A curation's group names a photo of the source: the copy's group names the copy's photo.
      for (const clone of clones)
        if (clone.curation?.groupId)
          clone.curation = { ...clone.curation, groupId: photoIds.get(clone.curation.groupId) ?? null };
      copied.book = source.book ? remapBookPhotos(source.book, photoIds) : null;
      await tx.flush();
      await recordProjectStatus(tx, copied);
      return copied;
    });
  } catch (error) {
    await deps.files.removeTree(toPrefix);
    throw error;
  }
  // The copy goes through the build flow like every project: nothing is left to fetch or lay
  // out, and its end tells the copy's callback URL that it is ready.
  await deps.engine.start(PROJECT_BUILD_FLOW, { projectId: copy.id }, { tenant: ctx.tenant });
  return copy;
}

/**
 * docs/api.md, Transfer: same id, new owner; it leaves the old owner's list. The editor key follows
 * ownership: a new owner gets a new key (the answer's `link`), and the old link ends at once, over
 * HTTP and on sockets opened with it (the status event below names the new owner; the sockets of
 * every process hear it and close).
 */
export async function transferProject(
  ctx: RequestContext,
  input: { id: string; targetUser: string; callback?: string },
): Promise<Project> {
  assertProjectId(input.id, 'id');
  const target = userKeyOf(input.targetUser, 'targetUser');
  const callback = checkCallback(input.callback);
  return ctx.em.transactional(async (tx) => {
    const project = await tx.findOne(
      Project,
      { id: input.id, status: { $ne: 'deleted' } },
      { populate: ['owner', 'market'] },
    );
    if (!project) throw new NotFoundError('project', input.id, 'id');
    const owner = await findOrCreateEndUser(tx, ctx.tenant, target, target.includes('@') ? target : null);
    const newOwner = owner.id !== project.owner.id;
    tx.assign(project, {
      owner,
      updatedAt: new Date(),
      ...(newOwner ? { editorKeySeed: newEditorKeySeed() } : {}),
      ...(callback ? { callbackUrl: callback } : {}),
    });
    await recordProjectStatus(tx, project);
    return project;
  });
}

function pickCopiedFields(p: Project) {
  return {
    client: p.client,
    env: p.env,
    owner: p.owner,
    product: p.product,
    market: p.market,
    sku: p.sku,
    psp: p.psp,
    language: p.language,
    layoutType: p.layoutType,
    eCommercePlugin: p.eCommercePlugin,
    metadata: p.metadata,
    custom: p.custom,
    status: p.status === 'ordering' || p.status === 'expired' ? ('editable' as const) : p.status,
    photosStatus: p.photosStatus,
    title: p.title,
  };
}

function pickPhotoFields(photo: Photo) {
  const {
    clientPhotoId,
    assetId,
    url,
    position,
    status,
    problem,
    format,
    bytes,
    width,
    height,
    exifOrientation,
    capturedAt,
    sharpness,
    quality,
    perceptualHash,
    exposure,
    latitude,
    longitude,
    curation,
  } = photo;
  return {
    clientPhotoId,
    assetId,
    url,
    position,
    status,
    problem,
    format,
    bytes,
    width,
    height,
    exifOrientation,
    capturedAt,
    sharpness,
    quality,
    perceptualHash,
    exposure,
    latitude,
    longitude,
    curation,
  };
}

function remapBookPhotos(
  book: NonNullable<Project['book']>,
  photoIds: Map<string, string>,
): NonNullable<Project['book']> {
  const map = (id: string | undefined) => (id ? (photoIds.get(id) ?? id) : id);
  return {
    ...book,
    cover: { ...book.cover, photoId: map(book.cover.photoId) },
    pages: book.pages.map((page) => ({
      ...page,
      photos: page.photos.map((slot) => ({ ...slot, photoId: map(slot.photoId)! })),
    })),
  };
}
