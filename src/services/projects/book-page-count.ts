import type { RequestContext } from '../context';

/**
 * The interior page count of each project's book as it is now, by project id; a project whose
 * book is not laid out yet is missing from the map. Counted in SQL, so an order of 50 books does
 * not load 50 layouts; the statement names the tenant itself (plain SQL is outside the filter).
 */
export async function bookPageCounts(ctx: RequestContext, projectIds: string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await ctx.db.execute<{ id: string; pages: number | null }[]>(
    `select id, jsonb_array_length(book -> 'pages') as pages from projects
      where id in (select jsonb_array_elements_text(?::jsonb)) and client_id = ? and env = ? and book is not null`,
    [JSON.stringify(projectIds), ctx.tenant.clientId, ctx.tenant.env],
  );
  return new Map(rows.filter((row) => row.pages !== null).map((row) => [row.id, Number(row.pages)]));
}
