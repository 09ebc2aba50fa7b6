import type { Texts } from '../en/index.js';

/** German texts: pages. */
export const pages: Texts['pages'] = {};
