/**
 * An error of the authorization endpoint (RFC 6749 section 4.1.2.1).
 * `redirectable` is true only once the client and its redirect_uri are validated: errors about
 * the client or the redirect_uri itself are shown as a page and never redirected.
 */
export class AuthorizeError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirectable: boolean,
  ) {
    super(description);
  }
}

/** Error descriptions go into a Location header and pages: keep them to printable ASCII, no CR/LF/TAB. */
export function cleanDescription(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, ' ').slice(0, 300);
}
