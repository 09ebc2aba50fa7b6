// Messenger webhook kit: the public entry point. A Messenger chatbot's webhook that links a Messenger
// user (PSID) to a Ward account: verification handshake, signed events, a durable queue, the code
// exchange at Ward and the id_token check. See src/messenger-kit/README.md.
export { createMessengerWebhook } from './webhook.js';
export { createNodeListener, messengerFastifyPlugin, type AdapterOptions } from './adapters.js';
export { signBody, signatureMatches, verifyHandshake } from './security.js';
export { LinkError } from './exchange.js';
export type {
  FetchLike,
  HandlerResult,
  HeadersLike,
  ItemKind,
  LinkFailure,
  LinkedProfile,
  MessagingEvent,
  MessengerWebhook,
  MessengerWebhookOptions,
  QueueStats,
  WardOptions,
} from './types.js';
