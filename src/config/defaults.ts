import type { AccountSettings } from './types.js';

/** Documented defaults (README "Configuration"). Lifetimes are in seconds. */
export const DEFAULT_ACCOUNT: AccountSettings = {
  mfa_required: 'never',
  access_token_ttl: 3600,
  id_token_ttl: 3600,
  refresh_token_ttl: 30 * 24 * 3600,
  authorization_code_ttl: 60,
  tkn_ttl: 120,
  session_ttl: 7 * 24 * 3600,
  session_idle_ttl: 24 * 3600,
  password_min_length: 8,
  password_min_strength: 2,
  password_refuse_user_info: true,
  password_refuse_common: true,
  password_breach_check_url: null,
  password_breach_check_timeout_ms: 2000,
  rate_limits: {
    login: { limit: 30, window_seconds: 60 },
    signup: { limit: 20, window_seconds: 60 },
    token: { limit: 1200, window_seconds: 60 },
    verification: { limit: 60, window_seconds: 60 },
  },
  verification_code_length: 6,
  verification_code_ttl: 300,
  verification_max_attempts: 5,
  verification_requests_per_step_up: 5,
  verification_requests_per_user: { limit: 10, window_seconds: 3600 },
  verification_failures_per_user: { limit: 20, window_seconds: 3600 },
  step_up_ttl: 300,
  step_up_bearer_allowed: true,
  trusted_device_ttl: 30 * 24 * 3600,
  passkeys: {
    enabled: false,
    rp_id: null,
    rp_name: 'Ward',
    origins: [],
    user_verification_is_mfa: true,
    challenge_ttl: 300,
  },
  custom_fields: [],
};

export const DEFAULT_PORT = 8443;
export const DEFAULT_SCOPE = 'openid profile email phone';
