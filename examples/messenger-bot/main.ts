// Runs the example Messenger bot (see README.md beside this file):
//   node --import tsx examples/messenger-bot/main.ts            the bot alone (a real Messenger app)
//   node --import tsx examples/messenger-bot/main.ts --demo     the bot and the platform simulator:
//     it prints the Log In URL to open in a browser; after signing in, paste the URL the browser was
//     sent to (https://www.facebook.com/messenger_platform/...) and the simulator delivers the signed
//     webhook event to the bot, which exchanges the code at Ward and prints the linked profile.
// Settings come from the environment (defaults suit Ward's `npm start` on this machine).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Agent, fetch as undiciFetch } from 'undici';
import { MessengerSimulator } from '../../test/helpers/messenger-sim.js';
import { startMessengerBot } from './bot.js';

const env = process.env;
const dataDir = env.WARD_DATA_DIR ?? 'data';
const tls = {
  cert: readFileSync(env.BOT_TLS_CERT ?? join(dataDir, 'tls', 'dev-cert.pem'), 'utf8'),
  key: readFileSync(env.BOT_TLS_KEY ?? join(dataDir, 'tls', 'dev-key.pem'), 'utf8'),
};
const alg = (env.BOT_JWT_ALG ?? 'HS256') as 'HS256' | 'RS256';
const appSecret = env.FB_APP_SECRET ?? 'demo-app-secret';
// Trust Ward's development certificate (or set NODE_EXTRA_CA_CERTS / WARD_CA to a real CA file).
const wardCa = env.WARD_CA ? readFileSync(env.WARD_CA, 'utf8') : tls.cert;
const agent = new Agent({ connect: { ca: wardCa } });

const bot = await startMessengerBot({
  appSecret,
  verifyToken: env.FB_VERIFY_TOKEN ?? 'demo-verify-token',
  ward: {
    issuer: env.WARD_ISSUER ?? 'https://localhost:8443',
    clientId: env.BOT_CLIENT_ID ?? 'messenger-bot',
    clientSecret: env.BOT_CLIENT_SECRET,
    jwtAlgorithm: alg,
    fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: agent }),
  },
  queuePath: env.BOT_QUEUE ?? join(dataDir, 'messenger-bot', 'queue.db'),
  tls,
  port: Number(env.BOT_PORT ?? 8444),
  botName: env.BOT_NAME ?? 'Ward demo bot',
});
console.log(`bot listening on ${bot.url} (webhook ${bot.url}/webhook, linking page ${bot.url}/link)`);
const stop = async () => {
  await bot.close();
  await agent.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

if (process.argv.includes('--demo')) {
  const botAgent = new Agent({ connect: { ca: tls.cert } });
  const sim = new MessengerSimulator({
    appSecret,
    webhookUrl: `${bot.url}/webhook`,
    fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: botAgent }),
  });
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  for (let n = 1; ; n++) {
    const psid = `demo-psid-${n}`;
    const button = sim.logInButton(psid, bot.buttonUrl(psid));
    console.log(`\nLog In button for ${psid}: open\n  ${button.url}\n`);
    const answer = (await rl.question('Paste the URL the browser ended on (or "q" to quit): ')).trim();
    if (answer === 'q' || answer === '') break;
    try {
      const done = bot.nextOutcome();
      const outcome = await sim.receiveRedirect(answer);
      if (!outcome.authorizationCode) {
        console.log(`not linked: ${outcome.error} (nothing delivered to the bot)`);
        continue;
      }
      console.log(`webhook answered ${outcome.delivery?.attempts.map((a) => a.status ?? a.error).join(', ')}`);
      const result = await done;
      console.log(
        result.linked ? `linked: ${JSON.stringify(result.linked.profile)}` : `failed: ${result.failed?.error}`,
      );
    } catch (e) {
      console.log((e as Error).message);
    }
  }
  rl.close();
  await stop();
}
