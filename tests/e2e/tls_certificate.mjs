// A throwaway certificate authority and a server certificate for 127.0.0.1 and localhost,
// made with the openssl CLI, for the HTTPS tests. Not a test file itself.
//
// Files in `dir`: ca.pem (what clients trust: NODE_EXTRA_CA_CERTS, Python's
// connection_verify), cert.pem + key.pem (the server's, PEM) and cert.pfx (the same as
// PKCS #12, password PFX_PASSWORD).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PFX_PASSWORD = 'azqueue-test';

const openssl = (/** @type {string[]} */ args, /** @type {string} */ cwd) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/** Makes the files in a new temporary directory (or `dir`) and returns their paths. */
export function makeCertificate(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-tls-'))) {
  // P-256 keys: quick to make, and every client here speaks them.
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=azqueue test CA',
    ],
    dir,
  );
  openssl(
    ['req', ...newKey, '-keyout', 'key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'],
    dir,
  );
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    [
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = serverAuth',
      'subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '',
    ].join('\n'),
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'cert.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  openssl(
    [
      'pkcs12',
      '-export',
      '-in',
      'cert.pem',
      '-inkey',
      'key.pem',
      '-out',
      'cert.pfx',
      '-passout',
      `pass:${PFX_PASSWORD}`,
    ],
    dir,
  );
  const at = (/** @type {string} */ name) => path.join(dir, name);
  return { dir, ca: at('ca.pem'), cert: at('cert.pem'), key: at('key.pem'), pfx: at('cert.pfx') };
}
