import type { Texts } from '../en/index.js';

/** Spanish texts: messages. */
export const messages: Texts['messages'] = {};
