// The machine's topology on the page (issue 31): the machine line says how the chosen CPU is
// built and which of its CPUs `cores` simulates, and the timeline of a run over two sockets
// groups its lanes by socket and LLC (the canvas's aria-label names the groups); a run on one
// LLC without siblings draws its lanes as before. Needs dist/ (trunk build --release
// --offline); run with `node --test e2e/topology.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const RUN_MS = 180_000;
let server;

before(async () => {
  server = await serve(DIST);
});
after(async () => {
  await server?.close();
});

/** The current run's canvas label once its run is in and its lanes are indexed. */
async function timelineLabel(page) {
  await page.waitForFunction(() => {
    const m = document.querySelector('section.metrics');
    const c = document.querySelector('canvas[aria-label^="current: timeline"]');
    return m && m.getAttribute('aria-busy') === 'false' && c && /spans in view/.test(c.getAttribute('aria-label'));
  }, null, { timeout: RUN_MS });
  return page.getAttribute('canvas[aria-label^="current: timeline"]', 'aria-label');
}

test('80 CPUs of a two-socket Cascade Lake: topology line and lanes grouped by socket and LLC', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const url = '/?v=1&cpu=cascadelake-2s&cores=80&workload=rtapp&tasks=160x1ms/4ms&duration=20ms';
    const { page, problems } = await open(b.context, new URL(url, server.url).href);
    const label = await timelineLabel(page);
    assert.match(label, /timeline of 80 CPUs/);
    assert.match(label, /; lanes in 4 groups by socket and LLC: socket 0 · LLC 0, socket 1 · LLC 1, socket 0 · LLC 0 · 2nd threads, socket 1 · LLC 1 · 2nd threads/);
    const line = await page.textContent('[data-testid=machine-topology]');
    assert.equal(line, '2 sockets x 20 cores x 2 threads = 80 CPUs, 1 LLC per socket; simulating CPUs 0-79 of 80: 40 cores x 2 threads, 2 LLCs, 2 sockets');
    assert.equal(await page.textContent('[data-testid=cpu-topology]'), '2 sockets x 20 cores x 2 threads = 80 CPUs, 1 LLC per socket');

    // Eight CPUs of the same machine: one LLC, no siblings, lanes as before.
    await page.fill('input[name=cores-text]', '8');
    await page.press('input[name=cores-text]', 'Enter');
    await page.waitForFunction(() => /timeline of 8 CPUs/.test(
      document.querySelector('canvas[aria-label^="current: timeline"]')?.getAttribute('aria-label') ?? ''), null, { timeout: RUN_MS });
    const small = await timelineLabel(page);
    assert.doesNotMatch(small, /groups by socket/);
    assert.match(await page.textContent('[data-testid=machine-topology]'), /simulating CPUs 0-7 of 80: 8 cores x 1 thread, 1 LLC, 1 socket$/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});
