// A V8 CPU profile of the whole process, for `node --import` where `--cpu-prof` is refused
// (NODE_OPTIONS): written as `<CPU_PROFILE_DIR>/<pid>.cpuprofile` when the process exits.
// scripts/bench/inspector.mjs loads it into the server with BENCH_INSPECTOR_PROFILE.

import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector';

const dir = process.env.CPU_PROFILE_DIR ?? '.';
const session = new Session();
session.connect();
session.post('Profiler.enable');
// Finer than the default 1 ms: a put takes about 20 µs.
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.on('exit', () => {
  // A session in the same thread answers at once, so this runs before the process is gone.
  session.post('Profiler.stop', (err, result) => {
    if (err) return;
    fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
