// Page weight of a built dist/: the gzip size (level 9) of every .wasm, .js and .css file,
// the app's (what the page downloads before its first figure) and the simulation worker's
// (worker*.wasm/js, fetched by the worker) and the lazily loaded module's (views*.wasm/js,
// fetched when a view it holds is first shown: the Experiments page, the sweep panel) apart. Read by e2e/weight.test.mjs (the bound) and
// e2e/perf.mjs (the benchmark's summary).

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The bound on the app's weight, gzip KB (issue 26). */
export const APP_GZIP_KB_MAX = 250;

const kb = (n) => Math.round((n / 1024) * 10) / 10;

/** gzip sizes of the .wasm/.js/.css files in `dir`, the app and the worker apart. */
export async function pageWeight(dir) {
  const files = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!/\.(wasm|js|css)$/.test(name)) continue;
    const body = await readFile(join(dir, name));
    // The views module (src/bin/views.rs) loads after the first figure, when a view it holds
    // is first shown: not page weight either, listed apart as 'lazy'.
    const part = name.startsWith('worker') ? 'worker' : name.startsWith('views') ? 'lazy' : 'app';
    files.push({ name, part, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  const sum = (part, key) => files.filter((f) => f.part === part).reduce((a, f) => a + f[key], 0);
  return {
    files: files.map((f) => ({ ...f, raw_kb: kb(f.raw), gzip_kb: kb(f.gzip) })),
    app_gzip_kb: kb(sum('app', 'gzip')),
    app_raw_kb: kb(sum('app', 'raw')),
    worker_gzip_kb: kb(sum('worker', 'gzip')),
    worker_raw_kb: kb(sum('worker', 'raw')),
    lazy_gzip_kb: kb(sum('lazy', 'gzip')),
    lazy_raw_kb: kb(sum('lazy', 'raw')),
    target_app_gzip_kb: APP_GZIP_KB_MAX,
  };
}
