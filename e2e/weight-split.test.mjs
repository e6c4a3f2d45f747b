// Code splitting (issue 26) in headless Chromium against dist/: the views the first figure
// does not need (the Experiments page, the sweep panel, the inspector, the tour card) are a second wasm (src/bin/views.rs)
// that the page does not download before its first figure; the sweep panel then loads it and
// its pickers and heatmap cells come back to the page as actions (the URL follows); opening
// the Experiments page shows the tables, a row's Load comes back to the explorer; if the
// module cannot load, the page says so, the explorer and the config stay, and opening a view
// again retries. A tour link is the exception: its first screen is the card (the figures
// wait for the answer), so the card asks for the module at once. Needs dist/ (trunk build --release --offline).

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

const isLazy = (u) => /\/views(_bg\.wasm|\.js)$/.test(new URL(u).pathname);
// The routes match any query (a retry asks for views.js?try=N).

/** In the page: the first figure is shown (as `firstFigures` waits for it). */
const figureIn = () => {
  const m = document.querySelector('section.metrics');
  return Boolean(m && m.getAttribute('aria-busy') === 'false' && Number(m.dataset.gen ?? 0) > 0);
};

/** Records, for each request of the views module, whether the first figure was already on
 * the page when the request was routed (a few ms after it was made: a request made before
 * the figure would pass only if the figure came in those ms, while the page asks for the
 * module seconds before the first figure if the mount does not wait for it). */
async function watchLazy(context) {
  const seen = [];
  await context.route(/\/views(_bg\.wasm|\.js)(\?.*)?$/, async (r) => {
    const frame = r.request().frame();
    seen.push(await frame.evaluate(figureIn).catch(() => false));
    await r.continue();
  });
  return seen;
}

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

test('the views module loads after the first figure: the sweep panel from it, its pickers and cells back in the page', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const requested = [];
    browser.context.on('request', (r) => requested.push(r.url()));
    const seen = await watchLazy(browser.context);
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=intro`);
    await firstFigures(page);
    await page.waitForSelector('.sweep-mount figure.plot.sweep[data-sweep-key=hz]', { timeout: 60_000 });
    assert.ok(seen.length >= 1 && seen.every(Boolean), `the views module was asked for before the first figure: ${seen}`);
    assert.equal(await page.locator('.sweep-loading').count(), 0, 'the loading line is gone');
    // A picker's change comes back as the app's action: the URL and the plot follow.
    await page.selectOption('select[name=sweep_y]', 'wakeup_latency_p99');
    await page.waitForFunction(() => document.querySelector('figure.plot.sweep')?.dataset.metric === 'wakeup_latency_p99');
    await page.waitForFunction(() => location.search.includes('sweep_y=wakeup_latency_p99'), null, { timeout: 5000 });
    // A second knob makes a heatmap; a click on a cell moves both knobs there.
    await page.selectOption('select[name=sweep2]', 'cores');
    await page.waitForSelector('figure.heatmap rect.cell:not(.current)', { timeout: 60_000 });
    const cell = page.locator('figure.heatmap rect.cell:not(.current)').first();
    const [v1, v2] = [await cell.getAttribute('data-v1'), await cell.getAttribute('data-v2')];
    await cell.click();
    await page.waitForFunction(
      ([a, b]) => {
        const q = new URLSearchParams(location.search);
        return (q.get('hz') ?? '') === a && (q.get('cores') ?? '') === b;
      },
      [v1, v2],
      { timeout: 10_000 },
    ).catch(async () => assert.fail(`the cell (${v1}, ${v2}) did not set hz and cores: ${await page.evaluate(() => location.search)}`));
    assert.match(await page.evaluate(() => location.search), /sweep2=cores/);
    assert.equal(await page.locator('select[name=sweep2]').inputValue(), 'cores', 'the heatmap stays after the move');
    const fetched = requested.filter(isLazy).map((u) => new URL(u).pathname).sort();
    assert.deepEqual(fetched, ['/views.js', '/views_bg.wasm'], 'fetched once');
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('the inspector comes from the views module after the first figure: the keyboard, a click and its close button work', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const requested = [];
    browser.context.on('request', (r) => requested.push(r.url()));
    const seen = await watchLazy(browser.context);
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=nohz-pipe&loops=2000`);
    await firstFigures(page);
    // Before a selection, the module's panel says how to select.
    await page.waitForSelector('.inspect-mount .inspector .inspect-hint', { timeout: 60_000 });
    assert.ok(seen.length >= 1 && seen.every(Boolean), `the views module was asked for before the first figure: ${seen}`);
    assert.equal(await page.locator('.inspect-loading').count(), 0, 'the loading line is gone');
    // Each yew numbers its roots and handles the events under the numbers it owns: the
    // module's must not be the page's (the close button ran the page's listener of the
    // same number, the Experiments tab's).
    const roots = await page.evaluate(() => ({
      page: document.querySelector('main').__yew_subtree_id,
      mounts: [...document.querySelectorAll('.inspect-mount, .sweep-mount')].map((m) => m.__yew_subtree_id),
    }));
    assert.ok(roots.mounts.length === 2 && roots.mounts.every((m) => m !== undefined && m !== roots.page), JSON.stringify(roots));
    // The keyboard (page side) selects; the module draws the span's lines and its records.
    const canvas = '.timeline canvas[role=img]:not(.counters)';
    await page.focus(canvas);
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.inspect-mount .inspector .inspect-details li', { timeout: 10_000 });
    const first = await page.locator('.inspector .inspect-details').textContent();
    await page.keyboard.press(']');
    await page.waitForFunction(
      (t) => document.querySelector('.inspector .inspect-details')?.textContent !== t,
      first,
      { timeout: 10_000 },
    );
    // A click on a run: a decision record (or why there is none) comes with it.
    const box = await page.locator(canvas).boundingBox();
    let record = false;
    for (let i = 1; i < 40 && !record; i++) {
      await page.mouse.click(box.x + (box.width * i) / 40, box.y + box.height * 0.3);
      await page.waitForFunction(() => !document.querySelector('.inspector .inspect-finding'), null, { timeout: 60_000 });
      record = (await page.locator('.inspector :is(.inspect-wake, .inspect-pick, .inspect-idle, .inspect-move)').count()) > 0;
    }
    assert.ok(record, 'a click showed a decision record');
    // Its close button comes back to the page: the selection goes, the hint is back.
    await page.click('.inspector button[aria-label="Close the inspector"]');
    await page.waitForSelector('.inspect-mount .inspector .inspect-hint', { timeout: 10_000 });
    assert.equal(await page.locator('nav[aria-label=Views] button[aria-pressed=true]').textContent(), 'Explore', 'still the explorer');
    const fetched = requested.filter(isLazy).map((u) => new URL(u).pathname).sort();
    assert.deepEqual(fetched, ['/views.js', '/views_bg.wasm'], 'fetched once (the sweep and the inspector share it)');
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('the embed\'s plot view draws the sweep from the views module', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=intro&embed=1&view=plot&sweep_y=ticks`);
    await page.waitForSelector('[data-view=plot] .sweep-mount figure.plot.sweep[data-metric=ticks]', { timeout: 60_000 });
    assert.equal(await page.locator('[data-view=plot] select[name=sweep_y]').count(), 0, 'only the plot, no pickers');
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('the Experiments page comes from the views module: its tables and Load work', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const requested = [];
    browser.context.on('request', (r) => requested.push(r.url()));
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=intro`);
    await firstFigures(page);

    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    await page.waitForSelector('.seeds-page');
    await page.waitForSelector('.seed table', { timeout: TABLES_MS });
    const lazy = requested.filter(isLazy).map((u) => new URL(u).pathname).sort();
    assert.deepEqual(lazy, ['/views.js', '/views_bg.wasm']);
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

