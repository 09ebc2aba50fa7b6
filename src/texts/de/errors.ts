import type { Texts } from '../en/index.js';

/** German texts: errors. */
export const errors: Texts['errors'] = {};
