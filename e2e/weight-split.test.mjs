// Code splitting (issue 26) in headless Chromium against dist/: the Experiments page's views
// are a second wasm (src/bin/experiments.rs) that the page does not download before its first
// figure; opening the page loads it and shows the tables, a row's Load comes back to the
// explorer; if the module cannot load, the page says so, the explorer and the config stay,
// and opening the page again retries. Needs dist/ (trunk build --release --offline).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
// The quick tables take a while on a loaded 2-core machine.
const TABLES_MS = 240_000;
let server;

before(async () => {
  server = await serve(DIST, 0);
});

after(async () => {
  await server?.close();
});

const isLazy = (u) => /\/experiments(_bg\.wasm|\.js)$/.test(new URL(u).pathname);
// The routes match any query (a retry asks for experiments.js?try=N).

/** The first figure: the metrics of the first finished run. */
const firstFigures = (page) =>
  page.waitForFunction(
    () => {
      const m = document.querySelector('section.metrics');
      return m && m.getAttribute('aria-busy') === 'false' && Number(m.dataset.gen ?? 0) > 0;
    },
    null,
    { timeout: 60_000 },
  );

test('the Experiments module loads on first use: not before the first figure, then its tables and Load work', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const requested = [];
    browser.context.on('request', (r) => requested.push(r.url()));
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=intro`);
    await firstFigures(page);
    await page.waitForTimeout(500);
    assert.deepEqual(requested.filter(isLazy), [], 'the Experiments module was fetched before it was needed');

    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    await page.waitForSelector('.seeds-page');
    await page.waitForSelector('.seed table', { timeout: TABLES_MS });
    const lazy = requested.filter(isLazy).map((u) => new URL(u).pathname).sort();
    assert.deepEqual(lazy, ['/experiments.js', '/experiments_bg.wasm']);
    assert.equal(await page.locator('.seeds-page [role=status]:has-text("Loading the Experiments page")').count(), 0);
    assert.ok((await page.locator('.scoreboard tbody[data-group] tr[data-preset]').count()) >= 1, 'the scoreboard lists the tables');

    // A row's Load goes back through the seam: the explorer, with that table's preset.
    const table = page.locator('section.seed').first();
    const preset = await table.getAttribute('data-preset');
    await table.locator('td.load button').first().click();
    await page.waitForSelector('select[name=preset]', { timeout: 10_000 });
    assert.equal(await page.locator('select[name=preset]').inputValue(), preset);
    assert.equal(await page.locator('.seeds-page').count(), 0);

    // Back on the page, the module is not fetched again and the tables are there at once.
    const before = requested.filter(isLazy).length;
    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    await page.waitForSelector('.seed table', { timeout: 10_000 });
    assert.equal(requested.filter(isLazy).length, before);
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('if the Experiments module cannot load, the page says so, keeps the config, and retries on the next open', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.route('**/experiments.js*', (r) => r.fulfill({ status: 404, body: 'gone' }));
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=rr-kbuild&hz=100`);
    await firstFigures(page);
    const search = await page.evaluate(() => location.search);
    assert.match(search, /preset=rr-kbuild/);
    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    const alert = page.locator('.seeds-page [role=alert]');
    await alert.waitFor({ timeout: 10_000 });
    assert.match(await alert.textContent(), /could not be loaded \(.*experiments\.js.*\).*config/);

    // The explorer is as it was.
    await page.click('nav[aria-label=Views] button:has-text("Explore")');
    await page.waitForSelector('select[name=preset]');
    assert.equal(await page.locator('select[name=preset]').inputValue(), 'rr-kbuild');
    assert.equal(await page.evaluate(() => location.search), search);

    // The loader forgot the failure: the next open tries again.
    await browser.context.unroute('**/experiments.js*');
    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    await page.waitForSelector('.seeds-page .seeds', { timeout: 20_000 });
    assert.equal(await page.locator('.seeds-page [role=alert]').count(), 0);
    // The refused script: its 404, Chromium's console line for it, and the aborted request.
    const expected = (p) =>
      /HTTP 404: .*\/experiments\.js(\?.*)?$/.test(p) ||
      /console error: Failed to load resource.*404/.test(p) ||
      /request failed: .*\/experiments\.js(\?\S*)? \(net::ERR_ABORTED\)$/.test(p);
    assert.deepEqual(problems.filter((p) => !expected(p)), [], 'other console errors or failed requests');
    assert.ok(problems.some(expected), 'the 404 was seen');
  } finally {
    await browser.close();
  }
});
