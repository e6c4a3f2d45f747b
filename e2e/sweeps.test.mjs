// Sweeps in headless Chromium against the built site (dist/), checked against the command
// line (issue 17): the y-axis metric picker is in the URL and changes the plot; the sweep
// run on a pool of 2 workers plots exactly what 1 worker plots; and a heatmap of
// rr_interval x jobs on rr-kbuild has the cells `schedscope sweep --param rr_interval
// --param2 jobs --json` computes (each sweep point runs with the page's sweep budget,
// max_events=500000, so the CLI is given the same). Needs dist/ and the CLI
// (e2e/cli.mjs, brought up to date here). Run by `node --test e2e/sweeps.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve } from './serve.mjs';
import { cliBinary } from './cli.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let CLI; // cliBinary() (e2e/cli.mjs), in `before`
// jobs::SWEEP_EVENT_BUDGET: every sweep point in the page runs with at most this many events.
const SWEEP_BUDGET = '500000';

let server;

before(async () => {
  CLI = cliBinary();
  server = await serve(DIST, 0);
});

after(async () => {
  await server?.close();
});

/** A page whose navigator reports `cores` logical CPUs (the pool's size). */
async function page(cores, path) {
  const browser = await launch({ width: 1280, height: 800 });
  await browser.context.addInitScript((n) => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n });
  }, cores);
  const { page, problems } = await open(browser.context, new URL(path, server.url).href);
  return { browser, page, problems };
}

/** Waits for the figure `sel` to finish its points; returns its data. */
async function finished(page, sel, timeout = 240_000) {
  await page.waitForSelector(sel, { timeout: 60_000 });
  await page.waitForFunction((s) => {
    const f = document.querySelector(s);
    return f && !f.querySelector('.progress');
  }, sel, { timeout });
  return page.evaluate((s) => document.querySelector(s).outerHTML, sel);
}

test('the y-axis metric is in the URL, changes the plot, and a bad one gets a message', async () => {
  const { browser, page, problems } = await page_(1, '/?v=1&preset=intro');
  try {
    await finished(page, 'figure.plot.sweep');
    const ticks = await page.$eval('figure.plot.sweep', (f) => [f.dataset.metric, f.dataset.ys, f.dataset.sweepKey]);
    assert.deepEqual([ticks[0], ticks[2]], ['ticks', 'hz'], 'intro starts on its knob (hz) and its metric (ticks)');
    await page.selectOption('select[name=sweep_y]', 'wakeup_latency_p99');
    await page.waitForFunction(() => document.querySelector('figure.plot.sweep').dataset.metric === 'wakeup_latency_p99');
    const p99 = await page.$eval('figure.plot.sweep', (f) => f.dataset.ys);
    assert.notEqual(p99, ticks[1], 'another metric, another curve');
    await page.waitForFunction(() => location.search.includes('sweep_y=wakeup_latency_p99'), null, { timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
  const bad = await page_(1, '/?v=1&preset=intro&sweep_y=latency');
  try {
    await bad.page.waitForSelector('.notices', { timeout: 20_000 });
    const text = await bad.page.$eval('.notices', (n) => n.textContent);
    assert.match(text, /sweep_y=latency: unknown metric/);
    // The sweep panel loads with the views module after the first figure, maybe after the notice.
    await bad.page.waitForSelector('figure.plot.sweep', { timeout: 60_000 });
    assert.equal(await bad.page.$eval('figure.plot.sweep', (f) => f.dataset.metric), 'ticks', 'the fallback: the preset\'s metric');
  } finally {
    await bad.browser.close();
  }
});

// `page` is taken by the helper's result name inside tests.
const page_ = page;

test('a sweep on 2 workers plots exactly what 1 worker plots', async () => {
  const path = '/?v=1&preset=rr-kbuild&sweep_y=context_switches';
  const plots = [];
  for (const cores of [1, 2]) {
    const { browser, page } = await page_(cores, path);
    try {
      plots.push(await finished(page, 'figure.plot.sweep'));
    } finally {
      await browser.close();
    }
  }
  assert.ok(plots[0].includes('circle'), 'points were drawn');
  assert.equal(plots[1], plots[0]);
});

test('a heatmap of rr_interval x jobs on rr-kbuild has the CLI grid\'s cells', async () => {
  const { browser, page, problems } = await page_(2, '/?v=1&preset=rr-kbuild&sweep2=jobs&sweep_y=throughput');
  try {
    await finished(page, 'figure.plot.heatmap');
    const cells = await page.$$eval('figure.plot.heatmap rect.cell', (rs) => rs.map((r) => [r.dataset.v1, r.dataset.v2, Number(r.dataset.y)]));
    assert.ok(cells.length >= 16, `${cells.length} cells`);
    const v1 = [...new Set(cells.map((c) => c[0]))];
    const v2 = [...new Set(cells.map((c) => c[1]))];
    const out = execFileSync(CLI, ['sweep', '--preset', 'rr-kbuild', '--set', `max_events=${SWEEP_BUDGET}`,
      '--param', 'rr_interval', '--values', v1.join(','), '--param2', 'jobs', '--values2', v2.join(','),
      '--metric', 'throughput', '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const grid = JSON.parse(out);
    assert.equal(grid.length, cells.length);
    for (const [a, b, y] of cells) {
      const c = grid.find((g) => g.value === a && g.value2 === b);
      assert.ok(c, `${a} x ${b} in the CLI grid`);
      assert.equal(y, c.mean, `${a} x ${b}`);
    }
    // A click on a cell moves both knobs there.
    const [a, b] = cells[cells.length - 1];
    await page.click(`figure.plot.heatmap rect.cell[data-v1="${a}"][data-v2="${b}"]`);
    await page.waitForFunction(([x, y]) => document.querySelector(`rect.cell.current[data-v1="${x}"][data-v2="${y}"]`), [a, b], { timeout: 10_000 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
