import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { Project } from '../types/project';
import { CoverDimensions, Preflight } from '../types/production';

/** Print production before the order: a product's cover sheet, a project's preflight (REST twins in the PWA routes). */
@Resolver(() => Project)
export class ProductionResolver {
  @Query(() => CoverDimensions, {
    description: "The cover sheet of a product for a page count (even, within the product's bounds)",
  })
  coverDimensions(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('sku', () => String) sku: string,
    @Arg('pages', () => Int) pages: number,
  ): Promise<CoverDimensions> {
    return services.production.coverDimensions(ctx, sku, pages);
  }

  @FieldResolver(() => CoverDimensions, {
    nullable: true,
    description:
      'The cover sheet of the book as it is now (its product and page count), as cover.pdf will measure it; null while the book is not built',
  })
  coverSheet(
    @Root() project: { id: string },
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<CoverDimensions | null> {
    return services.production.coverSheet(ctx, project.id);
  }

  @FieldResolver(() => Preflight, {
    description: 'The book as it is now, checked for print: whether it is printable and each problem where it sits',
  })
  preflight(@Root() project: { id: string }, @Ctx() { ctx, services }: GraphqlContext): Promise<Preflight> {
    return services.production.preflight(ctx, project.id);
  }
}
