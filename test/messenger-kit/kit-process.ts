// A chatbot process for the crash-and-restart test: the Messenger kit behind node:http on loopback,
// its queue at MESSENGER_QUEUE, Ward at MESSENGER_ISSUER. Prints "LISTENING <port>" and
// "LINKED <psid> <sub>" for each link; the test kills it with SIGKILL mid-processing.
import { createServer } from 'node:http';
import { createMessengerWebhook, createNodeListener } from '../../src/messenger-kit/index.js';
import { APP_SECRET, CALLBACK_BASE, CLIENT_ID, VERIFY_TOKEN } from './support.js';

const kit = createMessengerWebhook({
  appSecret: APP_SECRET,
  verifyToken: VERIFY_TOKEN,
  queuePath: process.env.MESSENGER_QUEUE!,
  ward: {
    issuer: process.env.MESSENGER_ISSUER!,
    clientId: CLIENT_ID,
    redirectUri: CALLBACK_BASE,
    jwtAlgorithm: 'RS256',
  },
  onLinked: (profile, psid) => console.log(`LINKED ${psid} ${profile.sub}`),
  exchangeTimeoutMs: 60_000,
});
const server = createServer(createNodeListener(kit, { path: '/webhook' }));
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as { port: number }).port}`));
