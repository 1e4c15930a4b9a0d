import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { Project } from '../types/project';
import { CoverDimensions, Preflight, Proof } from '../types/production';
import type { ProofView } from '../../services/production/proof-view';

/** Print production before the order: a product's cover sheet, a project's preflight and proof (REST twins in the PWA routes). */
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

  @Mutation(() => Proof, {
    description:
      "Render the project's print files now; printOrder with projects[].proofId prints exactly them, or is refused with PROOF_STALE once the book changed (REST: POST /v2/project/proof)",
  })
  async proofProject(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('id', () => String) id: string,
    @Arg('colorCorrection', () => Boolean, { nullable: true }) colorCorrection?: boolean | null,
  ): Promise<Proof> {
    return proofOf(await services.production.proof(ctx, { id, colorCorrection: colorCorrection ?? undefined }));
  }

  @Query(() => Proof, { description: 'A proof of the caller, with a fresh preview URL (REST: GET /v2/project/proof)' })
  async proof(@Ctx() { ctx, services }: GraphqlContext, @Arg('id', () => String) id: string): Promise<Proof> {
    return proofOf(await services.production.readProof(ctx, id));
  }
}

function proofOf(view: ProofView): Proof {
  return { ...view, expiresAt: new Date(view.expiresAt * 1000) };
}
