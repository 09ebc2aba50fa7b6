// @peculiar/x509 needs the reflect-metadata polyfill loaded first and a WebCrypto provider. Loaded on
// first use (a new signing key, the dev TLS certificate): a restart with existing keys never needs it,
// and it is a tenth of the start-up time.
type X509 = typeof import('@peculiar/x509');

let loading: Promise<X509> | undefined;

export function loadX509(): Promise<X509> {
  loading ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    const { webcrypto } = await import('node:crypto');
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    return x509;
  })();
  return loading;
}
