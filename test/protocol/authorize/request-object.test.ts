// Request objects (RFC 9101, OIDC Core 6): Ward takes none, and says so with request_not_supported
// (request_uri_not_supported) even when the other parameters are only in the object, as RFC 9101 5
// allows (no response_type, no scope outside it), delivered to the client once client_id and
// redirect_uri are trusted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT, authorizeUrl } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { CB, assertErrorPage, assertErrorRedirect } from './support.js';

const OBJECT = 'eyJhbGciOiJub25lIn0.eyJyZXNwb25zZV90eXBlIjoiY29kZSIsInNjb3BlIjoib3BlbmlkIn0.';

describe('request objects, JAR style', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  it('request= without response_type: request_not_supported, redirected with the state and iss', async () => {
    const discovery = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    assert.equal(discovery.request_parameter_supported, false);
    const url = authorizeUrl({
      client_id: PUBLIC_CLIENT.client_id,
      redirect_uri: CB,
      request: OBJECT,
      state: 'st-123',
    });
    assertErrorRedirect(await ward.fetch(url), CB, 'request_not_supported', ward.url);
  });

  it('request_uri= alone: request_uri_not_supported', async () => {
    const url = authorizeUrl({
      client_id: PUBLIC_CLIENT.client_id,
      redirect_uri: CB,
      request_uri: 'https://app.example/request.jwt',
      state: 'st-123',
    });
    assertErrorRedirect(await ward.fetch(url), CB, 'request_uri_not_supported', ward.url);
  });

  it('whatever else is wrong after the redirect_uri: an unknown response_type, a bad response_mode', async () => {
    for (const over of [{ response_type: 'bogus' }, { response_type: 'code', response_mode: 'bogus' }]) {
      const url = authorizeUrl({
        client_id: PUBLIC_CLIENT.client_id,
        redirect_uri: CB,
        request: OBJECT,
        state: 'st-123',
        ...over,
      });
      assertErrorRedirect(await ward.fetch(url), CB, 'request_not_supported', ward.url);
    }
  });

  it('the fragment when the mode asks for it; never to an unregistered redirect_uri nor an unknown client', async () => {
    const frag = authorizeUrl({
      client_id: PUBLIC_CLIENT.client_id,
      redirect_uri: CB,
      request: OBJECT,
      response_mode: 'fragment',
    });
    const res = await ward.fetch(frag);
    assert.equal(res.status, 302);
    const loc = new URL(res.headers.get('location')!);
    assert.equal(new URLSearchParams(loc.hash.slice(1)).get('error'), 'request_not_supported');
    await assertErrorPage(
      await ward.fetch(
        authorizeUrl({ client_id: PUBLIC_CLIENT.client_id, redirect_uri: 'https://evil.example/cb', request: OBJECT }),
      ),
    );
    await assertErrorPage(await ward.fetch(authorizeUrl({ client_id: 'nobody', redirect_uri: CB, request: OBJECT })));
  });
});
