/** Text in several languages, keyed by 2-letter language code; `en` is always present. */
export type Localized = { en: string } & Record<string, string>;

interface RichTextBlock {
  type: 'heading' | 'paragraph' | 'list';
  text?: string;
  items?: string[];
}

/** Structured description (`descriptionJson`) per language. */
export type LocalizedRichText = { en: RichTextBlock[] } & Record<string, RichTextBlock[]>;

const DEFAULT_LANGUAGE = 'en';

/** `de-DE`, `de_DE` and `DE` all mean `de`. */
export function languageOf(code: string | undefined): string {
  return (code ?? DEFAULT_LANGUAGE).slice(0, 2).toLowerCase() || DEFAULT_LANGUAGE;
}

export function pick<T>(values: { en: T } & Record<string, T>, language: string): T {
  return values[language] ?? values.en;
}
