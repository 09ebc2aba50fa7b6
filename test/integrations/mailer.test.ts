// The SMTP mailer against a real SMTP server on loopback: plain SMTP, STARTTLS when required, smtps;
// the message (French included) arrives with the code in its subject, text and HTML; a refused
// recipient, an unreachable server or a missing STARTTLS is a DeliveryError with no credential in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { DeliveryError } from '../../src/integrations/errors.js';
import { createMailer as createPooledMailer, type Mailer, type MailerOptions } from '../../src/integrations/mailer.js';
import { renderVerificationMessage } from '../../src/integrations/messages.js';
import { ownMimeWriter } from '../../src/integrations/tuning/mime.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

const FROM = 'Ward <no-reply@ward.test>';

// Mailers keep their SMTP connections open: every one made here is closed after the suite. They
// use Ward's own MIME writer (the tuned path) unless a test says otherwise.
const made: Mailer[] = [];
function createMailer(opts: MailerOptions): Mailer {
  const m = createPooledMailer({ mimeWriter: ownMimeWriter, ...opts });
  made.push(m);
  return m;
}
const closeMailers = () => Promise.all(made.map((m) => m.close()));

describe('SMTP mailer', () => {
  let sink: SmtpSink;
  let tls: { key: string; cert: string };
  before(async () => {
    sink = await startSmtpSink();
    tls = await makeDevCertificate();
  });
  after(async () => {
    await closeMailers();
    await sink.close();
  });

  it('delivers over plain SMTP on loopback, with the code in subject, text and HTML', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    const m = renderVerificationMessage({ purpose: 'stepup', code: '731946', ttlSeconds: 300 });
    await mailer.send('alice@example.com', { subject: m.subject, text: m.text, html: m.html });
    const got = await sink.next('alice@example.com');
    assert.equal(got.subject, '731946 is your Ward verification code');
    assert.match(got.text, /731946/);
    assert.match(got.html, /731946/);
    assert.equal(got.from, 'no-reply@ward.test');
    assert.equal(got.secure, false);
    assert.equal(got.headers.get('auto-submitted'), 'auto-generated');
  });

  it('without the MIME writer (WARD_TUNING=off) nodemailer composes the same message', async () => {
    const m = renderVerificationMessage({ purpose: 'register', code: '208417', ttlSeconds: 600, locale: 'fr-FR' });
    const subject = `${m.subject} — ${'é'.repeat(40)}`;
    const got: Array<Awaited<ReturnType<SmtpSink['next']>>> = [];
    for (const [i, mimeWriter] of [ownMimeWriter, undefined].entries()) {
      const to = `plain-${i}@example.fr`;
      await createMailer({ smtpUrl: sink.url, from: '"Équipe Ward" <no-reply@ward.test>', mimeWriter }).send(to, {
        ...m,
        subject,
      });
      got.push(await sink.next(to));
    }
    const [own, composed] = got;
    assert.notEqual(own!.raw.includes('=_ward_'), composed!.raw.includes('=_ward_'), 'two different writers');
    for (const k of ['subject', 'text', 'html', 'from'] as const) assert.equal(own![k], composed![k], k);
    assert.equal(composed!.headers.get('auto-submitted'), 'auto-generated');
  });

  it('carries a French message intact (accents in the subject and the body)', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    const m = renderVerificationMessage({ purpose: 'register', code: '208417', ttlSeconds: 600, locale: 'fr-FR' });
    await mailer.send('bob@example.fr', m);
    const got = await sink.next('bob@example.fr');
    assert.equal(got.subject, '208417 est votre code de vérification Ward');
    assert.match(got.text, /Saisissez-le pour confirmer cette adresse e-mail\. Il expire dans 10 minutes\./);
    assert.match(got.html, /<html lang="fr">/);
    assert.match(got.html, /208417/);
  });

  it('writes a well-formed MIME message: long accented subject and sender name, headers, line lengths', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: '"Équipe Ward, sécurité" <no-reply@ward.test>' });
    const subject = "Votre code de vérification Ward : 208417 — à saisir avant l'expiration, ne le partagez pas 🙂";
    const text = `Ligne accentuée : é à ç ü\n${'x'.repeat(300)}`;
    await mailer.send('ivy@example.com', { subject, text, html: '<p>é</p>' });
    const got = await sink.next('ivy@example.com');
    assert.equal(got.subject, subject, 'encoded words split on characters, not bytes');
    assert.equal(got.text.trim(), text);
    assert.equal(got.html, '<p>é</p>');
    assert.equal(got.from, 'no-reply@ward.test');
    assert.match(got.headers.get('from')!, /<no-reply@ward\.test>$/);
    const parsedFrom = await import('mailparser').then((m) => m.simpleParser(got.raw)).then((p) => p.from?.value[0]);
    assert.deepEqual(parsedFrom, { name: 'Équipe Ward, sécurité', address: 'no-reply@ward.test' });
    assert.match(got.headers.get('date')!, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    assert.match(got.headers.get('message-id')!, /^<[^<>@\s]+@ward\.test>$/);
    assert.equal(got.headers.get('auto-submitted'), 'auto-generated');
    for (const line of got.raw.split('\r\n'))
      assert.ok(line.length <= 78, `line of ${line.length}: ${line.slice(0, 40)}`);
    assert.ok(!/[^\r]\n/.test(got.raw), 'CRLF only');
  });

  it('delivers to an internationalised domain (punycode) and to a local part that needs quoting', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    await mailer.send('jo@exämple.com', { subject: 'idn', text: 't', html: '<p>h</p>' });
    // The sink reports the envelope's domain in Unicode; the header carries the ASCII form.
    const idn = await sink.next('jo@exämple.com');
    assert.equal(idn.subject, 'idn');
    assert.equal(idn.headers.get('to'), 'jo@xn--exmple-cua.com');
    await mailer.send('a,b@example.com', { subject: 'quoted', text: 't', html: '<p>h</p>' });
    const got = await sink.next('"a,b"@example.com');
    assert.equal(got.subject, 'quoted');
    assert.match(got.headers.get('to')!, /"a,b"@example\.com/, 'one mailbox, never read as a list');
  });

  it('keeps each message for its own recipient, in order', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    await mailer.send('carol@example.com', { subject: 'first', text: 'one', html: '<p>one</p>' });
    await mailer.send('dave@example.com', { subject: 'other', text: 'x', html: '<p>x</p>' });
    await mailer.send('carol@example.com', { subject: 'second', text: 'two', html: '<p>two</p>' });
    assert.equal((await sink.next('carol@example.com')).subject, 'first');
    assert.equal((await sink.next('carol@example.com')).subject, 'second');
    assert.equal((await sink.next('dave@example.com')).subject, 'other');
    await assert.rejects(sink.next('carol@example.com', 50), /no email to carol@example.com/);
  });

  it('reuses one SMTP connection for codes sent one after another, and closes it on close()', async () => {
    const own = await startSmtpSink();
    try {
      const mailer = createMailer({ smtpUrl: own.url, from: FROM });
      for (const to of ['p1@example.com', 'p2@example.com', 'p3@example.com'])
        await mailer.send(to, { subject: to, text: 'x', html: '<p>x</p>' });
      for (const to of ['p1@example.com', 'p2@example.com', 'p3@example.com'])
        assert.equal((await own.next(to)).subject, to);
      assert.deepEqual(own.connections(), { accepted: 1, open: 1 });
      await mailer.close();
      for (let i = 0; i < 100 && own.connections().open > 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(own.connections(), { accepted: 1, open: 0 });
      // A send after close() opens a new connection.
      await mailer.send('p4@example.com', { subject: 'again', text: 'x', html: '<p>x</p>' });
      assert.equal((await own.next('p4@example.com')).subject, 'again');
      assert.equal(own.connections().accepted, 2);
      await mailer.close();
    } finally {
      await own.close();
    }
  });

  it('survives the server dropping an idle pooled connection: the next code goes over a new one', async () => {
    const dropping = await startSmtpSink({ idleTimeoutMs: 150 });
    try {
      const mailer = createMailer({ smtpUrl: dropping.url, from: FROM });
      await mailer.send('q1@example.com', { subject: 'first', text: 'x', html: '<p>x</p>' });
      assert.equal((await dropping.next('q1@example.com')).subject, 'first');
      for (let i = 0; i < 200 && dropping.connections().open > 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(dropping.connections().open, 0, 'the server dropped the idle connection');
      await mailer.send('q2@example.com', { subject: 'second', text: 'x', html: '<p>x</p>' });
      assert.equal((await dropping.next('q2@example.com')).subject, 'second');
      assert.equal(dropping.connections().accepted, 2);
    } finally {
      await closeMailers();
      await dropping.close();
    }
  });

  it('speaks TLS from the first byte with smtps://', async () => {
    const secureSink = await startSmtpSink({ mode: 'smtps', tls });
    try {
      assert.match(secureSink.url, /^smtps:\/\/127\.0\.0\.1:\d+$/);
      await createMailer({ smtpUrl: secureSink.url, from: FROM, tls: { ca: tls.cert } }).send('erin@example.com', {
        subject: 's',
        text: 't',
        html: '<p>h</p>',
      });
      assert.equal((await secureSink.next('erin@example.com')).secure, true);
      // An untrusted certificate is refused, not ignored.
      await assert.rejects(
        createMailer({ smtpUrl: secureSink.url, from: FROM }).send('erin@example.com', {
          subject: 's',
          text: 't',
          html: 'h',
        }),
        DeliveryError,
      );
    } finally {
      await closeMailers();
      await secureSink.close();
    }
  });

  it('ignores STARTTLS on loopback by default, and upgrades when the URL requires TLS', async () => {
    const startTlsSink = await startSmtpSink({ mode: 'starttls', tls });
    try {
      await createMailer({ smtpUrl: startTlsSink.url, from: FROM }).send('frank@example.com', {
        subject: 'a',
        text: 't',
        html: 'h',
      });
      assert.equal((await startTlsSink.next('frank@example.com')).secure, false);
      await createMailer({ smtpUrl: `${startTlsSink.url}/?requireTLS=true`, from: FROM, tls: { ca: tls.cert } }).send(
        'frank@example.com',
        { subject: 'b', text: 't', html: 'h' },
      );
      assert.equal((await startTlsSink.next('frank@example.com')).secure, true);
    } finally {
      await closeMailers();
      await startTlsSink.close();
    }
    // A server that offers no STARTTLS while TLS is required: nothing is sent in clear.
    const before = sink.messages.length;
    await assert.rejects(
      createMailer({ smtpUrl: `${sink.url}/?requireTLS=true`, from: FROM }).send('frank@example.com', {
        subject: 'c',
        text: 't',
        html: 'h',
      }),
      (e: unknown) => e instanceof DeliveryError && e.channel === 'email' && e.failure === 'unavailable',
    );
    assert.equal(sink.messages.length, before);
  });

  it('turns a refused recipient into a DeliveryError: refused for 5xx, unavailable for 4xx', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    sink.rejectNext(550);
    await assert.rejects(mailer.send('gina@example.com', { subject: 's', text: 't', html: 'h' }), (e: unknown) => {
      assert.ok(e instanceof DeliveryError);
      assert.equal(e.failure, 'refused');
      assert.equal(e.status, 550);
      return true;
    });
    sink.rejectNext(451);
    await assert.rejects(
      mailer.send('gina@example.com', { subject: 's', text: 't', html: 'h' }),
      (e: unknown) => e instanceof DeliveryError && e.failure === 'unavailable' && e.status === 451,
    );
    await assert.rejects(sink.next('gina@example.com', 50));
  });

  it('fails with a DeliveryError without the password when the server is unreachable', async () => {
    const gone = await startSmtpSink();
    await gone.close();
    const url = gone.url.replace('smtp://', 'smtp://mailer:Pa55-w0rd-secret@');
    await assert.rejects(
      createMailer({ smtpUrl: url, from: FROM, timeoutMs: 2000 }).send('hank@example.com', {
        subject: 's',
        text: 't',
        html: 'h',
      }),
      (e: unknown) => {
        assert.ok(e instanceof DeliveryError);
        assert.equal(e.failure, 'unavailable');
        assert.ok(!e.message.includes('Pa55-w0rd-secret'), e.message);
        assert.ok(!JSON.stringify(e).includes('Pa55-w0rd-secret'));
        return true;
      },
    );
  });

  it('refuses an empty address and a malformed SMTP URL', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM });
    await assert.rejects(
      mailer.send('  ', { subject: 's', text: 't', html: 'h' }),
      (e: unknown) => e instanceof DeliveryError && e.failure === 'invalid_destination',
    );
    assert.throws(() => createMailer({ smtpUrl: 'http://127.0.0.1:25', from: FROM }), /smtp:\/\/ or smtps:\/\//);
    assert.throws(
      () => createMailer({ smtpUrl: `${sink.url}/?tls.rejectUnauthorized=false`, from: FROM }),
      /unknown parameter/,
    );
  });
});
