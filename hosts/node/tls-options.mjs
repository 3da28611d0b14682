// HTTPS for the Node server: Azurite's --cert/--key/--pwd read into Node's TLS options, checked
// before anything listens so a wrong file or password is named at the start.

import fs from 'node:fs';
import tls from 'node:tls';

/**
 * TLS options from --cert/--key/--pwd: PEM when a key is given, else PFX with the password
 * (Azurite's rule). Throws a readable Error when a file cannot be read.
 * @param {{ cert: string, key?: string, pwd?: string }} opts
 */
export function tlsOptions(opts) {
  /**
   * @param {string} file
   * @param {string} what
   */
  const read = (file, what) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      const err = /** @type {NodeJS.ErrnoException} */ (error);
      throw new Error(
        `cannot read the ${what} ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`,
      );
    }
  };
  /** @type {import('node:tls').SecureContextOptions} */
  const options = opts.key
    ? { cert: read(opts.cert, 'certificate'), key: read(opts.key, 'key') }
    : { pfx: read(opts.cert, 'PFX file'), passphrase: opts.pwd };
  // A wrong password or a key that does not match shows here, before anything is started.
  try {
    tls.createSecureContext(options);
  } catch (err) {
    const { message } = /** @type {Error} */ (err);
    throw new Error(`cannot use ${opts.cert} as the server's certificate: ${message}`);
  }
  return options;
}
