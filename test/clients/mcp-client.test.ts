// An MCP client connects to an MCP server protected by Ward with no manual set-up (issue #39, items 2
// and 3), with the official MCP TypeScript SDK on both sides, on both engines, over real HTTP: the
// server (the SDK's McpServer behind its bearer middleware, its protected-resource metadata naming Ward)
// verifies Ward's RFC 9068 JWT access tokens with jose against /jwks.json, audience its own URL. The
// client, told only the server's URL, is refused, discovers Ward from the server's metadata (RFC 9728,
// then RFC 8414), registers itself by Dynamic Client Registration, and sends the user to Ward's hosted
// login and consent page with PKCE and `resource` (RFC 8707); with the code it gets a token for the
// server and calls a tool that answers who called it. A token for another audience is refused.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, codeFor, signup, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CB = 'https://agent.example/callback';
const OPS_SECRET = 'resource-manager-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients'],
};
const OTHER_API = 'https://api.example.com/other';
const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** The SDK's MCP server with one tool, behind its bearer middleware; tokens checked by jose. */
async function mcpServer(ward: TestWard) {
  const app = express();
  const server: Server = await new Promise((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = `${base}/mcp`;
  const jwks = createRemoteJWKSet(new URL('/jwks.json', ward.url), {
    [customFetch]: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: ward.agent }) as never,
  });
  const meta = (await (await ward.fetch('/.well-known/oauth-authorization-server')).json()) as never;
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata: meta,
      resourceServerUrl: new URL(resource),
      scopesSupported: ['mcp:tools'],
    }),
  );
  const verifier = {
    async verifyAccessToken(token: string) {
      const verified = await jwtVerify(token, jwks, { issuer: ward.issuer, audience: resource, typ: 'at+jwt' }).catch(
        (e: Error) => {
          throw new InvalidTokenError(e.message);
        },
      );
      const { payload } = verified;
      return {
        token,
        clientId: String(payload.client_id),
        scopes: String(payload.scope ?? '').split(' '),
        expiresAt: payload.exp,
        resource: new URL(resource),
        extra: { sub: payload.sub },
      };
    },
  };
  const bearer = requireBearerAuth({
    verifier,
    requiredScopes: ['mcp:tools'],
    resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
  });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const mcp = new McpServer({ name: 'orders', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Who called' }, async (extra) => ({
      content: [{ type: 'text', text: `user ${String(extra.authInfo?.extra?.sub)} via ${extra.authInfo?.clientId}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return { server, resource };
}

/** The agent's OAuth state, as a desktop MCP client keeps it; the authorization URL it is sent to. */
function agentProvider() {
  const state: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier?: string;
    authorizationUrl?: URL;
  } = {};
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return CB;
    },
    get clientMetadata() {
      return {
        client_name: 'MCP Test Agent',
        redirect_uris: [CB],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'mcp:tools',
      };
    },
    clientInformation: () => state.client,
    saveClientInformation: (c) => {
      state.client = c;
    },
    tokens: () => state.tokens,
    saveTokens: (t) => {
      state.tokens = t;
    },
    redirectToAuthorization: (url) => {
      state.authorizationUrl = url;
    },
    saveCodeVerifier: (v) => {
      state.verifier = v;
    },
    codeVerifier: () => state.verifier!,
  };
  return { provider, state };
}

for (const engine of engines()) {
  describe(`an MCP client and server with the official SDK, protected by Ward (${engine})`, () => {
    let ward: TestWard;
    let mcp: Awaited<ReturnType<typeof mcpServer>>;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, OPS],
        account: {
          rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } },
          client_registration: { mode: 'open' },
        },
      });
      mcp = await mcpServer(ward);
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS_SECRET,
      });
      const admin = api(ward, ((await res.json()) as { access_token: string }).access_token);
      const created = await admin.post('/api/v1/resources', {
        identifier: mcp.resource,
        name: 'Orders MCP',
        scopes: ['mcp:tools'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const other = await admin.post('/api/v1/resources', {
        identifier: OTHER_API,
        name: 'Other',
        scopes: ['mcp:tools'],
      });
      assert.equal(other.status, 201, JSON.stringify(other.body));
    });
    after(async () => {
      mcp?.server.close();
      await ward?.close();
    });

    // The SDK's requests to Ward go over TLS with the tests' certificate; to the MCP server, plain loopback.
    const fetchVia = ((url: string | URL, init?: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher: ward.agent })) as never;

    it('discovers Ward, registers, signs the user in with consent, and calls a tool with an audience-bound token', async () => {
      const user = await signup(ward);
      const { provider, state } = agentProvider();
      const client = new Client({ name: 'agent', version: '1.0.0' });
      const first = new StreamableHTTPClientTransport(new URL(mcp.resource), {
        authProvider: provider,
        fetch: fetchVia,
      });
      await assert.rejects(client.connect(first), UnauthorizedError);
      assert.ok(state.client?.client_id, 'registered by DCR');
      const asked = state.authorizationUrl!;
      assert.equal(asked.origin, new URL(ward.url).origin);
      assert.equal(asked.searchParams.get('resource'), mcp.resource);
      assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');

      // The user: Ward's hosted login page, then the consent page of this third-party agent.
      const browser = new Browser(ward);
      const login = await browser.get(asked.toString());
      assert.equal(login.status, 200);
      const consent = await submitLoginPage(browser, await login.text(), user.email, user.password);
      assert.equal(consent.status, 200, 'a registered client is third-party: the consent page');
      const html = await consent.text();
      assert.match(html, /MCP Test Agent/);
      const allowed = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(html, 'interaction')!,
        csrf: field(html, 'csrf')!,
        decision: 'allow',
      });
      assert.equal(allowed.status, 303);
      const back = new URL(allowed.headers.get('location')!);
      assert.equal(`${back.origin}${back.pathname}`, CB);
      await first.finishAuth(back.searchParams.get('code')!);
      assert.ok(state.tokens?.access_token);

      const transport = new StreamableHTTPClientTransport(new URL(mcp.resource), {
        authProvider: provider,
        fetch: fetchVia,
      });
      await client.connect(transport);
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ text: string }> };
      assert.equal(result.content[0]!.text, `user ${user.id} via ${state.client!.client_id}`);
      await client.close();
    });

    it("refuses Ward's token for another API, and no token at all, pointing to its metadata", async () => {
      const flow = await codeFor(ward, { scope: 'openid mcp:tools', extra: { resource: OTHER_API } });
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: 'https://app.example/cb',
        code_verifier: flow.verifier,
        resource: OTHER_API,
      });
      const { access_token } = (await res.json()) as { access_token: string };
      for (const authorization of [`Bearer ${access_token}`, undefined]) {
        const answer = await undiciFetch(mcp.resource, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        assert.equal(answer.status, 401);
        assert.match(answer.headers.get('www-authenticate') ?? '', /resource_metadata=/);
      }
    });
  });
}
