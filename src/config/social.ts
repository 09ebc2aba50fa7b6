// The social providers' schema, presets and rules live in config/schema/social-provider.ts.
export { validateSocialProviders } from './schema/social-provider.js';
