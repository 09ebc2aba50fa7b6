/** English texts: errors. */
export const errors = {};
