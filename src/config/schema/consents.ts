import type { Rule } from './check.js';
import { flag, group, int, list, oneOf, text } from './kit.js';

/** The consent types of ReachFive's user consents (the Core SDK's ConsentType). */
export const CONSENT_TYPES = ['opt-in', 'opt-out', 'double-opt-in'] as const;

const ConsentText = group(
  {
    language: text('The language of this text: a BCP 47 tag such as en or fr-FR.', {
      pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$',
      allowed: 'a BCP 47 language tag such as en or fr-FR',
    }),
    title: text('What the user agrees to, in a few words (the signup checkbox label).', {
      min: 1,
      max: 200,
      check: 'printable',
    }),
    description: text('The full text the user agrees to.', { max: 4000, value: '' }),
  },
  'The title and description of one version in one language.',
  ['language', 'title'],
);

const ConsentVersion = group(
  {
    version_id: int(1, 1_000_000, 'The version number; the highest one is the current version.'),
    texts: list(ConsentText, 50, 'Its title and description in each language (the first is the fallback).', {
      min: 1,
    }),
    require_reconsent: flag(
      false,
      'Users whose consent is on an older version (or who never gave a required one) accept it again at their next sign-in through the hosted pages.',
    ),
  },
  'One version of a consent definition: what the user agreed to.',
  ['version_id', 'texts'],
);

export const ConsentDefinition = group(
  {
    key: text("The key under the user's consents: snake_case, unique.", {
      pattern: '^[a-z][a-z0-9_]{0,63}$',
      allowed: 'snake_case: a lower-case letter, then letters, digits or _ (at most 64)',
    }),
    consent_type: oneOf(
      CONSENT_TYPES,
      undefined,
      '`opt-in`, `opt-out`, or `double-opt-in` (a grant waits for the link mailed to the user).',
    ),
    status: oneOf(
      ['active', 'archived'],
      'active',
      "`active`: offered and writable; `archived`: kept in users' consents and history, no longer written.",
    ),
    required: flag(false, 'Must be granted at signup (the hosted signup page and the API).'),
    versions: list(ConsentVersion, 100, 'Its versions (ids distinct); the highest is the one given now.', { min: 1 }),
  },
  'One consent definition: a key users grant or withdraw (a newsletter), its type and its versions.',
  ['key', 'consent_type', 'versions'],
);

export const ConsentDefinitions = list(
  ConsentDefinition,
  100,
  "The account's consent definitions (users' consents: signup, update-profile, the management API); a PATCH replaces the whole list.",
);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A language tag as the texts are matched (textIn in accounts/user-consents.ts): fr_FR is fr-FR. */
const sameLanguage = (tag: unknown) => String(tag).toLowerCase().replace('_', '-');

/**
 * Keys unique; version ids unique in a definition; one text per language in a version (a second one
 * would never be shown); a required consent is an active one.
 */
export const consentDefinitionRules: Rule<{ consents: unknown }> = (a, add) => {
  if (!Array.isArray(a.consents)) return;
  const seen = new Set<unknown>();
  a.consents.forEach((d: unknown, i) => {
    if (!isObject(d)) return;
    const at = `.consents[${i}]`;
    if (seen.has(d.key)) add(`${at}.key`, `${String(d.key)} is declared twice`);
    seen.add(d.key);
    if (!Array.isArray(d.versions)) return;
    const ids = d.versions.map((v: unknown) => (isObject(v) ? v.version_id : undefined));
    if (new Set(ids).size !== ids.length) add(`${at}.versions`, 'version_id must be distinct');
    d.versions.forEach((v: unknown, j) => {
      if (!isObject(v) || !Array.isArray(v.texts)) return;
      const languages = v.texts.map((t: unknown) => (isObject(t) ? sameLanguage(t.language) : undefined));
      const k = languages.findIndex((l, n) => l !== undefined && languages.indexOf(l) !== n);
      if (k >= 0)
        add(
          `${at}.versions[${j}].texts`,
          `${String((v.texts[k] as { language: unknown }).language)} is given twice (one text per language)`,
        );
    });
    if (d.required === true && d.status === 'archived')
      add(`${at}.required`, 'an archived consent cannot be required (no signup could give it)');
  });
};
