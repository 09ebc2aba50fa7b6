import type { Texts } from '../en/index.js';

/** German texts: messages. */
export const messages: Texts['messages'] = {};
