/** English texts: pages. */
export const pages = {};
