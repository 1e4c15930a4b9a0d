import { LoadStrategy } from '@mikro-orm/core';
import { Photo, Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { ValidationError } from '../../domain/errors';
import { isProjectId } from '../../domain/ids';
import { MAX_PROJECT_PAGE_SIZE } from '../../domain/limits';
import { findOwnedOrThrow } from '../tenancy/owned';
import { assertIssuedCursor } from '../cursors';
import { findEndUser, userKeyOf } from './user-identity';

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
