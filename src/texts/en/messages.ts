// English emails and SMS: the reference every other language is typed against. Each text is a
// function of the values it shows; the renderers (src/integrations) escape them in HTML and keep the
// SMS to one GSM-7 segment where they can.

/** The values an account message may show. */
export interface AccountValues {
  app: string;
  code: string;
  link: string;
  /** The code's lifetime in words. */
  expires: string;
  /** The link's lifetime in words. */
  linkExpires: string;
  address: string;
  when: string;
}

type V = AccountValues;

/** One account message: subject, paragraphs around its link and code, and its SMS. */
export interface AccountText {
  subject: (v: V) => string;
  /** Paragraphs before the link and code. */
  lead: (v: V) => string;
  /** The button's text, when there is a link. */
  button?: string;
  /** Said before the code. */
  codeLead?: string;
  /** The closing paragraph (what to do if it was not you). */
  after: (v: V) => string;
  sms: (v: V) => string;
}

type Purpose = 'stepup' | 'register';
type Change = 'factor_added' | 'factor_removed';

const account = {
  verify_email: {
    subject: (v) => `Confirm your email address for ${v.app}`,
    lead: (v) => `Confirm that ${v.address} is your email address for ${v.app}. The link works for ${v.linkExpires}.`,
    button: 'Confirm my email address',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not ask for this, you can ignore this message.',
    sms: (v) => `${v.code} is your code to confirm this email for ${v.app}.`,
  },
  change_email: {
    subject: (v) => `Confirm your new email address for ${v.app}`,
    lead: (v) =>
      `You asked to use ${v.address} for your ${v.app} account. It replaces the old one once you confirm it; the ` +
      `link works for ${v.linkExpires}.`,
    button: 'Confirm my new email address',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not ask for this, ignore this message: nothing changes.',
    sms: (v) => `${v.code} is your code to confirm this email for ${v.app}.`,
  },
  reset_password: {
    subject: (v) => `Reset your ${v.app} password`,
    lead: (v) => `Someone asked to reset the password of your ${v.app} account. The link works for ${v.linkExpires}.`,
    button: 'Choose a new password',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If it was not you, ignore this message: your password stays the same. Never share this code or link.',
    sms: (v) => `${v.code} is your ${v.app} password reset code. It expires in ${v.expires}. Never share it.`,
  },
  verify_phone: {
    subject: (v) => `Confirm your phone number for ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) => `${v.code} is your code to confirm this phone number for ${v.app}. It expires in ${v.expires}.`,
  },
  change_phone: {
    subject: (v) => `Confirm your new phone number for ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) => `${v.code} is your code to confirm your new phone number for ${v.app}. It expires in ${v.expires}.`,
  },
  email_changed: {
    subject: (v) => `The email address of your ${v.app} account was changed`,
    lead: (v) => `On ${v.when}, the email address of your ${v.app} account was changed to ${v.address}.`,
    after: () =>
      'If you made this change, there is nothing more to do. If you did not, reset your password now and contact ' +
      'support.',
    sms: (v) => `${v.app}: the email address of your account was changed. Not you? Reset your password now.`,
  },
  phone_changed: {
    subject: (v) => `The phone number of your ${v.app} account was changed`,
    lead: (v) => `On ${v.when}, the phone number of your ${v.app} account was changed to ${v.address}.`,
    after: () =>
      'If you made this change, there is nothing more to do. If you did not, reset your password now and contact ' +
      'support.',
    sms: (v) => `${v.app}: the phone number of your account was changed. Not you? Reset your password now.`,
  },
  password_changed: {
    subject: (v) => `Your ${v.app} password was changed`,
    lead: (v) =>
      `On ${v.when}, the password of your ${v.app} account was changed, and your other sessions were signed out.`,
    after: () => 'If you made this change, there is nothing more to do. If you did not, reset your password now.',
    sms: (v) => `${v.app}: your password was changed. Not you? Reset it now.`,
  },
  passwordless: {
    subject: (v) => `Sign in to ${v.app}`,
    lead: (v) => `Open this link to sign in to ${v.app} as ${v.address}. It works once, for ${v.linkExpires}.`,
    button: 'Sign in',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not try to sign in, ignore this message. Never share this link or code.',
    sms: (v) => `${v.code} is your ${v.app} sign-in code. It expires in ${v.expires}. Never share it.`,
  },
  account_recovery: {
    subject: (v) => `Recover your ${v.app} account`,
    lead: (v) =>
      `Someone asked to recover your ${v.app} account: with this link or code you can register a new passkey. The ` +
      `link works for ${v.linkExpires}.`,
    button: 'Register a new passkey',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If it was not you, ignore this message: nothing changes. Never share this link or code.',
    sms: (v) => `${v.code} is your ${v.app} account recovery code. It expires in ${v.expires}. Never share it.`,
  },
  invitation: {
    subject: (v) => `You are invited to ${v.app}`,
    lead: (v) =>
      `An account was made for you on ${v.app} with the address ${v.address}. Choose your password to start; the ` +
      `link works for ${v.linkExpires}.`,
    button: 'Choose my password',
    after: () => 'If you did not expect this, ignore this message.',
    sms: (v) => `${v.app}: an account was made for you. Open the link in your email to choose a password.`,
  },
  passkeys_reset: {
    subject: (v) => `A new passkey was registered for your ${v.app} account`,
    lead: (v) =>
      `On ${v.when}, your ${v.app} account was recovered: a new passkey was registered and your other sessions ` +
      `were signed out.`,
    after: () =>
      'If it was you, there is nothing more to do. If not, recover your account again now and contact support.',
    sms: (v) => `${v.app}: your account was recovered with a new passkey. Not you? Recover it again now.`,
  },
  delete_account: {
    subject: (v) => `Your code to delete your ${v.app} account`,
    lead: (v) =>
      `Someone asked to delete your ${v.app} account. Enter the code below on the account page to confirm it.`,
    codeLead: 'Your code, valid for',
    after: () => 'If it was not you, ignore this message: nothing is deleted. Never share this code.',
    sms: (v) => `${v.code} is your code to delete your ${v.app} account. It expires in ${v.expires}. Never share it.`,
  },
  account_deletion_scheduled: {
    subject: (v) => `Your ${v.app} account will be deleted`,
    lead: (v) =>
      `You asked to delete your ${v.app} account: you were signed out everywhere, and the account and its data ` +
      `will be erased on ${v.when}.`,
    after: () => 'Changed your mind? Sign in again before then: that cancels the deletion.',
    sms: (v) => `${v.app}: your account will be deleted on ${v.when}. Sign in before then to cancel.`,
  },
  account_deleted: {
    subject: (v) => `Your ${v.app} account was deleted`,
    lead: (v) => `On ${v.when}, your ${v.app} account and the data kept with it were erased, as you asked.`,
    after: () => 'This cannot be undone. If it was not you, contact support.',
    sms: (v) => `${v.app}: your account was deleted, as you asked.`,
  },
  confirm_consent: {
    subject: (v) => `Confirm your choice for ${v.app}`,
    lead: (v) =>
      `You agreed to "${v.address}" on ${v.app}. Confirm it with this link, which works once, for ${v.linkExpires}.`,
    button: 'Confirm',
    after: () => 'If you did not ask for this, ignore this message: nothing changes.',
    sms: (v) => `${v.app}: open the link in your email to confirm your choice.`,
  },
  claim_profile: {
    subject: (v) => `Finish creating your ${v.app} account`,
    lead: (v) =>
      `Someone signed up for ${v.app} with ${v.address}, an address ${v.app} already knows. To finish, open the ` +
      `link and enter the password chosen at signup; it works for ${v.linkExpires}.`,
    button: 'Finish creating my account',
    after: () => 'If you did not sign up, ignore this message: nothing changes and nobody gets access.',
    sms: (v) => `${v.app}: open the link in your email to finish creating your account.`,
  },
} satisfies Record<string, AccountText>;

