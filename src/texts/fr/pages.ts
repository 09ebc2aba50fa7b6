import type { Texts } from '../en/index.js';

/** French texts: pages. */
export const pages: Texts['pages'] = {};
