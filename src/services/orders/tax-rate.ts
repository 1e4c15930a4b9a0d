import type { Market } from '../../db/entities';
import { closestArea } from '../markets/destination';

/**
 * The tax rate (percent, as exact decimal text) a market charges for a destination: the rate of
 * the country, else of its continent, else 0 (the catalogue lists no rate: an export, or tax the
 * shop computes itself, such as US sales tax).
 */
export function taxRateFor(market: Pick<Market, 'taxRates'>, country: string): string {
  const rate = closestArea(market.taxRates, country)?.rate ?? 0;
  return String(rate);
}
