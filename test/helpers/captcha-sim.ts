// A captcha siteverify simulator: the protocol reCAPTCHA (v2 and v3), hCaptcha, Cloudflare Turnstile
// and CaptchaFox share. The "widget" here is `issue()`, which hands out a token as the provider's script
// would in a page; `POST /siteverify` takes a form (`secret`, `response`, `remoteip` or CaptchaFox's
// `remoteIp`, optional `sitekey`) and answers JSON {success, challenge_ts, hostname, error-codes,
// score?}, with the providers' error codes: missing-input-secret, invalid-input-secret,
// missing-input-response, invalid-input-response, timeout-or-duplicate (a token is good once).
// `failWith` answers every request with that HTTP status; `hang` holds them unanswered.
// `GET /api.js` is a stand-in for the providers' widget scripts on a hosted page: like theirs, it finds
// the widget elements (g-recaptcha, h-captcha, cf-turnstile, captchafox) and puts a token in the form
// field of that provider's name inside each, a token this simulator then verifies once.
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonAnswer, readForm } from './sim-http.js';

export interface CaptchaSim {
  /** The siteverify URL to configure as the account's `captcha.verify_url`. */
  url: string;
  /** The stand-in widget script's URL (the account's `captcha.script_url`). */
  scriptUrl: string;
  /** How many times the widget script was loaded. */
  scriptLoads: number;
  secret: string;
  /** A token as the widget would give it; `score` makes it a reCAPTCHA v3 token. */
  issue(opts?: { score?: number }): string;
  /** Every verification asked: the form's fields (the secret replaced by whether it matched). */
  requests: Array<{ secretOk: boolean; response?: string; remoteip?: string; sitekey?: string }>;
  failWith: number | null;
  hang: boolean;
  close(): Promise<void>;
}

export async function startCaptchaSim(): Promise<CaptchaSim> {
  const tokens = new Map<string, { score?: number; used: boolean }>();
  const held: ServerResponse[] = [];
  const sim: CaptchaSim = {
    url: '',
    scriptUrl: '',
    scriptLoads: 0,
    secret: `sim-secret-${randomBytes(8).toString('hex')}`,
    issue(opts = {}) {
      const token = `tok_${randomBytes(24).toString('base64url')}`;
      tokens.set(token, { score: opts.score, used: false });
      return token;
    },
    requests: [],
    failWith: null,
    hang: false,
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const answer = jsonAnswer(res);
    if (req.method === 'GET' && req.url === '/api.js') {
      sim.scriptLoads++;
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return void res.end(widgetScript(sim.issue()));
    }
    if (req.method !== 'POST' || req.url !== '/siteverify') return answer(404, { error: 'not found' });
    const form = await readForm(req);
    const secret = form.get('secret');
    const response = form.get('response') ?? undefined;
    sim.requests.push({
      secretOk: secret === sim.secret,
      response,
      remoteip: form.get('remoteip') ?? form.get('remoteIp') ?? undefined,
      sitekey: form.get('sitekey') ?? undefined,
    });
    if (sim.hang) return void held.push(res);
    if (sim.failWith) return answer(sim.failWith, { error: 'simulated failure' });
    const refuse = (code: string) => answer(200, { success: false, 'error-codes': [code] });
    if (!secret) return refuse('missing-input-secret');
    if (secret !== sim.secret) return refuse('invalid-input-secret');
    if (!response) return refuse('missing-input-response');
    const t = tokens.get(response);
    if (!t) return refuse('invalid-input-response');
    if (t.used) return refuse('timeout-or-duplicate');
    t.used = true;
    answer(200, {
      success: true,
      challenge_ts: new Date().toISOString(),
      hostname: 'app.example',
      ...(t.score === undefined ? {} : { score: t.score, action: 'submit' }),
      'error-codes': [],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sim.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  sim.scriptUrl = sim.url.replace('/siteverify', '/api.js');
  sim.close = () =>
    new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sim;
}

/** The stand-in widget: a hidden field with the token in every widget element, as the providers' scripts do. */
const widgetScript = (token: string) => `(function () {
  var fields = { 'g-recaptcha': 'g-recaptcha-response', 'h-captcha': 'h-captcha-response',
    'cf-turnstile': 'cf-turnstile-response', 'captchafox': 'cf-captcha-response' };
  Object.keys(fields).forEach(function (cls) {
    document.querySelectorAll('.' + cls).forEach(function (el) {
      if (!el.getAttribute('data-sitekey')) return;
      var input = document.createElement('input');
      input.type = 'hidden';
      input.name = fields[cls];
      input.value = ${JSON.stringify(token)};
      el.appendChild(input);
      el.setAttribute('data-rendered', 'yes');
    });
  });
})();`;
