import type { Texts } from '../en/index.js';

/** French texts: errors. */
export const errors: Texts['errors'] = {};
