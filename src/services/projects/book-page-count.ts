import type { RequestContext } from '../context';
import { selectOfTenant } from '../tenancy/tenant-sql';

/**
 * The interior page count of each project's book as it is now, by project id; a project whose
 * book is not laid out yet is missing from the map. Counted in SQL, so an order of 50 books does
 * not load 50 layouts.
 */
export async function bookPageCounts(ctx: RequestContext, projectIds: string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await selectOfTenant<{ id: string; pages: number | null }>(ctx, {
    columns: "p.id, jsonb_array_length(p.book -> 'pages') AS pages",
    from: ['projects', 'p'],
    where: 'p.id IN (SELECT jsonb_array_elements_text(?::jsonb)) AND p.book IS NOT NULL',
    params: [JSON.stringify(projectIds)],
  });
  return new Map(rows.filter((row) => row.pages !== null).map((row) => [row.id, Number(row.pages)]));
}
