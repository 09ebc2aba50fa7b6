// The consent page of a third-party client (interaction/pages/consent.ts). Spanish.
export const consent = {
  title: 'Permitir el acceso',
  heading: (client: string) => `${client} pide acceso a tu cuenta`,
  signedInAs: (who: string) => `Has iniciado sesión como ${who}.`,
  lead: (client: string) => `Si lo permites, ${client} podrá:`,
  /** What each scope lets the app do, in plain words. */
  scopes: {
    openid: 'Saber quién eres (el identificador de tu cuenta)',
    profile: 'Ver tu nombre y los datos de tu perfil',
    email: 'Ver tu dirección de correo electrónico',
    phone: 'Ver tu número de teléfono',
    address: 'Ver tu dirección postal',
    mfa: 'Gestionar tus segundos factores (códigos por correo y por teléfono)',
    offline_access: 'Mantener el acceso cuando no la estés usando',
  } as Record<string, string>,
  home: 'Página de inicio',
  privacy: 'Política de privacidad',
  terms: 'Condiciones de uso',
  allow: 'Permitir',
  deny: 'Denegar',
  /** The account page's list of consents. */
  accountHeading: 'Aplicaciones con acceso a tu cuenta',
  accountLead: 'Las aplicaciones de terceros que has permitido y lo que pueden ver.',
  revoke: 'Retirar el acceso',
  note: 'Puedes retirar este acceso en cualquier momento desde tu cuenta.',
};
