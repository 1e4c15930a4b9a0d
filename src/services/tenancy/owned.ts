import type { EntityName, FilterQuery, Loaded, Populate } from '@mikro-orm/core';
import type { RequestContext } from '../context';
import { NotFoundError } from '../../domain/errors';

interface TenantOwned {
  id: string;
}

/**
 * Loads a row by id through the request's tenant-scoped EntityManager, or throws "not found": the
 * tenant filter leaves another client's row out, so a foreign id looks exactly like a missing one
 * and no client can learn that another client's row exists.
 */
export async function findOwnedOrThrow<T extends TenantOwned, Hint extends string = never>(
  ctx: RequestContext,
  entity: EntityName<T>,
  id: string,
  options: { what: string; path: string; populate?: Populate<T, Hint> },
): Promise<Loaded<T, Hint>> {
  const row = await ctx.em.findOne(entity, { id } as FilterQuery<T>, { populate: options.populate });
  if (!row) throw new NotFoundError(options.what, id, options.path);
  return row;
}
