import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../context';
import { NotFoundError } from '../../domain/errors';

interface TenantOwned {
  id: string;
}

/**
 * Loads a row of the caller's client and environment, or throws "not found": a foreign id looks
 * exactly like a missing one, so no client can learn that another client's row exists.
 */
export async function findOwnedOrThrow<T extends TenantOwned>(
  ctx: RequestContext,
  entity: EntityName<T>,
  id: string,
  options: { what: string; path: string; populate?: string[] },
): Promise<T> {
  const where = { id, client: ctx.tenant.clientId, env: ctx.tenant.env } as unknown as FilterQuery<T>;
  const row = await ctx.em.findOne(entity, where, { populate: options.populate as never });
  if (!row) throw new NotFoundError(options.what, id, options.path);
  return row;
}
