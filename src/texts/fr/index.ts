// French, typed against English.
import type { Texts } from '../en/index.js';
import { consent } from './consent.js';
import { device } from './device.js';
import { errors } from './errors.js';
import { messages } from './messages.js';
import { pages } from './pages.js';
import { reconsent } from './reconsent.js';

export const fr: Texts = { errors, messages, pages, consent, device, reconsent };
