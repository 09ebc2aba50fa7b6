// English: the reference language. Every other language is typed against this one (../texts.ts),
// so a key missing there fails the type check.
import { consent } from './consent.js';
import { device } from './device.js';
import { errors } from './errors.js';
import { messages } from './messages.js';
import { pages } from './pages.js';
import { reconsent } from './reconsent.js';

export const en = { errors, messages, pages, consent, device, reconsent };

/** What every language provides: the shape of the English texts. */
export type Texts = typeof en;
