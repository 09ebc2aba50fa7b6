import { isSystemClient } from '../../clients/system.js';
import type { SignInMethod } from '../contract.js';

/**
 * A single-use token the management API minted for a user and a client (the Core SDK's
 * loginWithCustomToken). Only for a client that accepts them, never a system or management client;
 * it has no place on the login page.
 */
export const customTokenMethod: SignInMethod = {
  id: 'custom_token',
  amr: ['custom_token'],
  enabled: ({ request: { client } }) =>
    client.custom_token_login && !isSystemClient(client.client_id) && client.management_scopes.length === 0,
  routes: ['GET /identity/v1/custom-token/login'],
};
