import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Catalogue } from '../types/catalogue';
import type { GraphqlContext } from '../context';
import { languageOf } from '../../domain/localized';

@Resolver()
export class CatalogueResolver {
  @Query(() => Catalogue, {
    description: 'Products, categories, prices and currency of one market (REST: list-product.php)',
  })
  catalogue(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('marketId', () => Int, { defaultValue: 0 }) marketId: number,
    @Arg('language', () => String, { defaultValue: 'en' }) language: string,
    @Arg('v', () => Int, { nullable: true, description: 'Products tagged with this version and lower' }) v?:
      | number
      | null,
  ): Promise<Catalogue> {
    return services.catalogue.list(ctx, { marketId, language: languageOf(language), v: v ?? undefined });
  }
}
