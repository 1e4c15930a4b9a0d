import { countries } from 'countries-list';
import type { Market } from '../../db/entities';

/** The continent code (EU, NA, AS, OC, AF, SA, AN) of an ISO 3166-1 alpha-2 country; undefined if unknown. */
export function continentOf(country: string): string | undefined {
  return (countries as Record<string, { continent: string } | undefined>)[country]?.continent;
}

/**
 * Whether an area of a market (`shipsWithin`, a shipping level's destination, a tax rate) covers a
 * country: the area names the country itself, or its continent. The spec's areas are both kinds.
 */
function areaCovers(area: string, country: string): boolean {
  return area === country || area === continentOf(country);
}

/** Of several areas, the one that names the country itself before the one that names its continent. */
export function closestArea<T extends { isoCode2: string }>(areas: readonly T[], country: string): T | undefined {
  return areas.find((a) => a.isoCode2 === country) ?? areas.find((a) => areaCovers(a.isoCode2, country));
}

/** The market ships to the country (its `shipsWithin` covers it). */
export function marketShipsTo(market: Pick<Market, 'shipsWithin'>, country: string): boolean {
  return market.shipsWithin.some((area) => areaCovers(area.isoCode2, country));
}
