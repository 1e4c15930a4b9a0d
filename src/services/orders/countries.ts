import { getCountryData, type TCountryCode } from 'countries-list';

/** ISO alpha-2 → alpha-3 and English name, from the countries-list data set; null if unknown. */
export function countryByIso2(code: string): { isoCode2: string; isoCode3: string; name: string } | null {
  const iso2 = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(iso2)) return null;
  const data = getCountryData(iso2 as TCountryCode) as { iso3?: string; name?: string } | undefined;
  return data?.iso3 && data.name ? { isoCode2: iso2, isoCode3: data.iso3, name: data.name } : null;
}
