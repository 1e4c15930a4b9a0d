import type { FaceBox } from '../../domain/face-box';
import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import type { Transaction } from '@mikro-orm/core';
import type { ProductSpecifications } from '../../db/entities/Product';
import type { Book, LayoutType } from '../../domain/book';
import type { Environment } from '../../domain/environment';
import { canMoveProject, type PhotosStatus, type ProjectStatus } from '../../domain/project-status';
import { appendStatusEvent } from '../../events/status-event-log';
import type { PhotoCuration } from '../../domain/curation';
import type { BookPhoto } from './book-photo';
import type { CurationPhoto } from './photo-curation';
import { projectStatusChange } from './project-events';

/*
 * The database side of a project's build flow, in plain SQL: the build runs in the API process
 * next to the requests, and entities' unit of work would cost more than the statements themselves
 * (docs/performance.md). A step gets the project's id from its flow, never a tenant: it reads the tenant
 * from the project's row and records the status event under it.
 */

/** What laying out the book and its cover preview read of a project: one SELECT and one for photos. */
export interface BuildSource {
  id: string;
  clientId: string;
  env: Environment;
  /** The folder of the project's files (storage-keys.ts). */
  storageKey: string;
  status: ProjectStatus;
  layoutType: LayoutType;
  sku: string;
  custom: Record<string, string>;
  specifications: ProductSpecifications;
  /** Pages of the book built before, 0 without one. */
  pages: number;
  /** The page count an order priced the rebuilt book at (Project.heldPageCount): laid out to exactly this; null when none. */
  heldPageCount: number | null;
  /** Photos whose analysis succeeded, in the client's order. */
  usablePhotos: (BookPhoto &
    CurationPhoto & { assetId: string | null; originalKey: string | null; thumbnailKey: string | null })[];
}

/** created -> building, with its status event; answers the photos still to fetch and analyse. */
export async function startProjectBuild(db: AbstractSqlConnection, projectId: string): Promise<{ photoIds: string[] }> {
  await db.transactional((trx) => moveProjectRow(db, trx, projectId, 'created', 'building'));
  const photos = await db.execute<{ id: string }[]>(
    `SELECT id FROM photos WHERE project_id = ? AND status IN ('uploading', 'analyzing') ORDER BY position`,
    [projectId],
  );
  return { photoIds: photos.map((photo) => photo.id) };
}

/** The project as its book is laid out, or null when it is gone. */
export async function readBuildSource(db: AbstractSqlConnection, projectId: string): Promise<BuildSource | null> {
  const [project] = await db.execute<
    {
      id: string;
      client_id: string;
      env: Environment;
      storage_key: string;
      status: ProjectStatus;
      layout_type: LayoutType;
      sku: string;
      custom: Record<string, string>;
      specifications: ProductSpecifications;
      pages: number;
      held_page_count: number | null;
    }[]
  >(
    `SELECT p.id, p.client_id, p.env, p.storage_key, p.status, p.layout_type, p.sku, p.custom, pr.specifications,
            COALESCE(jsonb_array_length(p.book -> 'pages'), 0) AS pages, p.held_page_count
       FROM projects p JOIN products pr ON pr.id = p.product_id AND pr.client_id = p.client_id
      WHERE p.id = ?`,
    [projectId],
  );
  if (!project) return null;
  const photos = await db.execute<
    {
      id: string;
      asset_id: string | null;
      original_key: string | null;
      thumbnail_key: string | null;
      width: number;
      height: number;
      captured_at: string | null;
      quality: number | null;
      position: number;
      sharpness: number | null;
      exposure: number | null;
      perceptual_hash: string | null;
      latitude: number | null;
      longitude: number | null;
      faces: FaceBox[] | null;
    }[]
  >(
    `SELECT id, asset_id, original_key, thumbnail_key, width, height, captured_at, quality::float8 AS quality, position,
            sharpness::float8 AS sharpness, exposure::float8 AS exposure, perceptual_hash, latitude, longitude,
            faces
       FROM photos WHERE project_id = ? AND status = 'idle' ORDER BY position`,
    [projectId],
  );
  return {
    id: project.id,
    clientId: project.client_id,
    env: project.env,
    storageKey: project.storage_key,
    status: project.status,
    layoutType: project.layout_type,
    sku: project.sku,
    custom: project.custom,
    specifications: project.specifications,
    pages: project.pages,
    heldPageCount: project.held_page_count,
    usablePhotos: photos.map((photo) => ({
      id: photo.id,
      assetId: photo.asset_id,
      originalKey: photo.original_key,
      thumbnailKey: photo.thumbnail_key,
      width: photo.width,
      height: photo.height,
      capturedAt: photo.captured_at === null ? null : new Date(photo.captured_at),
      quality: photo.quality ?? 0,
      position: photo.position,
      // Photos analysed before exposure was measured count as well exposed; without a hash, never a copy.
      sharpness: photo.sharpness ?? 0,
      exposure: photo.exposure ?? 1,
      perceptualHash: photo.perceptual_hash,
      latitude: photo.latitude,
      longitude: photo.longitude,
      faces: photo.faces,
    })),
  };
}

