// End-to-end throughput through the official JS SDK: azqueue's Node server against Azurite's
// queue service, same client, same machine, same workload (send N, then receive in batches of
// 32 and delete each). Prints one line per server. Usage: node scripts/bench-node.mjs [N]

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueueServiceClient, StorageSharedKeyCredential } from '@azure/storage-queue';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.argv[2] ?? 1000);
const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Spawns a server and resolves with its base URL once `pattern` appears in its output. */
function start(cmd, args, pattern) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no ready line:\n${out}`)); }, 20_000);
    const onData = (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) { clearTimeout(timer); resolve({ url: m[1], child }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${out}`)); });
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(name, base) {
  const service = new QueueServiceClient(`${base}/${ACCOUNT}`, new StorageSharedKeyCredential(ACCOUNT, KEY));
  const q = service.getQueueClient(`bench-${Date.now()}`);
  await q.create();
  const sendLatencies = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    await q.sendMessage(`message ${i}`);
    sendLatencies.push(performance.now() - s);
  }
  const t1 = performance.now();
  let received = 0;
  while (received < N) {
    const batch = await q.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 });
    if (batch.receivedMessageItems.length === 0) break;
    for (const m of batch.receivedMessageItems) await q.deleteMessage(m.messageId, m.popReceipt);
    received += batch.receivedMessageItems.length;
  }
  const t2 = performance.now();
  sendLatencies.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(8)} send ${(N / ((t1 - t0) / 1000)).toFixed(0).padStart(6)}/s ` +
      `(p50 ${percentile(sendLatencies, 50).toFixed(2)} ms, p99 ${percentile(sendLatencies, 99).toFixed(2)} ms)  ` +
      `receive+delete ${(received / ((t2 - t1) / 1000)).toFixed(0).padStart(6)}/s  (${received}/${N} messages)`,
  );
  await q.delete();
}

const servers = [
  ['azqueue', process.execPath, [path.join(ROOT, 'www', 'server.mjs'), '--queuePort', '0', '--webPort', '0', '--silent'], /azqueue ready: queue (http:\/\/[\d.]+:\d+)\//],
  ['azurite', path.join(ROOT, 'node_modules', '.bin', 'azurite-queue'), ['--queuePort', '0', '--inMemoryPersistence', '--silent', '--disableTelemetry', '--skipApiVersionCheck'], /successfully listens on (http:\/\/[\d.]+:\d+)/],
];

console.log(`bench: ${N} messages per server through @azure/storage-queue`);
for (const [name, cmd, args, pattern] of servers) {
  let server;
  try {
    server = await start(cmd, args, pattern);
    await run(name, server.url);
  } catch (err) {
    console.log(`${name.padEnd(8)} could not run: ${err.message.split('\n')[0]}`);
  } finally {
    server?.child.kill('SIGTERM');
  }
}
