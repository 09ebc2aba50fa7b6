import type { Texts } from '../en/index.js';

/** Spanish texts: pages. */
export const pages: Texts['pages'] = {};
