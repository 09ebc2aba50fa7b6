// The consent page of a third-party client (interaction/pages/consent.ts). English: the reference language.
export const consent = {
  title: 'Allow access',
  heading: (client: string) => `${client} asks for access to your account`,
  signedInAs: (who: string) => `You are signed in as ${who}.`,
  lead: (client: string) => `If you allow it, ${client} may:`,
  /** What each scope lets the app do, in plain words. */
  scopes: {
    openid: 'Know who you are (your account identifier)',
    profile: 'See your name and profile details',
    email: 'See your email address',
    phone: 'See your phone number',
    address: 'See your postal address',
    mfa: 'Manage your second factors (email and phone codes)',
    offline_access: 'Stay connected when you are not using it',
  } as Record<string, string>,
  home: 'Home page',
  privacy: 'Privacy policy',
  terms: 'Terms of service',
  allow: 'Allow',
  deny: 'Deny',
  /** The account page's list of consents. */
  accountHeading: 'Apps with access to your account',
  accountLead: 'Third-party apps you allowed, and what they may see.',
  revoke: 'Withdraw access',
  note: 'You can withdraw this access at any time from your account.',
};
