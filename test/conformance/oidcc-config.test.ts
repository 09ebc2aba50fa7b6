// The OpenID Foundation's Config OP test plan (oidcc-config-certification-test-plan), module
// oidcc-discovery-endpoint-verification, written here from what it checks: the discovery document's
// wire form, its mandatory members and their syntax, every endpoint on https, the JWK Set at jwks_uri,
// and only registered metadata names. The RFC 8414 document must say the same. That each listed
// *_supported value works is proved value by value in test/protocol/discovery-promises.test.ts and, for
// the values the Basic, Form Post and logout plans use, in the other files of this folder.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importJWK, type JWK } from 'jose';
import { engines } from '../helpers/databases.js';
import { startSuite, type Suite } from './support.js';

/** The IANA "OAuth Authorization Server Metadata" names (RFC 8414 7.1, OIDC Discovery, later RFCs). */
const REGISTERED = new Set([
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'registration_endpoint',
  'scopes_supported',
  'response_types_supported',
  'response_modes_supported',
  'grant_types_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'service_documentation',
  'ui_locales_supported',
  'op_policy_uri',
  'op_tos_uri',
  'revocation_endpoint',
  'revocation_endpoint_auth_methods_supported',
  'revocation_endpoint_auth_signing_alg_values_supported',
  'introspection_endpoint',
  'introspection_endpoint_auth_methods_supported',
  'introspection_endpoint_auth_signing_alg_values_supported',
  'code_challenge_methods_supported',
  'device_authorization_endpoint',
  'userinfo_endpoint',
  'acr_values_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'id_token_encryption_alg_values_supported',
  'id_token_encryption_enc_values_supported',
  'userinfo_signing_alg_values_supported',
  'userinfo_encryption_alg_values_supported',
  'userinfo_encryption_enc_values_supported',
  'request_object_signing_alg_values_supported',
  'request_object_encryption_alg_values_supported',
  'request_object_encryption_enc_values_supported',
  'display_values_supported',
  'claim_types_supported',
  'claims_supported',
  'claims_locales_supported',
  'claims_parameter_supported',
  'request_parameter_supported',
  'request_uri_parameter_supported',
  'require_request_uri_registration',
  'require_signed_request_object',
  'pushed_authorization_request_endpoint',
  'require_pushed_authorization_requests',
  'authorization_response_iss_parameter_supported',
  'dpop_signing_alg_values_supported',
  'end_session_endpoint',
  'check_session_iframe',
  'frontchannel_logout_supported',
  'frontchannel_logout_session_supported',
  'backchannel_logout_supported',
  'backchannel_logout_session_supported',
  'prompt_values_supported',
  // draft-ietf-oauth-client-id-metadata-document (the MCP authorization specification reads it).
  'client_id_metadata_document_supported',
]);
const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'device_authorization_endpoint',
  'pushed_authorization_request_endpoint',
  'end_session_endpoint',
];
const OIDC_RESPONSE_TYPES = [
  'code',
  'id_token',
  'code id_token',
  'id_token token',
  'code token',
  'code id_token token',
];
/** RFC 6749 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

for (const engine of engines()) {
  describe(`OIDCC Config plan (${engine})`, () => {
    let suite: Suite;
    let doc: Record<string, unknown>;
    let res: Awaited<ReturnType<Suite['ward']['fetch']>>;
    before(async () => {
      suite = await startSuite(engine);
      res = await suite.ward.fetch('/.well-known/openid-configuration');
      doc = (await res.clone().json()) as Record<string, unknown>;
    });
    after(() => suite.close());

    describe('oidcc-discovery-endpoint-verification', () => {
      it('answers 200 with a JSON content type', () => {
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json\b/);
      });

      it('names the issuer it was fetched from: an https URL without query or fragment', () => {
        assert.equal(doc.issuer, suite.ward.issuer);
        const issuer = new URL(doc.issuer as string);
        assert.equal(issuer.protocol, 'https:');
        assert.equal(issuer.search, '');
        assert.equal(issuer.hash, '');
        assert.ok(!(doc.issuer as string).endsWith('/'), 'the discovery URL is the issuer + /.well-known/...');
      });

      it('lists the mandatory endpoints, every endpoint on https', () => {
        for (const m of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'])
          assert.equal(typeof doc[m], 'string', m);
        for (const m of ENDPOINTS)
          if (doc[m] !== undefined) assert.equal(new URL(doc[m] as string).protocol, 'https:', m);
        assert.equal(doc.registration_endpoint, undefined, 'registration is off by default: no endpoint listed');
      });

      it('scopes_supported: scope tokens, openid among them', () => {
        const scopes = doc.scopes_supported as string[];
        assert.ok(Array.isArray(scopes) && scopes.includes('openid'));
        for (const s of scopes) assert.match(s, SCOPE_TOKEN);
      });

      it('response_types_supported holds an OpenID Connect response type, code among them', () => {
        const types = doc.response_types_supported as string[];
        assert.ok(types.includes('code'));
        assert.ok(types.some((t) => OIDC_RESPONSE_TYPES.includes(t)));
      });

      it('subject_types_supported is public and/or pairwise; grant_types_supported a non-empty array', () => {
        const subjects = doc.subject_types_supported as string[];
        assert.ok(subjects.length > 0 && subjects.every((s) => s === 'public' || s === 'pairwise'));
        const grants = doc.grant_types_supported as string[];
        assert.ok(Array.isArray(grants) && grants.length > 0 && grants.includes('authorization_code'));
      });

      it('id_token_signing_alg_values_supported holds RS256 and never none', () => {
        const algs = doc.id_token_signing_alg_values_supported as string[];
        assert.ok(algs.includes('RS256'));
        assert.ok(!algs.includes('none'));
        assert.equal(doc.userinfo_signing_alg_values_supported, undefined, 'userinfo answers JSON only');
      });

      it('claims_supported is an array of strings; the boolean members are booleans', () => {
        assert.ok((doc.claims_supported as unknown[]).every((c) => typeof c === 'string'));
        for (const m of [
          'claims_parameter_supported',
          'request_parameter_supported',
          'request_uri_parameter_supported',
          'backchannel_logout_supported',
          'backchannel_logout_session_supported',
          'authorization_response_iss_parameter_supported',
        ])
          if (doc[m] !== undefined) assert.equal(typeof doc[m], 'boolean', m);
        // request_uri_parameter_supported defaults to true when absent: Ward must say it either way.
        assert.notEqual(doc.request_uri_parameter_supported, undefined);
      });

      it('code_challenge_methods_supported is an array, S256 in it, never plain', () => {
        const methods = doc.code_challenge_methods_supported as string[];
        assert.ok(Array.isArray(methods) && methods.includes('S256') && !methods.includes('plain'));
      });

      it('ui_locales_supported and claims_locales_supported, when listed, are BCP 47 tags', () => {
        for (const m of ['ui_locales_supported', 'claims_locales_supported']) {
          if (doc[m] === undefined) continue;
          for (const tag of doc[m] as string[]) assert.equal(Intl.getCanonicalLocales(tag)[0], tag, m);
        }
      });

      it('uses only registered metadata names', () => {
        const unknown = Object.keys(doc).filter((k) => !REGISTERED.has(k));
        assert.deepEqual(unknown, []);
      });

      it('jwks_uri serves public signing keys only, each with a distinct kid and an alg discovery lists', async () => {
        const jwksRes = await suite.ward.fetch(doc.jwks_uri as string);
        assert.equal(jwksRes.status, 200);
        assert.match(jwksRes.headers.get('content-type') ?? '', /^application\/(jwk-set\+)?json\b/);
        const { keys } = (await jwksRes.json()) as { keys: JWK[] };
        assert.ok(keys.length > 0);
        assert.equal(new Set(keys.map((k) => k.kid)).size, keys.length, 'distinct kids');
        const algs = doc.id_token_signing_alg_values_supported as string[];
        for (const key of keys) {
          assert.ok(key.kid, 'a kid');
          for (const p of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])
            assert.equal((key as Record<string, unknown>)[p], undefined, `no private member ${p}`);
          if (key.use !== undefined) assert.equal(key.use, 'sig');
          if (key.alg !== undefined) assert.ok(algs.includes(key.alg), `${key.alg} is listed`);
          await importJWK(key, key.alg ?? (key.kty === 'RSA' ? 'RS256' : undefined));
        }
        assert.ok(
          keys.some((k) => k.kty === 'RSA' && (k.alg ?? 'RS256') === 'RS256'),
          'an RS256 key',
        );
      });
    });

    describe('RFC 8414 authorization server metadata', () => {
      it('serves the same metadata at /.well-known/oauth-authorization-server', async () => {
        const r = await suite.ward.fetch('/.well-known/oauth-authorization-server');
        assert.equal(r.status, 200);
        assert.match(r.headers.get('content-type') ?? '', /^application\/json\b/);
        assert.deepEqual(await r.json(), doc);
      });
    });
  });
}
