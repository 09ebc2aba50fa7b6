import type { Texts } from '../en/index.js';

/** Spanish texts: errors. */
export const errors: Texts['errors'] = {};
