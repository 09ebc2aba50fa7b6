// The consent page of a third-party client (interaction/pages/consent.ts). German.
export const consent = {
  title: 'Zugriff erlauben',
  heading: (client: string) => `${client} bittet um Zugriff auf Ihr Konto`,
  signedInAs: (who: string) => `Sie sind angemeldet als ${who}.`,
  lead: (client: string) => `Wenn Sie es erlauben, darf ${client}:`,
  /** What each scope lets the app do, in plain words. */
  scopes: {
    openid: 'Wissen, wer Sie sind (Ihre Kontokennung)',
    profile: 'Ihren Namen und Ihre Profilangaben sehen',
    email: 'Ihre E-Mail-Adresse sehen',
    phone: 'Ihre Telefonnummer sehen',
    address: 'Ihre Postanschrift sehen',
    mfa: 'Ihre zweiten Faktoren verwalten (Codes per E-Mail und Telefon)',
    offline_access: 'Verbunden bleiben, wenn Sie es nicht verwenden',
  } as Record<string, string>,
  home: 'Startseite',
  privacy: 'Datenschutzerklärung',
  terms: 'Nutzungsbedingungen',
  allow: 'Erlauben',
  deny: 'Ablehnen',
  /** The account page's list of consents. */
  accountHeading: 'Apps mit Zugriff auf Ihr Konto',
  accountLead: 'Apps von Drittanbietern, die Sie erlaubt haben, und was sie sehen dürfen.',
  revoke: 'Zugriff widerrufen',
  note: 'Sie können diesen Zugriff jederzeit in Ihrem Konto widerrufen.',
};
