// Every user-facing text Ward shows (error messages, hosted pages, emails, SMS), one module per
// language under this folder. English (en/) is the reference: the others are typed as `Texts`, so a
// key missing in one of them fails the type check, and test/texts checks every key is there at run
// time too. Texts that take values are functions of them; they return plain text (pages escape it).
import { de } from './de/index.js';
import { en, type Texts } from './en/index.js';
import { es } from './es/index.js';
import { fr } from './fr/index.js';
import type { Language } from './language.js';

export type { Texts };
export { isLanguage, LANGUAGES, type Language } from './language.js';

const ALL: Record<Language, Texts> = { en, fr, de, es };

/** The texts of one language; English for one Ward does not speak. */
export const textsIn = (language: string): Texts => ALL[language as Language] ?? en;
