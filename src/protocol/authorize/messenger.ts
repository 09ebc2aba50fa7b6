// Messenger account linking (identity-api.md, "Messenger account linking"; checklist ML-02/ML-03).
// A client that registers the Messenger callback accepts, for response_type=messenger_code only, the
// redirect_uri Messenger adds to the linking page, in either spelling and nothing looser: https;
// host facebook.com or www.facebook.com exactly; no port, no userinfo; path
// /messenger_platform/account_linking with or without the trailing slash; a query that is exactly one
// account_linking_token of URL-safe characters (at most 1024); no fragment.

/** The callback a client registers (product specification). */
export const MESSENGER_CALLBACK = 'https://facebook.com/messenger_platform/account_linking/';

/** The callback bases the chatbot may send at /oauth/token (either spelling, with or without the slash). */
export const MESSENGER_BASES = [
  'https://facebook.com/messenger_platform/account_linking/',
  'https://facebook.com/messenger_platform/account_linking',
  'https://www.facebook.com/messenger_platform/account_linking/',
  'https://www.facebook.com/messenger_platform/account_linking',
];

const STRICT =
  /^https:\/\/(www\.)?facebook\.com\/messenger_platform\/account_linking\/?\?account_linking_token=[A-Za-z0-9_-]{1,1024}$/;

/** Codes bound to a Messenger callback are marked so the token endpoint applies the Messenger rule. */
export const MESSENGER_BINDING = 'messenger:';

export function allowsMessenger(allowedCallbackUrls: string[]): boolean {
  return allowedCallbackUrls.some((u) => MESSENGER_BASES.includes(u));
}

/** True only for a redirect_uri of the exact shape above (the string is compared, not normalised). */
export function isMessengerRedirect(value: unknown): value is string {
  if (typeof value !== 'string' || !STRICT.test(value)) return false;
  // The regex is the rule; the URL parser must agree that nothing hides in it (no userinfo, port, fragment).
  try {
    const u = new URL(value);
    return (
      u.username === '' &&
      u.password === '' &&
      u.port === '' &&
      u.hash === '' &&
      [...u.searchParams.keys()].length === 1 &&
      `${u.origin}${u.pathname}${u.search}` === value
    );
  } catch {
    return false;
  }
}
