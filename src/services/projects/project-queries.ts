import { Cursor } from '@mikro-orm/core';
import { Photo, type Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { PhotosStatus, ProjectStatus } from '../../domain/project-status';
import { isProjectId } from '../../domain/ids';
import { FILE_MISSING_PROBLEM, type FailedPhoto } from '../../domain/preflight';
import type { PhotoCuration } from '../../domain/curation';
import { MAX_PROJECT_PAGE_SIZE } from '../../domain/limits';
import { selectOfTenant } from '../tenancy/tenant-sql';
import { assertIssuedCursor } from '../cursors';
import { userKeyOf } from './user-identity';
import type { ListedProjectSource, ProjectRecord } from './project-view';

export interface ProjectPageOptions {
  cursor?: string;
  /** The field the client sent the cursor in, for errors: `cursor` (REST, the default) or `after` (GraphQL). */
  cursorField?: string;
  first?: number;
}

export interface ProjectPage {
  projects: ProjectRecord[];
  /** Present when another page may exist. */
  cursor?: string;
}

interface ListedRow {
  id: string;
  editor_key_seed: string;
  title: string | null;
  sku: string;
  psp: string;
  preview_key: string | null;
  status: ProjectStatus;
  photos_status: PhotosStatus;
  ordered: boolean;
  /** Timestamps come as PostgreSQL's text (the ORM's type parser), read with `new Date`. */
  created_at: string;
  updated_at: string;
  expires_at: string;
  market_id: number;
  market_id_alt: string;
}

/**
 * A user's projects, newest first, deleted ones left out, for REST `project/list` and GraphQL
 * `projects` alike. Keyset pagination on (createdAt, id): projects created while a client pages
 * never shift or repeat later pages. Plain rows, not managed entities: hydrating and tracking 100
 * entities per request would cost most of its time (docs/performance.md).
 */
export async function listProjects(
  ctx: RequestContext,
  user: string,
  options: ProjectPageOptions = {},
): Promise<ProjectPage> {
  const first = options.first ?? MAX_PROJECT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PROJECT_PAGE_SIZE)
    throw ValidationError.field('first', `must be from 1 to ${MAX_PROJECT_PAGE_SIZE}`);
  const after =
    options.cursor === undefined ? undefined : decodeListCursor(options.cursor, options.cursorField ?? 'cursor');
  const externalId = userKeyOf(user, 'user');
  const [owner] = await selectOfTenant<{ id: string }>(ctx, {
    columns: 'u.id',
    from: ['end_users', 'u'],
    where: 'u.external_id = ?',
    params: [externalId],
  });
  if (!owner) return { projects: [] };
  const rows = await selectOfTenant<ListedRow>(ctx, {
    columns: LISTED_COLUMNS,
    from: ['projects', 'p'],
    join: [['markets', 'm', 'm.id = p.market_id']],
    where: `p.owner_id = ? AND p.status <> 'deleted'${after ? ' AND (p.created_at, p.id) < (?, ?)' : ''}`,
    params: [owner.id, ...(after ?? [])],
    orderBy: 'p.created_at DESC, p.id DESC',
    limit: first + 1,
  });
  const ownerRef = { externalId };
  const projects = rows.slice(0, first).map((row) => ({ ...listedSourceOf(row), owner: ownerRef }));
  const last = projects.at(-1);
  return rows.length > first && last ? { projects, cursor: cursorOf(last) } : { projects };
}

/** The keyset cursor of a project in a list: its (createdAt, id), as MikroORM's `Cursor` encodes it. */
export function cursorOf(project: Pick<ProjectRecord, 'createdAt' | 'id'>): string {
  return Cursor.encode([project.createdAt, project.id]);
}

const LISTED_COLUMNS = `p.id, p.editor_key_seed, p.title, p.sku, p.psp, p.preview_key, p.status, p.photos_status, p.ordered, p.created_at, p.updated_at, p.expires_at,
            m.market_id, m.market_id_alt`;

function listedSourceOf(row: ListedRow): ListedProjectSource {
  return {
    id: row.id,
    editorKeySeed: row.editor_key_seed,
    title: row.title,
    sku: row.sku,
    psp: row.psp,
    previewKey: row.preview_key,
    status: row.status,
    photosStatus: row.photos_status,
    ordered: row.ordered,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
    market: { marketId: row.market_id, marketIdAlt: row.market_id_alt },
  };
}

/**
 * One project with what its GraphQL type and the owned view read (owner's id, market), in one
 * SELECT and without entity hydration: the read of GraphQL `project(id)` beyond its status.
 */
