import type { Preflight } from '../../domain/preflight';
import type { RequestContext } from '../context';
import { coverDimensions, projectCoverSheet, type CoverDimensionsView } from './cover-dimensions';
import { preflightProject } from '../preflight/preflight';

/** Print production as clients ask about it before an order: a product's cover sheet, a project's preflight. */
export class ProductionService {
  coverDimensions(ctx: RequestContext, sku: string, pages: number): Promise<CoverDimensionsView> {
    return coverDimensions(ctx, sku, pages);
  }

  coverSheet(ctx: RequestContext, projectId: string): Promise<CoverDimensionsView | null> {
    return projectCoverSheet(ctx, projectId);
  }

  preflight(ctx: RequestContext, projectId: unknown): Promise<Preflight> {
    return preflightProject(ctx, projectId);
  }
}
