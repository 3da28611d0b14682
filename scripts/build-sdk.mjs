// Bundles the official @azure/storage-queue SDK (its browser build) into one ES module,
// pkg/vendor/azure-storage-queue.js, which the web port serves beside pkg/web. The teaching
// page's snippet imports it from there, so it works offline and where CDNs are blocked.
// Run by scripts/build.sh; the output is build output (git-ignored), like pkg/web.

import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'pkg', 'vendor', 'azure-storage-queue.js');
mkdirSync(dirname(outfile), { recursive: true });
await build({
  stdin: {
    contents:
      'export { QueueClient, QueueServiceClient, AnonymousCredential } from "@azure/storage-queue";',
    resolveDir: root,
    loader: 'js',
  },
  bundle: true,
  platform: 'browser', // the packages' "browser" builds: fetch, no Node built-ins
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'eof', // keep the SDK's licence notices
  outfile,
  logLevel: 'error',
});
