// @peculiar/x509 needs the reflect-metadata polyfill loaded first and a WebCrypto provider.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export { x509 };