/** The kinds of account message (src/integrations/account-messages.ts renders them). */
export type AccountMessageKind = keyof typeof account;

export const messages = {
  /** The Intl locale dates are written in ('On 21 November 2026 at 14:03 UTC'). */
  dateLocale: 'en-GB',
  /** Lifetimes in words: singular and plural. */
  units: { h: ['hour', 'hours'], min: ['minute', 'minutes'], s: ['second', 'seconds'] } as Record<
    'h' | 'min' | 's',
    [string, string]
  >,

  /** A verification code (a second factor, or confirming a new one). */
  code: {
    subject: (code: string, app: string) => `${code} is your ${app} verification code`,
    heading: (app: string) => `Your ${app} verification code is:`,
    lead: {
      stepup: 'Enter it to confirm it is you.',
      register: 'Enter it to confirm this email address.',
    } as Record<Purpose, string>,
    expires: (duration: string) => `It expires in ${duration}.`,
    ignore: {
      stepup: 'If you did not just try to sign in, someone else may know your password: change it.',
      register: 'If you did not ask for this code, you can ignore this message.',
    } as Record<Purpose, string>,
    neverShare: (app: string) => `Never share this code: ${app} will never ask you for it.`,
    sms: {
      stepup: (code, app, d) => `${code} is your ${app} verification code. It expires in ${d}. Never share it.`,
      register: (code, app, d) => `${code} is your code to confirm this phone number for ${app}. It expires in ${d}.`,
    } as Record<Purpose, (code: string, app: string, duration: string) => string>,
    /** When the full SMS does not fit one segment (a long app name). */
    smsShort: (code: string, duration: string) => `${code} is your verification code. It expires in ${duration}.`,
  },

  /** The messages of account self-service, one per kind. */
  account: account as Record<AccountMessageKind, AccountText>,
  /** What ends the line before the code ('valid for 15 minutes:'). */
  codeLineEnd: ':',

  /** A second factor or a passkey added or removed (ASVS 6.3.7). */
  factorNotice: {
    subject: {
      factor_added: (app) => `A second factor was added to your ${app} account`,
      factor_removed: (app) => `A second factor was removed from your ${app} account`,
    } as Record<Change, (app: string) => string>,
    factor: {
      email: (m) => `the email address ${m}`,
      sms: (m) => `the phone number ${m}`,
      totp: () => 'an authenticator app',
    } as Record<'email' | 'sms' | 'totp', (masked: string) => string>,
    what: {
      factor_added: (f, app, when) => `On ${when}, ${f} was added to the two-step verification of your ${app} account.`,
      factor_removed: (f, app, when) =>
        `On ${when}, ${f} was removed from the two-step verification of your ${app} account.`,
    } as Record<Change, (factor: string, app: string, when: string) => string>,
    ifYou:
      'If you made this change, there is nothing more to do. Devices you had marked as trusted will ask for a code ' +
      'again.',
    ifNot:
      'If you did not, someone else may be signed in to your account: change your password now, sign out of your ' +
      'other sessions, and check your second factors.',
    /** `app` is empty when the SMS would not fit with it. */
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app}: ` : ''}${f} was added to your two-step verification. Not you? Change your password now.`,
      factor_removed: (f, app) =>
        `${app ? `${app}: ` : ''}${f} was removed from your two-step verification. Not you? Change your password now.`,
    } as Record<Change, (factor: string, app: string) => string>,
    /** A passkey: its own words (a way to sign in, not a step of two-step verification). */
    /** A recovery code used to sign in (`left`: the unused codes that remain). */
    /** An administrator removed every second factor and passkey (after identity checks outside Ward). */
    reset: {
      subject: (app: string) => `The two-step verification of your ${app} account was reset`,
      what: (app: string, when: string) =>
        `On ${when}, an administrator removed every second factor and passkey of your ${app} account, at your ` +
        'request or after checking your identity.',
      ifYou: 'Sign in with your password, then set up two-step verification again on your account page.',
      sms: (app: string) =>
        `${app ? `${app}: ` : ''}Your two-step verification was reset by an administrator. Not you? Contact support now.`,
    },
    recoveryCode: {
      subject: (app: string) => `A recovery code was used for your ${app} account`,
      what: (app: string, when: string, left: number) =>
        `On ${when}, a recovery code was used to sign in to your ${app} account. ${left} of your recovery codes are ` +
        'left.',
      ifYou: 'If it was you, nothing more to do; make a new set of codes on your account page when few are left.',
      sms: (app: string, left: number) =>
        `${app ? `${app}: ` : ''}A recovery code was used to sign in (${left} left). Not you? Change your password now.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `A passkey was added to your ${app} account`,
        factor_removed: (app) => `A passkey was removed from your ${app} account`,
      } as Record<Change, (app: string) => string>,
      what: {
        factor_added: (app, when) => `On ${when}, a passkey was added to your ${app} account: it signs in to it.`,
        factor_removed: (app, when) => `On ${when}, a passkey was removed from your ${app} account.`,
      } as Record<Change, (app: string, when: string) => string>,
      sms: {
        factor_added: (app) =>
          `${app ? `${app}: ` : ''}A passkey was added to your account. Not you? Change your password now.`,
        factor_removed: (app) =>
          `${app ? `${app}: ` : ''}A passkey was removed from your account. Not you? Change your password now.`,
      } as Record<Change, (app: string) => string>,
    },
  },

  /** Password sign-in paused after too many failures (accounts/sign-in-protection.ts). */
  lockNotice: {
    subject: (app: string) => `Sign-in to your ${app} account is paused`,
    what: (app: string, when: string, until: string) =>
      `On ${when}, after too many wrong passwords, password sign-in to your ${app} account was paused until ${until}.`,
    ifYou: 'If it was you, wait until then, or reset your password. Other ways to sign in still work.',
    ifNot:
      'If it was not you, someone may be guessing your password: choose a new, unique one, and turn on two-step ' +
      'verification.',
    /** `app` is empty when the SMS would not fit with it. */
    sms: (app: string, until: string) =>
      `${app ? `${app}: ` : ''}too many wrong passwords, sign-in paused until ${until}. Not you? Change your password.`,
  },
};
