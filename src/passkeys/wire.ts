// The Core SDK's wire format for WebAuthn: it snake_cases what it sends (raw_id, client_data_json,
// attestation_object, authenticator_data, user_handle) and camelCases what it receives, so options go
// out snake_cased and credentials come in snake_cased. Challenges and ids are base64url.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { invalidField, missingField } from '../errors/refusals.js';

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const path = (field: string, key: string) => (field ? `${field}.${key}` : key);

function b64(obj: Record<string, unknown>, key: string, field: string, max: number, optional = false): string {
  const v = obj[key];
  if (v === undefined || v === null || v === '') {
    if (optional) return '';
    throw missingField(path(field, key));
  }
  if (typeof v !== 'string' || v.length > max || !B64URL.test(v))
    throw invalidField(path(field, key), 'must be a base64url string');
  return v.replace(/=+$/, '');
}

function credentialHead(raw: unknown, field: string) {
  if (!isObject(raw)) throw missingField(field || 'id');
  if (raw.type !== 'public-key') throw invalidField(path(field, 'type'), 'must be "public-key"');
  if (!isObject(raw.response)) throw missingField(path(field, 'response'));
  const id = b64(raw, 'id', field, 1400);
  const rawId = b64(raw, 'raw_id', field, 1400, true) || id;
  if (rawId !== id) throw invalidField(path(field, 'raw_id'), 'must be the id');
  return { id, rawId, response: raw.response };
}

/** A new credential (attestation) as the SDK sends it. */
export function registrationResponse(raw: unknown, field: string): RegistrationResponseJSON {
  const { id, rawId, response } = credentialHead(raw, field);
  const transports = Array.isArray(response.transports)
    ? response.transports.filter((t): t is string => typeof t === 'string' && t.length < 20).slice(0, 10)
    : [];
  return {
    id,
    rawId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64(response, 'client_data_json', path(field, 'response'), 4096),
      attestationObject: b64(response, 'attestation_object', path(field, 'response'), 65536),
      transports: transports as RegistrationResponseJSON['response']['transports'],
    },
  };
}

/** An assertion as the SDK sends it. */
export function authenticationResponse(raw: unknown, field: string): AuthenticationResponseJSON {
  const { id, rawId, response } = credentialHead(raw, field);
  const f = path(field, 'response');
  const userHandle = b64(response, 'user_handle', f, 400, true);
  return {
    id,
    rawId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64(response, 'client_data_json', f, 4096),
      authenticatorData: b64(response, 'authenticator_data', f, 65536),
      signature: b64(response, 'signature', f, 4096),
      ...(userHandle ? { userHandle } : {}),
    },
  };
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Options as the SDK reads them: every key snake_cased (it camelCases them back), values untouched. */
export function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), snakeKeys(x)]));
}
