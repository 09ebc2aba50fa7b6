// Messenger account linking end to end in headless Chromium (Debian chromium + playwright-core):
// the simulator taps the Log In button -> the bot's HTTPS linking page (unmodified Core SDK, bundled
// with esbuild) -> Ward -> the redirect to facebook.com, intercepted -> the signed webhook event ->
// the bot (the kit) exchanges the code at Ward -> onLinked gets the profile and the PSID.
// Also: cancelling on Ward's confirmation page and on its sign-in page (error=access_denied, no
// code, nothing delivered), an HS256 and an RS256 client, and MFA required (step-up on Ward's page).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Page } from 'playwright-core';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { startMessengerBot, type Bot } from '../../examples/messenger-bot/bot.js';
import { launchChromium, screenshot, type Chromium } from '../helpers/chromium.js';
import { MessengerSimulator } from '../helpers/messenger-sim.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import { freePort } from '../helpers/free-port.js';
import { tempQueuePath } from './support.js';

const CB = 'https://facebook.com/messenger_platform/account_linking/';
const APP_SECRET = 'e2e-app-secret';
const HS_SECRET = 'hs-bot-client-secret-of-at-least-32-bytes';
const RS_SECRET = 'rs-bot-client-secret-of-at-least-32-bytes';

describe('Messenger account linking end to end (Chromium, Core SDK, Ward, webhook kit)', () => {
  let m: MfaWard;
  let botHs: Bot;
  let botRs: Bot;
  let botAgent: Agent;
  const sims = new Map<Bot, MessengerSimulator>();
  let chromium: Chromium | undefined;

  before(async () => {
    const [hsPort, rsPort] = [await freePort(), await freePort()];
    m = await startMfaWard({
      clients: [
        {
          client_id: 'bot-hs',
          name: 'Shop bot',
          type: 'confidential',
          client_secret: HS_SECRET,
          jwt_algorithm: 'HS256',
          allowed_callback_urls: [CB],
          allowed_origins: [`https://localhost:${hsPort}`],
          sso: true,
        },
        {
          client_id: 'bot-rs',
          name: 'RS bot',
          type: 'confidential',
          client_secret: RS_SECRET,
          jwt_algorithm: 'RS256',
          allowed_callback_urls: [CB],
          allowed_origins: [`https://localhost:${rsPort}`],
          sso: true,
        },
      ],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
    });
    const tls = await makeDevCertificate();
    botAgent = new Agent({ connect: { ca: tls.cert } });
    const wardFetch = (url: string, init: object) => undiciFetch(url, { ...init, dispatcher: m.ward.agent });
    const common = { appSecret: APP_SECRET, verifyToken: 'e2e-verify', tls, log: () => undefined };
    botHs = await startMessengerBot({
      ...common,
      port: hsPort,
      queuePath: tempQueuePath(),
      botName: 'Shop bot',
      ward: {
        issuer: m.ward.url,
        clientId: 'bot-hs',
        clientSecret: HS_SECRET,
        jwtAlgorithm: 'HS256',
        fetch: wardFetch,
      },
    });
    // RS256, ReachFive's spelling of the callback, and no secret at the exchange (the specification's way).
    botRs = await startMessengerBot({
      ...common,
      port: rsPort,
      queuePath: tempQueuePath(),
      botName: 'RS bot',
      build: false,
      redirectUri: CB,
      ward: { issuer: m.ward.url, clientId: 'bot-rs', jwtAlgorithm: 'RS256', fetch: wardFetch },
    });
    for (const [bot, spelling] of [
      [botHs, 'meta'],
      [botRs, 'reachfive'],
    ] as const) {
      sims.set(
        bot,
        new MessengerSimulator({
          appSecret: APP_SECRET,
          webhookUrl: `${bot.url}/webhook`,
          spelling,
          deliveryTimeoutMs: 5000,
          maxDeliveries: 2,
          fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: botAgent }),
        }),
      );
    }
  });
  after(async () => {
    await chromium?.close();
    await botHs?.close();
    await botRs?.close();
    await botAgent?.close();
    await m?.close();
  });

  /** A fresh browser (no Ward session) whose way back to Messenger the simulator catches. */
  async function freshPage(bot: Bot): Promise<Page> {
    await chromium?.close();
    chromium = await launchChromium();
    const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    await sims.get(bot)!.interceptInPlaywright(page, [m.ward.url]);
    if (process.env.E2E_DEBUG) {
      page.on('console', (msg) => console.log(`[console] ${msg.text()}`));
      page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
      page.on('requestfinished', async (r) =>
        console.log(`[request] ${r.method()} ${r.url().slice(0, 120)} ${(await r.response())?.status()}`),
      );
      page.on('requestfailed', (r) =>
        console.log(`[failed] ${r.method()} ${r.url().slice(0, 120)} ${r.failure()?.errorText}`),
      );
    }
    return page;
  }

  /** Taps the Log In button for `psid`, opens the linking page, signs in with the Core SDK form. */
  async function linkWithForm(
    page: Page,
    bot: Bot,
    psid: string,
    user: { email: string; password: string },
    shot: string,
  ) {
    const sim = sims.get(bot)!;
    const button = sim.logInButton(psid, bot.buttonUrl(psid));
    const back = sim.nextCallback();
    await page.goto(button.url);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await screenshot(page, `${shot}-linking-page`);
    await page.click('#submit');
    return { button, back };
  }

  /**
   * The callback URL once the browser shows the Messenger page: the simulator learns the URL when the
   * redirect is intercepted, before the browser has finished that navigation, and a page.goto started
   * meanwhile would be interrupted by it.
   */
  async function landed(page: Page, back: Promise<string>): Promise<string> {
    const url = await back;
    await page.waitForSelector('#messenger-done');
    return url;
  }

  async function expectLinked(bot: Bot, psid: string, callbackUrl: string, user: { id: string; email: string }) {
    const sim = sims.get(bot)!;
    const outcome = bot.nextOutcome();
    const result = await sim.receiveRedirect(callbackUrl);
    assert.ok(result.authorizationCode, callbackUrl);
    assert.deepEqual(
      result.delivery?.attempts.map((a) => a.status),
      [200],
    );
    const { linked, failed } = await outcome;
    assert.equal(failed, undefined, failed?.error);
    assert.equal(linked?.psid, psid);
    assert.deepEqual(linked?.profile, { sub: user.id, given_name: 'Ada', family_name: 'Lovelace', email: user.email });
    assert.deepEqual(bot.links.get(psid)?.profile, linked?.profile);
    return linked!;
  }

  for (const [label, which] of [
    ['HS256', 'hs'],
    ['RS256 (ReachFive spelling, no secret)', 'rs'],
  ] as const) {
    it(`links with the ${label} client: linking page -> Ward -> callback -> signed webhook -> onLinked(profile, PSID)`, async () => {
      const bot = which === 'hs' ? botHs : botRs;
      const user = await signup(m.ward, `bot-${which}`);
      const page = await freshPage(bot);
      const psid = `psid-${which}-1`;
      const { button, back } = await linkWithForm(page, bot, psid, user, `link-${which}`);
      const url = new URL(await back);
      await page.waitForSelector('#messenger-done');
      await screenshot(page, `link-${which}-back-to-messenger`);
      assert.equal(`${url.origin}${url.pathname}`, button.redirectUri.split('?')[0]);
      assert.equal(url.searchParams.get('account_linking_token'), button.accountLinkingToken);
      const linked = await expectLinked(bot, psid, url.toString(), user);
      assert.equal(linked.claims.aud, `bot-${which}`);
      assert.equal(typeof linked.claims.nonce, 'string', 'the button nonce reached the id_token (ML-06)');
      assert.deepEqual(bot.kit.stats(), { pending: 0, done: 1, failed: 0 });
    });
  }

  it('cancelling on the confirmation page (SSO session): error=access_denied, no code, nothing delivered', async () => {
    const sim = sims.get(botHs)!;
    const user = await signup(m.ward, 'bot-hs');
    const page = await freshPage(botHs);
    const first = await linkWithForm(page, botHs, 'psid-c-1', user, 'cancel-setup');
    await expectLinked(botHs, 'psid-c-1', await landed(page, first.back), user);
    const deliveries = sim.deliveries.length;
    const stats = botHs.kit.stats();

    // A second Log In tap: signed in already, so Ward asks before issuing anything (ML-05).
    const button = sim.logInButton('psid-c-2', botHs.buttonUrl('psid-c-2'));
    const back = sim.nextCallback();
    await page.goto(button.url);
    await page.click('#hosted');
    await page.getByText('Link your Messenger account to Shop bot?').waitFor();
    await screenshot(page, 'cancel-confirmation-page');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const url = new URL(await landed(page, back));
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('authorization_code'), null);
    assert.equal(url.searchParams.get('account_linking_token'), button.accountLinkingToken);
    const outcome = await sim.receiveRedirect(url.toString());
    assert.deepEqual(outcome, { psid: 'psid-c-2', error: 'access_denied' });
    assert.equal(sim.deliveries.length, deliveries);
    assert.deepEqual(botHs.kit.stats(), stats);
    assert.equal(botHs.links.has('psid-c-2'), false);

    // The same page, confirmed this time: a code, delivered and linked.
    const again = sim.logInButton('psid-c-3', botHs.buttonUrl('psid-c-3'));
    const back3 = sim.nextCallback();
    await page.goto(again.url);
    await page.click('#hosted');
    await page.getByRole('button', { name: 'Link my account' }).click();
    await expectLinked(botHs, 'psid-c-3', await back3, user);
  });

  it("cancelling on Ward's sign-in page (no session): error=access_denied, nothing delivered", async () => {
    const sim = sims.get(botRs)!;
    const page = await freshPage(botRs);
    const deliveries = sim.deliveries.length;
    const button = sim.logInButton('psid-c-4', botRs.buttonUrl('psid-c-4'));
    const back = sim.nextCallback();
    await page.goto(button.url);
    await page.click('#hosted');
    await page.getByRole('heading', { name: 'Sign in to RS bot' }).waitFor();
    await screenshot(page, 'cancel-sign-in-page');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const url = new URL(await back);
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('authorization_code'), null);
    assert.deepEqual(await sim.receiveRedirect(url.toString()), { psid: 'psid-c-4', error: 'access_denied' });
    assert.equal(sim.deliveries.length, deliveries);
    assert.equal(botRs.links.has('psid-c-4'), false);
  });

  it('MFA required: the SDK answers a step-up, the page hands over to Ward, the code by email, then the link', async () => {
    m.ward.setAccount({ mfa_required: 'always' });
    try {
      const user = await signup(m.ward, 'bot-hs');
      await giveFactors(m.ward, user.id, { email: user.email });
      const page = await freshPage(botHs);
      const { back } = await linkWithForm(page, botHs, 'psid-mfa', user, 'mfa');
      // loginWithPassword answered mfa_required: the linking page sends the user to Ward's sign-in.
      await page.getByRole('heading', { name: 'Sign in to Shop bot' }).waitFor();
      await page.fill('#email', user.email);
      await page.fill('#password', user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Verify it is you' }).waitFor();
      const code = codeIn((await m.smtp.next(user.email)).text);
      await page.fill('#code', code);
      await screenshot(page, 'mfa-code-page');
      await page.getByRole('button', { name: 'Verify' }).click();
      const linked = await expectLinked(botHs, 'psid-mfa', await back, user);
      assert.deepEqual(linked.claims.amr, ['pwd', 'mfa', 'email']);
    } finally {
      m.ward.setAccount({ mfa_required: 'never' });
    }
  });
});
