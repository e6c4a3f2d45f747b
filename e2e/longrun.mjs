// The long run in the browser (`./scripts/bench longrun`): nohz-pipe with ten times its round
// trips (~80M events, max_events=100M) opened from a link, timed from navigation until the
// page shows the full run's figures. A benchmark, not a test: it prints a JSON line and
// asserts nothing (e2e/fullrun.test.mjs keeps the functional half: progress, Cancel, Run in
// full, a change replacing the long run). Needs dist/ (trunk build --release --offline).
//
//   node e2e/longrun.mjs            (SCHEDSCOPE_DIST names another build)

import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

export const LONG = '/?v=1&preset=nohz-pipe&loops=10000000&max_events=100000000';

const server = await serve(process.env.SCHEDSCOPE_DIST ?? 'dist', 0);
const b = await launch();
try {
  const t0 = Date.now();
  const { page, problems } = await open(b.context, new URL(LONG, server.url).href);
  await page.waitForSelector('.toolbar .status.ok', { timeout: 30 * 60_000 });
  const wall = (Date.now() - t0) / 1000;
  const got = await page.evaluate(() => {
    const m = document.querySelector('section.metrics');
    return { digest: m?.getAttribute('data-digest'), stop: m?.getAttribute('data-stop') };
  });
  const os = await import('node:os');
  console.log(JSON.stringify({ what: 'long run in the page', link: LONG, wall_s: wall, ...got, problems,
    load: Number(os.loadavg()[0].toFixed(1)), cores: os.cpus().length }));
} finally {
  await b.close();
  await server.close();
}
