import { continentOf } from './destination';

export interface Location {
  /** ISO 3166-1 alpha-2 country code. */
  country: string;
  /** Continent code: AF, AN, AS, EU, NA, OC, SA. */
  continent?: string;
}

/**
 * The country at a coordinate, resolved offline from the borders shipped in country-coder
 * (OpenStreetMap's boundary data); null over the sea or unclaimed land. The borders (about 3 MiB of
 * heap) load with the first lookup, not with every process that never suggests a market.
 */
export async function locateCountry(latitude: number, longitude: number): Promise<Location | null> {
  const { iso1A2Code } = await import('@rapideditor/country-coder');
  // `country` granularity folds territories into their sovereign where ISO has no own code.
  const country = iso1A2Code([longitude, latitude], { level: 'territory' }) ?? iso1A2Code([longitude, latitude]);
  if (!country) return null;
  return { country, continent: continentOf(country) };
}
