// The pages of a sign-in that cannot go on, in English or French (the request's ui_locales when it is
// still known, else Accept-Language).
import type { Language } from '../../errors/ward-error.js';
import type { Page } from '../../lib/html.js';

const TEXT = {
  en: {
    title: 'Sign-in expired',
    formHeading: 'This sign-in form has expired',
    socialHeading: 'This sign-in has expired or did not start here',
    again: 'Go back to the application and start again.',
  },
  fr: {
    title: 'Connexion expirée',
    formHeading: 'Ce formulaire de connexion a expiré',
    socialHeading: 'Cette connexion a expiré ou n’a pas commencé ici',
    again: 'Revenez à l’application et recommencez.',
  },
};

/** A hosted form whose interaction is gone, finished, foreign or bound to another browser. */
export function expiredFormPage(language: Language): Page {
  const t = TEXT[language];
  return { status: 403, title: t.title, lang: language, body: `<h1>${t.formHeading}</h1><p>${t.again}</p>` };
}

/** A provider's answer (or a link) that does not belong to a sign-in started in this browser. */
export function expiredSocialPage(language: Language): Page {
  const t = TEXT[language];
  return { status: 400, title: t.title, lang: language, body: `<h1>${t.socialHeading}</h1><p>${t.again}</p>` };
}
