// The messages the sign-in routes show on the hosted pages, from the language files (src/texts/).
import type { Language } from '../../errors/ward-error.js';
import { type Texts, textsIn } from '../../texts/texts.js';

export type HostedMessage = keyof Texts['pages']['signIn'];

export const hostedMessage = (language: Language, id: HostedMessage): string => textsIn(language).pages.signIn[id];

export const isHostedMessage = (v: string): v is HostedMessage => Object.hasOwn(textsIn('en').pages.signIn, v);
