/** Whether a string holds a C0 control character or DEL (a NUL among them, which PostgreSQL text cannot hold). */
export const hasControlCharacter = (s: string): boolean => /[\u0000-\u001f\u007f]/.test(s);
