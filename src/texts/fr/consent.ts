// The consent page of a third-party client (interaction/pages/consent.ts). French.
export const consent = {
  title: 'Autoriser l’accès',
  heading: (client: string) => `${client} demande l’accès à votre compte`,
  signedInAs: (who: string) => `Vous êtes connecté en tant que ${who}.`,
  lead: (client: string) => `Si vous l’autorisez, ${client} pourra :`,
  /** What each scope lets the app do, in plain words. */
  scopes: {
    openid: 'Savoir qui vous êtes (l’identifiant de votre compte)',
    profile: 'Voir votre nom et les détails de votre profil',
    email: 'Voir votre adresse e-mail',
    phone: 'Voir votre numéro de téléphone',
    address: 'Voir votre adresse postale',
    mfa: 'Gérer vos seconds facteurs (codes par e-mail et par téléphone)',
    offline_access: 'Rester connecté quand vous ne l’utilisez pas',
  } as Record<string, string>,
  home: 'Site',
  privacy: 'Politique de confidentialité',
  terms: 'Conditions d’utilisation',
  allow: 'Autoriser',
  deny: 'Refuser',
  /** The account page's list of consents. */
  accountHeading: 'Applications ayant accès à votre compte',
  accountLead: 'Les applications tierces que vous avez autorisées, et ce qu’elles peuvent voir.',
  revoke: 'Retirer l’accès',
  note: 'Vous pouvez retirer cet accès à tout moment depuis votre compte.',
};
