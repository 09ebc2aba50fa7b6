// Spanish, typed against English.
import type { Texts } from '../en/index.js';
import { errors } from './errors.js';
import { messages } from './messages.js';
import { pages } from './pages.js';

export const es: Texts = { errors, messages, pages };
