import { Cursor, LoadStrategy } from '@mikro-orm/core';
import { Photo, Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { PhotosStatus, ProjectStatus } from '../../domain/project-status';
import { isProjectId } from '../../domain/ids';
import { MAX_PROJECT_PAGE_SIZE } from '../../domain/limits';
import { findOwnedOrThrow } from '../tenancy/owned';
import { assertIssuedCursor } from '../cursors';
import { findEndUser, userKeyOf } from './user-identity';
import type { ListedProjectSource, ProjectRecord } from './project-view';

export interface ProjectPage {
  projects: Project[];
  /** Present when another page may exist. */
  cursor?: string;
}

export interface ProjectPageOptions {
  cursor?: string;
  /** The field the client sent the cursor in, for errors: `cursor` (REST, the default) or `after` (GraphQL). */
  cursorField?: string;
  first?: number;
}

/**
 * A user's projects, newest first, deleted ones left out. Keyset pagination on (createdAt, id):
 * projects created while a client pages never shift or repeat later pages.
 */
export async function listProjects(ctx: RequestContext, user: string, options: ProjectPageOptions = {}): Promise<ProjectPage> {
  const first = options.first ?? MAX_PROJECT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PROJECT_PAGE_SIZE) throw ValidationError.field('first', `must be from 1 to ${MAX_PROJECT_PAGE_SIZE}`);
  if (options.cursor !== undefined) assertIssuedCursor(options.cursor, options.cursorField ?? 'cursor');
  const owner = await findEndUser(ctx.em, userKeyOf(user, 'user'));
  if (!owner) return { projects: [] };
  const page = await ctx.em.findByCursor(
    Project,
    { owner, status: { $ne: 'deleted' } },
    {
      first,
      after: options.cursor,
      orderBy: { createdAt: 'desc', id: 'desc' },
      populate: ['market', 'owner'],
      // One owner and a handful of markets: separate small queries beat mapping 100 joined rows.
      strategy: LoadStrategy.SELECT_IN,
      includeCount: false,
    },
  );
  return { projects: page.items, cursor: page.hasNextPage ? (page.endCursor ?? undefined) : undefined };
}

export interface ProjectSummaryPage {
  projects: ListedProjectSource[];
  /** Present when another page may exist; the same cursor `listProjects` issues. */
  cursor?: string;
}

interface ListedRow {
  id: string;
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
 * `listProjects` for the REST list: the same rows, order, page size and cursors, as plain rows
 * instead of managed entities. Hot read path: hydrating and tracking 100 entities per request would
 * cost most of its time (docs/performance.md). Raw SQL is outside the tenant filter, so every table
 * read names the tenant explicitly here (checked by test/e2e/tenancy-matrix.test.ts).
 */
export async function listProjectSummaries(ctx: RequestContext, user: string, cursor?: string): Promise<ProjectSummaryPage> {
  const after = cursor === undefined ? undefined : decodeListCursor(cursor, 'cursor');
  const externalId = userKeyOf(user, 'user');
  const { clientId, env } = ctx.tenant;
  const db = ctx.db;
  const [owner] = await db.execute<{ id: string }[]>('SELECT id FROM end_users WHERE client_id = ? AND env = ? AND external_id = ?', [clientId, env, externalId]);
  if (!owner) return { projects: [] };
  const rows = await db.execute<ListedRow[]>(
    `SELECT ${LISTED_COLUMNS}
       FROM projects p JOIN markets m ON m.id = p.market_id AND m.client_id = p.client_id
      WHERE p.owner_id = ? AND p.client_id = ? AND p.env = ? AND p.status <> 'deleted'
        ${after ? 'AND (p.created_at, p.id) < (?, ?)' : ''}
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ?`,
    [owner.id, clientId, env, ...(after ?? []), MAX_PROJECT_PAGE_SIZE + 1],
  );
  const projects = rows.slice(0, MAX_PROJECT_PAGE_SIZE).map(listedSourceOf);
  const last = projects.at(-1);
  return rows.length > MAX_PROJECT_PAGE_SIZE && last ? { projects, cursor: Cursor.encode([last.createdAt, last.id]) } : { projects };
}

const LISTED_COLUMNS = `p.id, p.title, p.sku, p.psp, p.preview_key, p.status, p.photos_status, p.ordered, p.created_at, p.updated_at, p.expires_at,
            m.market_id, m.market_id_alt`;

function listedSourceOf(row: ListedRow): ListedProjectSource {
  return {
    id: row.id,
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
 * SELECT and without entity hydration: the read of GraphQL `project(id)`. Raw SQL is outside the
 * tenant filter, so the tenant is an explicit condition (test/e2e/tenancy-matrix.test.ts).
 */
export async function findProjectRecord(ctx: RequestContext, id: string): Promise<ProjectRecord> {
  assertProjectId(id, 'id');
  const [row] = await ctx.db.execute<(ListedRow & { external_id: string })[]>(
    `SELECT ${LISTED_COLUMNS}, u.external_id
       FROM projects p JOIN markets m ON m.id = p.market_id AND m.client_id = p.client_id
                       JOIN end_users u ON u.id = p.owner_id AND u.client_id = p.client_id AND u.env = p.env
      WHERE p.id = ? AND p.client_id = ? AND p.env = ?`,
    [id, ctx.tenant.clientId, ctx.tenant.env],
  );
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
}

/**
 * One indexed SELECT of the columns the status record needs, without entity hydration, identity
 * map or populate, which would cost more than the query (docs/performance.md). Raw SQL is outside
 * the tenant filter, so the tenant is an
 * explicit condition: another client's id is "not found" exactly like an unknown one.
 */
export async function projectStatusRow(ctx: RequestContext, id: string): Promise<ProjectStatusRow> {
  assertProjectId(id, 'id');
  const [row] = await ctx.db.execute<{ id: string; status: ProjectStatus; photos_status: PhotosStatus; expires_at: string; ordered: boolean }[]>(
    'SELECT id, status, photos_status, expires_at, ordered FROM projects WHERE id = ? AND client_id = ? AND env = ?',
    [id, ctx.tenant.clientId, ctx.tenant.env],
  );
  if (!row) throw new NotFoundError('project', id, 'id');
  return { id: row.id, status: row.status, photosStatus: row.photos_status, expiresAt: new Date(row.expires_at), ordered: row.ordered };
}

/** docs/api.md, Project status: the project's status record; owner and order appear once it was sent to print. */
export async function projectStatus(ctx: RequestContext, id: string): Promise<Project> {
  assertProjectId(id, 'id');
  return findOwnedOrThrow(ctx, Project, id, { what: 'project', path: 'id', populate: ['owner', 'market'] });
}

export async function projectPhotos(ctx: RequestContext, project: Project): Promise<Photo[]> {
  return ctx.em.find(Photo, { project }, { orderBy: { position: 'asc' } });
}

export function assertProjectId(id: unknown, path: string): asserts id is string {
  if (!isProjectId(id)) {
    throw ValidationError.field(path, 'must be a project id starting with p-', 'INVALID_PROJECT_ID');
  }
}