export async function findProjectRecord(ctx: RequestContext, id: string): Promise<ProjectRecord> {
  assertProjectId(id, 'id');
  const [row] = await selectOfTenant<ListedRow & { external_id: string }>(ctx, {
    columns: `${LISTED_COLUMNS}, u.external_id`,
    from: ['projects', 'p'],
    join: [
      ['markets', 'm', 'm.id = p.market_id'],
      ['end_users', 'u', 'u.id = p.owner_id'],
    ],
    where: 'p.id = ?',
    params: [id],
  });
  if (!row) throw new NotFoundError('project', id, 'id');
  return { ...listedSourceOf(row), owner: { externalId: row.external_id } };
}

/** A cursor of the (createdAt, id) keyset, as `Cursor.for` encodes it; anything else is a 400 naming `field`. */
function decodeListCursor(cursor: string, field: string): [Date, string] {
  assertIssuedCursor(cursor, field);
  const [createdAt, id] = Cursor.decode(cursor) as unknown[];
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime()) || typeof id !== 'string') {
    throw ValidationError.field(field, 'is not a cursor this service issued', 'UNKNOWN_CURSOR');
  }
  return [createdAt, id];
}

/** The status columns of one project, the hot read of `project/status`. */
export interface ProjectStatusRow {
  id: string;
  status: ProjectStatus;
  photosStatus: PhotosStatus;
  expiresAt: Date;
  /** Only an ordered project has order details to look up. */
  ordered: boolean;
  /** The project's failed photos, in the client's order (the preflight's `failedPhotos`). */
  failedPhotos: FailedPhoto[];
  /** The smartbook's decisions, in the client's order; empty before a smartbook build. */
  curatedPhotos: CuratedPhoto[];
}

interface CuratedPhoto {
  id: string;
  clientPhotoId?: string;
  url: string;
  curation: PhotoCuration;
}

/**
 * One indexed SELECT of the columns the status record needs, without entity hydration, identity
 * map or populate, which would cost more than the query (docs/performance.md): the one read of a
 * project's status, for REST `project/status` and GraphQL `project(id)` alike. Another client's id
 * is "not found" exactly like an unknown one.
 */
export async function projectStatusRow(ctx: RequestContext, id: string): Promise<ProjectStatusRow> {
  assertProjectId(id, 'id');
  const [row] = await selectOfTenant<{
    id: string;
    status: ProjectStatus;
    photos_status: PhotosStatus;
    expires_at: string;
    ordered: boolean;
    failed_photos: {
      id: string;
      client_photo_id: string | null;
      url: string;
      problem: FailedPhoto['problem'] | null;
    }[];
    curated_photos: { id: string; client_photo_id: string | null; url: string; curation: PhotoCuration }[];
  }>(ctx, {
    // The failed photos in the same round trip (an index scan of the project's photos), not a second query.
    columns:
      'p.id, p.status, p.photos_status, p.expires_at, p.ordered, ' +
      `(select coalesce(json_agg(json_build_object('id', f.id, 'client_photo_id', f.client_photo_id, 'url', f.url, 'problem', f.problem) order by f.position), '[]')` +
      ` from photos f where f.project_id = p.id and (f.status = 'failed' or (f.status = 'idle' and f.original_key is null))) as failed_photos, ` +
      `(select coalesce(json_agg(json_build_object('id', c.id, 'client_photo_id', c.client_photo_id, 'url', c.url, 'curation', c.curation) order by c.position), '[]')` +
      ` from photos c where c.project_id = p.id and c.curation is not null) as curated_photos`,
    from: ['projects', 'p'],
    where: 'p.id = ?',
    params: [id],
  });
  if (!row) throw new NotFoundError('project', id, 'id');
  return {
    id: row.id,
    status: row.status,
    photosStatus: row.photos_status,
    expiresAt: new Date(row.expires_at),
    ordered: row.ordered,
    failedPhotos: row.failed_photos.map((photo) => ({
      id: photo.id,
      ...(photo.client_photo_id ? { clientPhotoId: photo.client_photo_id } : {}),
      url: photo.url,
      problem: photo.problem ?? { ...FILE_MISSING_PROBLEM },
    })),
    curatedPhotos: row.curated_photos.map((photo) => ({
      id: photo.id,
      ...(photo.client_photo_id ? { clientPhotoId: photo.client_photo_id } : {}),
      url: photo.url,
      curation: photo.curation,
    })),
  };
}

export async function projectPhotos(ctx: RequestContext, project: Project): Promise<Photo[]> {
  return ctx.em.find(Photo, { project }, { orderBy: { position: 'asc' } });
}

export function assertProjectId(id: unknown, path: string): asserts id is string {
  if (!isProjectId(id)) {
    throw ValidationError.field(path, 'must be a project id starting with p-', 'INVALID_PROJECT_ID');
  }
}
