// The ceiling server for L4 (performance.md): plain node:http on 127.0.0.1, no framework.
// L4a: GET answers a pre-serialised 1.2 KB JSON body. L4b: a form POST is read and parsed
// (URLSearchParams) and answered with a 1.2 KB JSON body serialised per request.
import http from 'node:http';

const filler = 'x'.repeat(1100);
const template = {
  access_token: 'a'.repeat(43),
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'openid',
  note: filler,
};
const staticBody = Buffer.from(JSON.stringify(template));

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': staticBody.length });
    res.end(staticBody);
    return;
  }
  let data = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    const form = new URLSearchParams(data);
    const out = JSON.stringify({ ...template, grant_type: form.get('grant_type') });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(out),
      'cache-control': 'no-store',
    });
    res.end(out);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  process.stdout.write(`LISTENING ${server.address().port}\n`),
);
