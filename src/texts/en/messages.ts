/** English texts: messages. */
export const messages = {};
