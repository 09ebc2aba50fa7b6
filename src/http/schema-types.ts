// The builders live in lib/ so the settings schemas (config/) use them too; routes keep this path.
export { anyObject, nullable, partialObject, stringEnum } from '../lib/json-schema.js';
