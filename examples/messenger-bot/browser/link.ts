// The bot's linking page, in the browser (bundled with esbuild into dist/link.js, no CDN). Messenger
// opens it with `redirect_uri` (its callback, carrying account_linking_token) and
// `account_linking_token`; the bot's own button URL may add a `nonce` bound to the PSID (ML-06).
// The email/password form runs the unmodified ReachFive Core SDK against Ward:
//   loginWithPassword({email, password, auth: {responseType: 'messenger_code', redirectUri, nonce}})
// and Ward sends the browser back to Messenger with authorization_code (or error=access_denied).
import { createClient } from '@reachfive/identity-core';

interface PageConfig {
  domain: string;
  clientId: string;
  scope: string;
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as PageConfig;
const query = new URLSearchParams(window.location.search);
const redirectUri = query.get('redirect_uri');
const nonce = query.get('nonce') ?? undefined;
const form = document.getElementById('login') as HTMLFormElement;
const status = document.getElementById('status')!;
const hosted = document.getElementById('hosted') as HTMLAnchorElement;

function show(message: string): void {
  status.textContent = message;
  status.hidden = false;
}

// Ward checks the redirect_uri strictly; the page only refuses to run without one.
if (!redirectUri) {
  show('Open this page from the Log In button in Messenger.');
  form.querySelector('button')!.disabled = true;
  hosted.hidden = true;
} else {
  const client = createClient({ domain: config.domain, clientId: config.clientId });
  // The SDK's typings list only 'code' | 'token'; it passes any responseType through to Ward.
  const auth = { responseType: 'messenger_code' as 'code', redirectUri, nonce, scope: config.scope };

  // Another way in: Ward's own sign-in page (a confirmation when already signed in; Cancel there
  // sends Messenger error=access_denied).
  const authorize = new URL(`https://${config.domain}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    client_id: config.clientId,
    response_type: 'messenger_code',
    redirect_uri: redirectUri,
    scope: config.scope,
    nonce,
  })) {
    if (v) authorize.searchParams.set(k, v);
  }
  hosted.href = authorize.toString();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    form.querySelector('button')!.disabled = true;
    show('Signing in...');
    client
      .loginWithPassword({ email: String(data.get('email')), password: String(data.get('password')), auth })
      .then((result) => {
        // With MFA required the SDK answers a step-up instead of redirecting: use Ward's page for it.
        if (result && 'stepUpToken' in result && result.stepUpToken) window.location.assign(authorize.toString());
      })
      .catch((err: { errorUserMsg?: string; errorDescription?: string; error?: string }) => {
        form.querySelector('button')!.disabled = false;
        show(err.errorUserMsg ?? err.errorDescription ?? err.error ?? 'Sign-in failed');
      });
  });
}
