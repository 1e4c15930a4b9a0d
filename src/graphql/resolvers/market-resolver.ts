import { Arg, Ctx, Float, Query, Resolver } from 'type-graphql';
import { MarketListing } from '../types/market';
import type { GraphqlContext } from '../context';
import { languageOf } from '../../domain/localized';
import { listMarkets } from '../../services/markets/market-service';

@Resolver()
export class MarketResolver {
  @Query(() => MarketListing, {
    description: 'All markets, and the one suggested for a location (REST: get-market.php)',
  })
  markets(
    @Ctx() { ctx }: GraphqlContext,
    @Arg('language', () => String, { defaultValue: 'en' }) language: string,
    @Arg('latitude', () => Float, { nullable: true }) latitude?: number | null,
    @Arg('longitude', () => Float, { nullable: true }) longitude?: number | null,
  ): Promise<MarketListing> {
    return listMarkets(ctx, {
      language: languageOf(language),
      latitude: latitude ?? undefined,
      longitude: longitude ?? undefined,
    });
  }
}
