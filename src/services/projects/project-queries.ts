import { Cursor, LoadStrategy } from '@mikro-orm/core';
import { Photo, Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { ValidationError } from '../errors';
import { findOwnedOrThrow } from '../tenancy/owned';
import { findEndUser, userKeyOf } from './user-identity';

export const MAX_PAGE_SIZE = 100;

export interface ProjectPage {
  projects: Project[];
  /** Present when another page may exist. */
  cursor?: string;
}

/**
 * A user's projects, newest first, deleted ones left out. Keyset pagination on (createdAt, id):
 * projects created while a client pages never shift or repeat later pages.
 */
export async function listProjects(ctx: RequestContext, user: string, options: { cursor?: string; first?: number } = {}): Promise<ProjectPage> {
  const first = options.first ?? MAX_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) throw ValidationError.field('first', `must be from 1 to ${MAX_PAGE_SIZE}`);
  if (options.cursor !== undefined) assertCursor(options.cursor);
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

/** docs/api.md, Project status: the project's status record; owner and order appear once it was sent to print. */
export async function projectStatus(ctx: RequestContext, id: string): Promise<Project> {
  assertProjectId(id, 'id');
  return findOwnedOrThrow(ctx, Project, id, { what: 'project', path: 'id', populate: ['owner', 'market'] });
}

export async function projectPhotos(ctx: RequestContext, project: Project): Promise<Photo[]> {
  return ctx.em.find(Photo, { project }, { orderBy: { position: 'asc' } });
}

export function assertProjectId(id: unknown, path: string): asserts id is string {
  if (typeof id !== 'string' || !/^p-[A-Za-z0-9_-]{1,38}$/.test(id)) {
    throw ValidationError.field(path, 'must be a project id starting with p-', 'INVALID_PROJECT_ID');
  }
}

/** Cursors are opaque to clients; anything we did not issue is refused up front, naming `cursor`. */
function assertCursor(cursor: string): void {
  try {
    const decoded = Cursor.decode(cursor);
    if (!Array.isArray(decoded) || decoded.length !== 2) throw new Error('shape');
  } catch {
    throw ValidationError.field('cursor', 'is not a cursor this service issued', 'UNKNOWN_CURSOR');
  }
}
