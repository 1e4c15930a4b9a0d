import type { Market } from '../../db/entities';
import type { OrderWarning } from '../../db/entities/Order';
import type { ShippingLevelDefinition } from '../../db/entities/Market';
import { closestArea } from '../markets/destination';

/** A level of a market and how it reaches one destination country. */
export interface LevelReach {
  level: ShippingLevelDefinition;
  transitDays: { min: number; max: number };
}

/** A problem with the shipping of an order, named by the field of `/v2/print` it comes from. */
interface ShippingProblem {
  code: string;
  path: string;
  message: string;
}

/** The level an order ships with, and what was decided for the client on the way. */
export interface MatchedLevel {
  /** Null when the market has no shipping levels (a catalogue from before they existed). */
  level: ShippingLevelDefinition | null;
  warning?: OrderWarning;
  problem?: ShippingProblem;
}

/** The market's default level: the one marked `default`, else its first. */
export function defaultLevel(market: Pick<Market, 'shippingLevels'>): ShippingLevelDefinition | undefined {
  return market.shippingLevels.find((level) => level.default) ?? market.shippingLevels[0];
}

/** A level named by its code or any of its localized names, ignoring case and surrounding spaces. */
export function findLevel(market: Pick<Market, 'shippingLevels'>, name: string): ShippingLevelDefinition | undefined {
  const wanted = name.trim().toLocaleLowerCase('en');
  return market.shippingLevels.find(
    (level) =>
      level.code === wanted ||
      Object.values(level.name).some((localized) => localized.trim().toLocaleLowerCase('en') === wanted),
  );
}

/** How a level reaches a country (the country's own entry before its continent's); undefined if it does not. */
export function reachOf(level: ShippingLevelDefinition, country: string): LevelReach | undefined {
  const destination = closestArea(level.destinations, country);
  return destination && { level, transitDays: destination.transitDays };
}

/** Every level of the market that reaches the country, in catalogue order. */
export function levelsReaching(market: Pick<Market, 'shippingLevels'>, country: string): LevelReach[] {
  return market.shippingLevels.flatMap((level) => reachOf(level, country) ?? []);
}

/**
 * The level an order's `payment.shipping.method` means, for a destination country. A method that
 * names a level (by code or name, any case) is that level, and must reach the country. A missing
 * method, or one no level has (legacy integrators send free text), is the market's default level,
 * or the first level reaching the country when the default does not; an unknown method is not
 * refused, it is recorded as a warning on the order. `methodPath` names the field in problems.
 */
export function matchShippingLevel(
  market: Pick<Market, 'shippingLevels' | 'marketIdAlt'>,
  method: string | null | undefined,
  country: string,
  methodPath = 'payment.shipping.method',
): MatchedLevel {
  if (market.shippingLevels.length === 0) return { level: null };
  const named = method?.trim() ? findLevel(market, method) : undefined;
  if (named) {
    if (reachOf(named, country)) return { level: named };
    return {
      level: named,
      problem: {
        code: 'SHIPPING_LEVEL_UNAVAILABLE',
        path: methodPath,
        message: `"${named.code}" does not ship to ${country}`,
      },
    };
  }
  const fallback = [defaultLevel(market)!, ...market.shippingLevels].find((level) => reachOf(level, country));
  if (!fallback) {
    return {
      level: null,
      problem: {
        code: 'SHIPPING_LEVEL_UNAVAILABLE',
        path: 'user.address.countryIso2',
        message: `no shipping level of market ${market.marketIdAlt} reaches ${country}`,
      },
    };
  }
  const warning = method?.trim()
    ? {
        code: 'UNKNOWN_SHIPPING_METHOD',
        message: `payment.shipping.method "${method.trim()}" is not a shipping level of market ${market.marketIdAlt}; shipped with "${fallback.code}"`,
      }
    : undefined;
  return { level: fallback, ...(warning ? { warning } : {}) };
}

/** The level's price in a currency, as the catalogue wrote it; undefined when it has none there. */
export function levelPrice(level: ShippingLevelDefinition, currency: string): number | undefined {
  return level.prices.find((price) => price.currency === currency)?.price;
}