/**
 * building -> editable with the laid-out book and its preview, and the status event. Answers the
 * project's status afterwards: a project deleted or expired meanwhile keeps that status, unbuilt.
 */
export async function finishProjectBuild(
  db: AbstractSqlConnection,
  projectId: string,
  built: { book: Book; previewKey: string; curation?: Map<string, PhotoCuration> },
): Promise<ProjectStatus> {
  return db.transactional(async (trx) => {
    const moved = await moveProjectRow(db, trx, projectId, 'building', 'editable', {
      book: built.book,
      title: built.book.cover.title,
      previewKey: built.previewKey,
    });
    if (moved) {
      // Every photo's decision in one statement; a photo without one (fastbook, an asset, a failed photo) null.
      await db.execute(
        `UPDATE photos SET curation = ?::jsonb -> (id::text) WHERE project_id = ?`,
        [JSON.stringify(Object.fromEntries(built.curation ?? [])), projectId],
        'all',
        trx,
      );
      return 'editable';
    }
    const [row] = await db.execute<{ status: ProjectStatus }[]>(
      'SELECT status FROM projects WHERE id = ?',
      [projectId],
      'all',
      trx,
    );
    return row?.status ?? 'deleted';
  });
}

/**
 * Moves the project from `from` to `to` (locking its row) and records the status event, in `trx`;
 * false when the project is not at `from`, which changes nothing.
 */
async function moveProjectRow(
  db: AbstractSqlConnection,
  trx: Transaction,
  projectId: string,
  from: ProjectStatus,
  to: ProjectStatus,
  built?: { book: Book; title: string; previewKey: string },
): Promise<boolean> {
  if (!canMoveProject(from, to)) throw new Error(`a project cannot move from ${from} to ${to}`);
  const [row] = await db.execute<
    { client_id: string; env: Environment; photos_status: PhotosStatus; external_id: string }[]
  >(
    `UPDATE projects p SET status = ?, updated_at = ?${built ? ', book = ?, title = ?, preview_key = ?' : ''}
       FROM end_users u
      WHERE p.id = ? AND p.status = ? AND u.id = p.owner_id
      RETURNING p.client_id, p.env, p.photos_status, u.external_id`,
    [to, new Date(), ...(built ? [JSON.stringify(built.book), built.title, built.previewKey] : []), projectId, from],
    'all',
    trx,
  );
  if (!row) return false;
  const change = projectStatusChange({
    id: projectId,
    status: to,
    photosStatus: row.photos_status,
    ownerExternalId: row.external_id,
  });
  await appendStatusEvent(db, trx, { clientId: row.client_id, env: row.env }, change);
  return true;
}
