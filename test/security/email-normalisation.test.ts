// Issue 33, item 11: one email address, one account. Every entry (signup, password login,
// passwordless, forgot-password, the management API's create, the profile's email change) reads an
// address through normalizeEmail: NFKC (full-width letters, ligatures, `＠`), the domain in its
// ASCII form by IDNA (`bücher` is `xn--bcher-kva`), without its trailing dot, lower-cased. A
// look-alike of an address is that address; what is not an address once normalised is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, pkcePair } from '../helpers/oauth.js';
import { NO_RATE_LIMITS, issueSpaTokens } from './support.js';

const PASSWORD = 'correct horse battery';

for (const engine of engines()) {
  describe(`email addresses are normalised at every entry (${engine})`, () => {
    let w: MfaWard;
    let n = 0;
    /** A fresh address in its stored form, and look-alikes of it that must name the same account. */
    const fresh = () => {
      const tag = `ada${++n}${engine}`;
      return {
        stored: `${tag}@xn--bcher-kva.example`,
        lookAlikes: [
          `${tag.toUpperCase()}@Bücher.Example`,
          `${tag}@bu\u0308cher.example`, // decomposed ü (NFD)
          `${tag}@xn--bcher-kva.example.`, // trailing dot
          `${tag}＠ＢÜＣＨＥＲ.example`, // full-width @ and letters
          ` ${tag}@BÜCHER.EXAMPLE `,
        ],
      };
    };
    const signup = (email: string) =>
      postJson(w.ward, '/identity/v1/signup', {
        client_id: 'spa',
        scope: 'openid',
        data: { email, password: PASSWORD },
      });
    const login = (email: string) =>
      postJson(w.ward, '/identity/v1/password/login', { client_id: 'spa', scope: 'openid', email, password: PASSWORD });

    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: { ...NO_RATE_LIMITS, passwordless: { magic_link: true } },
      });
    });
    after(() => w.close());

    it('signup stores the normalised form; a look-alike is the same account (signup, login)', async () => {
      const a = fresh();
      const first = await signup(`${a.stored.toUpperCase().replace('XN--BCHER-KVA', 'Bücher')}.`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const user = await w.ward.registry.storage.users.findById(first.body.id);
      assert.equal(user?.email, a.stored);
      for (const look of a.lookAlikes) {
        const again = await signup(look);
        assert.equal(again.status, 409, `${look}: ${JSON.stringify(again.body)}`);
        assert.equal(again.body.error_message_key, 'error.email.alreadyInUse');
        const signedIn = await login(look);
        assert.equal(signedIn.status, 200, `${look} signs in to the account: ${JSON.stringify(signedIn.body)}`);
      }
    });

    it('forgot-password and passwordless send to the one address of the account', async () => {
      const a = fresh();
      assert.equal((await signup(a.stored)).status, 200);
      const forgot = await postJson(w.ward, '/identity/v1/forgot-password', {
        client_id: 'spa',
        email: a.lookAlikes[3],
      });
      assert.equal(forgot.status, 204);
      // The sink (smtp-server) shows the envelope's domain in Unicode; Ward's To: header has the stored form.
      const inbox = a.stored.replace('xn--bcher-kva', 'bücher');
      const reset = await w.smtp.next(inbox);
      assert.match(reset.subject, /Reset your/);
      assert.equal(reset.headers.get('to'), a.stored);
      const start = await postJson(w.ward, '/identity/v1/passwordless/start', {
        client_id: 'spa',
        auth_type: 'magic_link',
        email: a.lookAlikes[0],
        redirect_uri: 'https://app.example/cb',
        response_type: 'code',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      assert.equal(start.status, 200, JSON.stringify(start.body));
      assert.equal((await w.smtp.next(inbox)).headers.get('to'), a.stored);
    });

    it('the management API and the profile refuse a look-alike of a taken address', async () => {
      const a = fresh();
      assert.equal((await signup(a.stored)).status, 200);
      const { token } = await consoleToken(w.ward, 'administrator');
      const created = await api(w.ward, token).post('/api/v1/users', { email: a.lookAlikes[1], password: PASSWORD });
      assert.equal(created.status, 409, JSON.stringify(created.body));
      const other = await api(w.ward, token).post('/api/v1/users', {
        email: `Ｚoe${n}@Bücher.example.`,
        password: PASSWORD,
      });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      assert.equal(other.body.email, `zoe${n}@xn--bcher-kva.example`);

      const tokens = await issueSpaTokens(w.ward);
      const change = await postJson(
        w.ward,
        '/identity/v1/update-email',
        { email: a.lookAlikes[2] },
        { authorization: `Bearer ${tokens.access_token}` },
      );
      assert.equal(change.status, 409, JSON.stringify(change.body));
      assert.equal(change.body.error_message_key, 'error.email.alreadyInUse');
    });

    it('refuses what is not an address once normalised', async () => {
      for (const bad of [
        'ada@exa%6dple.com', // the host parser would decode it
        'ada@127.0.0.1',
        'ada@0x7f.1', // an IPv4 number once parsed as a host
        'ada@[127.0.0.1]',
        'ada@xn--zz.example', // not valid punycode
        'ada@example..com',
        'ada@-example.com',
        'ada@example.com..',
        'ada＠＠example.com',
      ]) {
        const res = await signup(bad);
        assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
        const forgot = await postJson(w.ward, '/identity/v1/forgot-password', { client_id: 'spa', email: bad });
        assert.equal(forgot.status, 400, `${bad} (forgot-password)`);
      }
    });
  });
}
