import { Market } from '../../db/entities';
import type { RequestContext } from '../context';
import { pick } from '../../domain/localized';
import { locateCountry } from './locate-country';
import type { MarketListing, MarketView } from './market-view';

export interface MarketQuery {
  language: string;
  latitude?: number;
  longitude?: number;
}

/** `suggested` needs both coordinates; one alone is not an error (spec 4.11: it is simply left out). */
export async function listMarkets(ctx: RequestContext, query: MarketQuery): Promise<MarketListing> {
  const hasLatitude = query.latitude !== undefined && query.latitude !== null;
  const hasLongitude = query.longitude !== undefined && query.longitude !== null;
  const markets = await ctx.em.find(
    Market,
    {},
    { populate: ['currency'], orderBy: { marketId: 'asc' }, disableIdentityMap: true },
  );
  const results = markets.map((m) => toView(m, query.language));
  if (!hasLatitude || !hasLongitude) return { results };
  const chosen = await suggestMarket(markets, query.latitude!, query.longitude!);
  return { results, suggested: chosen && results.find((r) => r.marketId === chosen.marketId) };
}

/**
 * The market that ships to the country at the coordinates: one naming the country itself first,
 * else one naming its continent, else the default market 0.
 */
async function suggestMarket(markets: Market[], latitude: number, longitude: number): Promise<Market | undefined> {
  const location = await locateCountry(latitude, longitude);
  const shipsTo = (code: string | undefined) =>
    code ? markets.find((m) => m.shipsWithin.some((area) => area.isoCode2 === code)) : undefined;
  return (
    (location && (shipsTo(location.country) ?? shipsTo(location.continent))) ??
    markets.find((m) => m.marketId === 0) ??
    markets[0]
  );
}

function toView(market: Market, language: string): MarketView {
  const defaultLevel = market.shippingLevels.find((level) => level.default) ?? market.shippingLevels[0];
  return {
    marketId: market.marketId,
    marketIdAlt: market.marketIdAlt,
    storeName: pick(market.storeName, language),
    isoCode2: market.isoCode2,
    currency: market.currency.code,
    shipsWithin: market.shipsWithin.map((area) => ({ isoCode2: area.isoCode2, name: pick(area.name, language) })),
    shippingLevels: market.shippingLevels.map((level) => ({
      code: level.code,
      name: pick(level.name, language),
      default: level === defaultLevel,
      price: level.prices.find((p) => p.currency === market.currency.code)?.price ?? 0,
      destinations: level.destinations.map(({ isoCode2, transitDays }) => ({
        isoCode2,
        transitDays: { min: transitDays.min, max: transitDays.max },
      })),
    })),
  };
}
