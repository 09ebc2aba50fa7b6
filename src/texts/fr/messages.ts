import type { Texts } from '../en/index.js';

/** French texts: messages. */
export const messages: Texts['messages'] = {};
