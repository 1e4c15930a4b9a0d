import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The pages' locales (web/app/locales): every one holds every key of English, with the same placeholders. */
const LOCALES_DIR = path.resolve(__dirname, '../../web/app/locales');
const REQUIRED = ['en', 'de', 'fr', 'es', 'it', 'nl'];

type Message = string | Record<string, string>;
const load = async (locale: string): Promise<Record<string, Message>> =>
  (await import(path.join(LOCALES_DIR, `${locale}.js`))).messages;
const placeholders = (message: Message) =>
  [
    ...new Set(
      (typeof message === 'string' ? [message] : Object.values(message)).flatMap((text) =>
        [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      ),
    ),
  ].sort();

describe('the pages speak six languages', () => {
  it('has a locale file for each of English, German, French, Spanish, Italian and Dutch, and no other', () => {
    expect(
      readdirSync(LOCALES_DIR)
        .map((file) => file.replace(/\.js$/, ''))
        .sort(),
    ).toEqual([...REQUIRED].sort());
  });

  it.each(REQUIRED.filter((locale) => locale !== 'en'))(
    '%s has every key of English, no other, and the same placeholders',
    async (locale) => {
      const en = await load('en');
      const other = await load(locale);
      expect(Object.keys(other).sort(), `keys of ${locale}`).toEqual(Object.keys(en).sort());
      for (const [key, message] of Object.entries(en)) {
        expect(placeholders(other[key]), `${locale}.${key}`).toEqual(placeholders(message));
        if (typeof message === 'object') expect(other[key], `${locale}.${key} plural forms`).toHaveProperty('other');
        expect(
          typeof other[key] === 'string' ? other[key] : Object.values(other[key]).join(''),
          `${locale}.${key}`,
        ).not.toBe('');
      }
    },
  );
});