test('if the views module cannot load, the sweep and the Experiments page say so, the config stays, and the next open retries', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.route('**/views.js*', (r) => r.fulfill({ status: 404, body: 'gone' }));
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=rr-kbuild&hz=100`);
    await firstFigures(page);
    const search = await page.evaluate(() => location.search);
    assert.match(search, /preset=rr-kbuild/);
    // The sweep panel says why; the metrics and the timeline are there.
    const sweepAlert = page.locator('section[aria-label=Sweep] [role=alert]');
    await sweepAlert.waitFor({ timeout: 20_000 });
    assert.match(await sweepAlert.textContent(), /sweep could not be loaded \(.*views\.js.*\).*config/);
    assert.ok((await page.locator('section.metrics [data-metric]').count()) > 0, 'the metrics are shown');
    // So does the inspector, under a timeline that still works.
    const inspectAlert = page.locator('.timeline [role=alert]');
    await inspectAlert.waitFor({ timeout: 20_000 });
    assert.match(await inspectAlert.textContent(), /inspector could not be loaded \(.*views\.js.*\).*config/);
    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    const alert = page.locator('.seeds-page [role=alert]');
    await alert.waitFor({ timeout: 10_000 });
    assert.match(await alert.textContent(), /could not be loaded \(.*views\.js.*\).*config/);

    // The explorer is as it was.
    await page.click('nav[aria-label=Views] button:has-text("Explore")');
    await page.waitForSelector('select[name=preset]');
    assert.equal(await page.locator('select[name=preset]').inputValue(), 'rr-kbuild');
    assert.equal(await page.evaluate(() => location.search), search);

    // The loader forgot the failure: the next open tries again.
    await browser.context.unroute('**/views.js*');
    await page.click('nav[aria-label=Views] button:has-text("Experiments")');
    await page.waitForSelector('.seeds-page .seeds', { timeout: 20_000 });
    assert.equal(await page.locator('.seeds-page [role=alert]').count(), 0);
    // Back in the explorer, the sweep panel is drawn by the module now loaded.
    await page.click('nav[aria-label=Views] button:has-text("Explore")');
    await page.waitForSelector('.sweep-mount figure.plot.sweep', { timeout: 60_000 });
    assert.equal(await page.locator('section[aria-label=Sweep] [role=alert]').count(), 0);
    // The inspector, now from the loaded module too: a selection shows the span.
    await page.focus('.timeline canvas[role=img]:not(.counters)');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.inspect-mount .inspector .inspect-details li', { timeout: 20_000 });
    assert.equal(await page.locator('.timeline [role=alert]').count(), 0);
    // The refused script: its 404, Chromium's console line for it, and the aborted request.
    const expected = (p) =>
      /HTTP 404: .*\/views\.js(\?.*)?$/.test(p) ||
      /console error: Failed to load resource.*404/.test(p) ||
      /request failed: .*\/views\.js(\?\S*)? \(net::ERR_ABORTED\)$/.test(p);
    assert.deepEqual(problems.filter((p) => !expected(p)), [], 'other console errors or failed requests');
    assert.ok(problems.some(expected), 'the 404 was seen');
  } finally {
    await browser.close();
  }
});

test('a tour link draws its card from the views module; if the module cannot load, the card says so and closing the tour shows the figures', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    // Loaded: the card is the module's, in the page's mount, and its answer comes back.
    let { page, problems } = await open(browser.context, `${server.url}?tour=intro&step=1`);
    await page.waitForSelector('.tour-mount section.tour[data-step="1"]', { timeout: 60_000 });
    assert.equal(await page.locator('.tour-loading').count(), 0, 'the loading line is gone');
    await page.click('.tour-mount button.tour-choice[data-choice="1"]');
    await page.waitForSelector('.tour-mount .tour-verdict.right', { timeout: 10_000 });
    await firstFigures(page);
    assert.deepEqual(problems, [], 'console errors or failed requests');
    await page.close();

    // Refused: the figures wait for an answer the card would take, so the line offers to
    // close the tour; closing it shows them.
    await browser.context.route('**/views.js*', (r) => r.fulfill({ status: 404, body: 'gone' }));
    ({ page, problems } = await open(browser.context, `${server.url}?tour=intro&step=1`));
    const alert = page.locator('[role=alert]:has-text("tour could not be loaded")');
    await alert.waitFor({ timeout: 20_000 });
    assert.match(await alert.textContent(), /tour could not be loaded \(.*views\.js.*\).*config/);
    assert.equal(await page.locator('section.metrics').count(), 0, 'the figures wait for the answer');
    await alert.locator('button.tour-close').click();
    await firstFigures(page);
    assert.equal(await page.locator('[role=alert]:has-text("tour could not be loaded")').count(), 0);
  } finally {
    await browser.close();
  }
});

test("the plots' SVG and PNG files come from the views module; if it cannot load, the share bar says why", async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.route('**/views.js*', (r) => r.fulfill({ status: 404, body: 'gone' }));
    const { page } = await open(browser.context, `${server.url}?v=1&preset=rr-kbuild&hz=100`);
    await firstFigures(page);
    await page.click('details.exports > summary');
    // The distribution plot is the page's own (the sweep's would wait for a reload).
    await page.waitForSelector('figure.plot.dist svg', { timeout: 20_000 });
    await page.click('button[data-export="Distribution SVG"]');
    const alert = page.locator('.sharebar [role=alert]');
    await alert.waitFor({ timeout: 20_000 });
    assert.match(await alert.textContent(), /Cannot export Distribution SVG: .*views\.js/);
    // The next click retries: the same button downloads the file, made by the module.
    await browser.context.unroute('**/views.js*');
    if (!(await page.isVisible('button[data-export="Distribution SVG"]'))) await page.click('details.exports > summary');
    const [d] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.click('button[data-export="Distribution SVG"]'),
    ]);
    assert.match(d.suggestedFilename(), /distribution\.svg$/);
    assert.equal(await page.locator('.sharebar [role=alert]').count(), 0, 'the message went with the file');
  } finally {
    await browser.close();
  }
});

// Issue 26: the first answer's task asked for the module (the sweep's mount), and starting
// the import was 6 ms of it. boot.js starts a first import after the next frame instead.
test("the views module's import starts after the frame that follows the call, not in the task that made it", async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    // No simulation worker: no run, so nothing on the page asks for the module but this test.
    await browser.context.route(/\/worker[^/]*$/, (r) => r.abort());
    const { page } = await open(browser.context, server.url);
    await page.waitForFunction(() => typeof window.schedscopeLazy === 'function');
    const [asked, frame, fetched] = await page.evaluate(async () => {
      const asked = performance.now();
      const loading = window.schedscopeLazy('views');
      // When the next frame's callbacks run (boot.js's, registered first, runs before this one).
      const frame = await new Promise((go) => requestAnimationFrame(() => go(performance.now())));
      await loading;
      const e = performance.getEntriesByType('resource').find((x) => new URL(x.name).pathname === '/views.js');
      return [asked, frame, e?.startTime];
    });
    assert.ok(fetched !== undefined, 'views.js was fetched');
    assert.ok(fetched >= frame, `views.js requested at ${fetched} ms, asked at ${asked} ms, before the frame at ${frame} ms`);
  } finally {
    await browser.close();
  }
});
