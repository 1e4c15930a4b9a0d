import { messages as de } from './locales/de.js';
import { messages as en } from './locales/en.js';
import { messages as es } from './locales/es.js';
import { messages as fr } from './locales/fr.js';
import { messages as it } from './locales/it.js';
import { messages as nl } from './locales/nl.js';

/*
 * The pages' words in the customer's language. The editor link's `language` (spec 4.1: a 2-character
 * code or a language-region pair) chooses the locale; an unknown one is English. Every locale holds
 * every key of `en` (test/web/locales.test.ts fails on a missing one), so `t` never shows a key.
 * Numbers, prices and dates are formatted by Intl in the same locale.
 */
export const LOCALES = { en, de, fr, es, it, nl };

const requested = (new URLSearchParams(location.search).get('language') ?? 'en').slice(0, 2).toLowerCase();
export const language = Object.hasOwn(LOCALES, requested) ? requested : 'en';
document.documentElement.lang = language;

const plurals = new Intl.PluralRules(language);

/**
 * The text of `key` with `{name}` placeholders filled from `vars`. A value that is an object of plural
 * forms (`{ one, other }`) is chosen by `vars.count` through Intl.PluralRules.
 */
export function t(key, vars = {}) {
  return tIn(language, key, vars);
}

/** `t` in another locale: the English words the editor tells the shop's page (docs/api.md, "Editor channel messages"). */
export function tIn(locale, key, vars = {}) {
  let text = LOCALES[locale][key] ?? en[key] ?? key;
  if (typeof text === 'object') text = text[pluralRules(locale).select(vars.count ?? 0)] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? formatValue(vars[name], locale) : `{${name}}`));
}

const pluralRules = (locale) => (locale === language ? plurals : new Intl.PluralRules(locale));
const formatValue = (value, locale) =>
  typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : String(value);

export const formatNumber = (value, options) => new Intl.NumberFormat(language, options).format(value);

/** An amount in major units of `currency` (ISO 4217), as the customer's locale writes prices. */
export const formatPrice = (amount, currency) =>
  new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);

/** A date (Date, ISO string or Unix ms) in the customer's locale; `options` as Intl.DateTimeFormat's. */
export const formatDate = (value, options = { dateStyle: 'medium' }) =>
  new Intl.DateTimeFormat(language, options).format(new Date(value));
