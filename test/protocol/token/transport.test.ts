// TK-09: how a token request must travel. Duplicate body parameters, parameters in the query
// string, GET and other methods, and unsupported media types are refused and never processed (the
// code stays redeemable). JSON bodies are accepted (the Core SDK sends JSON) and processed exactly
// like forms, with non-string values refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FormData } from 'undici';
import { PUBLIC_CLIENT, codeFor } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { expectError, expectTokens, redeemRaw, NO_LIMITS } from './support.js';

const CB = 'https://app.example/cb';

describe('token request transport (TK-09)', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ account: NO_LIMITS, clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  const post = (body: string, contentType = 'application/x-www-form-urlencoded', query = '') =>
    ward.fetch(`/oauth/token${query}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('refuses a parameter sent twice in the body, whichever copy is the real one', async () => {
    const { code, verifier } = await codeFor(ward);
    const base = (extra: Record<string, string>) =>
      new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: verifier,
        ...extra,
      });
    const cases: string[] = [];
    let q = base({ code });
    q.append('code', 'made-up');
    cases.push(q.toString());
    q = base({ code: 'made-up' });
    q.append('code', code);
    cases.push(q.toString());
    q = base({ code });
    q.append('redirect_uri', 'https://evil.example/cb');
    cases.push(q.toString());
    q = base({ code });
    q.append('client_id', 'spa');
    cases.push(q.toString());
    q = base({ code });
    q.append('grant_type', 'refresh_token');
    cases.push(q.toString());
    q = base({ code });
    q.append('code_verifier', verifier);
    cases.push(q.toString());
    for (const body of cases) {
      const e = await expectError(await post(body), 400, 'invalid_request');
      assert.match(String(e.error_description), /more than once/);
    }
    await expectTokens(await redeemRaw(ward, code, verifier));
  });

  it('refuses parameters in the query string, alone or next to a body', async () => {
    const { code, verifier } = await codeFor(ward);
    const all = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: verifier,
    }).toString();
    await expectError(await post('', 'application/x-www-form-urlencoded', `?${all}`), 400, 'invalid_request');
    await expectError(
      await post(
        new URLSearchParams({ grant_type: 'authorization_code', client_id: 'spa', redirect_uri: CB }).toString(),
        'application/x-www-form-urlencoded',
        `?code=${code}&code_verifier=${verifier}`,
      ),
      400,
      'invalid_request',
    );
    await expectError(await post(all, 'application/x-www-form-urlencoded', '?x=1'), 400, 'invalid_request');
    await expectTokens(await redeemRaw(ward, code, verifier));
  });

  it('answers GET, PUT, DELETE and PATCH with 405, Allow: POST and a JSON error', async () => {
    const { code, verifier } = await codeFor(ward);
    const q = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: verifier,
    }).toString();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await ward.fetch(`/oauth/token?${q}`, { method });
      assert.equal(res.headers.get('allow'), 'POST');
      await expectError(res, 405, 'invalid_request');
    }
    await expectTokens(await redeemRaw(ward, code, verifier));
  });

  it('refuses text/plain and multipart bodies with 415', async () => {
    const { code, verifier } = await codeFor(ward);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: verifier,
    }).toString();
    await expectError(await post(form, 'text/plain'), 415, 'unsupported_media_type');
    const fd = new FormData();
    for (const [k, v] of new URLSearchParams(form)) fd.append(k, v);
    const res = await ward.fetch('/oauth/token', { method: 'POST', body: fd });
    await expectError(res, 415, 'unsupported_media_type');
    await expectTokens(await redeemRaw(ward, code, verifier));
  });

  it('accepts a JSON body and processes it like a form (a wrong verifier still fails)', async () => {
    const json = (o: unknown) => post(JSON.stringify(o), 'application/json');
    const a = await codeFor(ward);
    await expectTokens(
      await json({
        grant_type: 'authorization_code',
        code: a.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: a.verifier,
      }),
    );
    const b = await codeFor(ward);
    await expectError(
      await json({
        grant_type: 'authorization_code',
        code: b.code,
        client_id: 'spa',
        redirect_uri: 'https://app.example/other',
        code_verifier: b.verifier,
      }),
      400,
      'invalid_grant',
    );
    const c = await codeFor(ward);
    await expectError(
      await json({
        grant_type: 'authorization_code',
        code: c.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: `${c.verifier}x`,
      }),
      400,
      'invalid_grant',
    );
  });

  it('refuses JSON values that are not strings (arrays, objects, numbers) before touching the code', async () => {
    const json = (o: unknown) => post(JSON.stringify(o), 'application/json');
    const { code, verifier } = await codeFor(ward);
    const ok = { grant_type: 'authorization_code', code, client_id: 'spa', redirect_uri: CB, code_verifier: verifier };
    for (const bad of [
      { code: [code, 'x'] },
      { code: { $ne: null } },
      { client_id: ['spa', 'spa'] },
      { grant_type: ['authorization_code'] },
      { code: 12345 },
    ]) {
      await expectError(await json({ ...ok, ...bad }), 400, 'invalid_request');
    }
    await expectError(
      await post('{"grant_type": "authorization_code", "code": ', 'application/json'),
      400,
      'invalid_request',
    );
    await expectError(await post('[]', 'application/json'), 400, 'invalid_request');
    await expectTokens(await json(ok));
  });

  it('refuses a request without grant_type or code (invalid_request), or with an unknown grant_type', async () => {
    const { code, verifier } = await codeFor(ward);
    await expectError(
      await post(new URLSearchParams({ code, client_id: 'spa', redirect_uri: CB, code_verifier: verifier }).toString()),
      400,
      'invalid_request',
    );
    for (const missing of [{}, { code: '' }] as Array<Record<string, string>>) {
      const e = await expectError(
        await post(
          new URLSearchParams({
            grant_type: 'authorization_code',
            client_id: 'spa',
            redirect_uri: CB,
            code_verifier: verifier,
            ...missing,
          }).toString(),
        ),
        400,
        'invalid_request',
      );
      assert.equal(e.error_message_key, 'error.missingParameter');
    }
    await expectError(
      await post(new URLSearchParams({ grant_type: 'urn:x', code, client_id: 'spa' }).toString()),
      400,
      'unsupported_grant_type',
    );
    await expectTokens(await redeemRaw(ward, code, verifier));
  });
});
