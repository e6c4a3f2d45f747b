// Measures (not a test) a 32-point sweep in the built site with a pool of 1 and of 2 workers
// (navigator.hardwareConcurrency overridden), and checks that both plots are identical.
// Prints the wall time from page load to the last point, best of `RUNS`.
//
//   node e2e/sweep_pool.mjs
//
// The sweep (SWEEP_PATH): rr-kbuild's rr_interval with 2 seeds a point (replicas=2): twice
// the sweep's points, each run with at most 500,000 events (jobs::SWEEP_EVENT_BUDGET).

import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const PATH = process.env.SWEEP_PATH ?? '/?v=1&preset=rr-kbuild&replicas=2';
const RUNS = Number(process.env.RUNS ?? 3);
const server = await serve(process.env.SCHEDSCOPE_DIST ?? 'dist', 0);
const results = {};
try {
  for (const cores of [1, 2]) {
    const times = [];
    let plot;
    for (let r = 0; r < RUNS; r++) {
      const browser = await launch({ width: 1280, height: 800 });
      await browser.context.addInitScript((n) => {
        Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n });
      }, cores);
      const t0 = Date.now();
      const { page } = await open(browser.context, new URL(PATH, server.url).href);
      await page.waitForSelector('figure.plot.sweep', { timeout: 60_000 });
      await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, { timeout: 600_000, polling: 50 });
      times.push((Date.now() - t0) / 1000);
      const total = await page.$eval('figure.plot.sweep circle', () => document.querySelectorAll('figure.plot.sweep circle').length);
      plot = await page.$eval('figure.plot.sweep', (f) => f.outerHTML);
      results[cores] = { times, plot, total };
      await browser.close();
    }
  }
} finally {
  await server.close();
}
for (const [cores, r] of Object.entries(results)) {
  console.log(`${cores} worker(s): ${r.times.map((t) => t.toFixed(2)).join(' ')} s (best ${Math.min(...r.times).toFixed(2)} s), ${r.total} points drawn`);
}
console.log(`plots identical: ${results[1].plot === results[2].plot}`);
