// The languages Ward speaks: one folder each under src/texts/. Adding one is its folder and its code here.

export const LANGUAGES = ['en', 'fr', 'de', 'es'] as const;

export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language of one BCP 47 tag ('fr-CA', 'de_AT', 'ES') when Ward speaks it, else null. */
export function languageOfTag(tag: string | null | undefined): Language | null {
  const primary = (tag ?? '').trim().split(/[-_]/)[0]!.toLowerCase();
  return isLanguage(primary) ? primary : null;
}
