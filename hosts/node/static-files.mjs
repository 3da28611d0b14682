// The page's port: the files of www/, and the build output the page loads (pkg/web, pkg/vendor,
// and pkg/edge for a scenario with fault rules)
// at the same paths, read-only and never outside those directories.

import fs from 'node:fs';
import path from 'node:path';

/** @import { IncomingMessage, ServerResponse } from 'node:http' */

/** @type {Record<string, string>} */
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * Serves the files under www/, and pkg/web/, pkg/edge/ and pkg/vendor/ at /pkg/web/, … (GET/HEAD
 * only, never outside those directories).
 * @param {string} www
 * @param {string} pkg the build output (pkg/)
 * @returns {(req: IncomingMessage, res: ServerResponse) => void}
 */
export function staticListener(www, pkg) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(/** @type {string} */ (req.url), 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const built = /^\/pkg\/(web|edge|vendor)\//.exec(pathname);
    const root = built ? path.join(pkg, built[1]) : www;
    let file = path.join(root, built ? pathname.slice(built[0].length) : pathname);
    if (!file.startsWith(root + path.sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) file = path.join(file, 'index.html');
      fs.readFile(file, (readErr, bytes) => {
        if (readErr) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          return;
        }
        res.writeHead(200, {
          'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
          'content-length': bytes.length,
          'cache-control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : bytes);
      });
    });
  };
}
