// The page on a projector and in embeds (issue 29, item 6), in headless Chromium against
// dist/: the timeline's visible stretch is in the link (`t0`, `t1`: written on zoom, read on
// load, an A/B link reopens to the same stretch, a bad one is a notice), an embed that
// compares shows A over B, the timeline's lanes and labels grow on a wide screen, and the
// metrics fit a 960x540 projector. Run by `./scripts/test e2e` or `node --test e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let server;
let browser;

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const url = (path) => new URL(path, server.url).href;

/** Opens `path` at `size` and waits for the first run's figures. */
async function app(path, size) {
  const { page, problems } = await open(browser.context, url(path));
  if (size) await page.setViewportSize(size);
  await page.waitForSelector('.status.ok', { timeout: 60_000 });
  return { page, problems };
}

/** The `showing X to Y of Z` of each timeline canvas's label. */
async function shown(page) {
  const labels = await page.$$eval('.timeline canvas[role=img]', (cs) => cs.map((c) => c.getAttribute('aria-label')));
  return labels.map((l) => l.match(/showing (.+?) to (.+?) of /)?.slice(1, 3).join('–'));
}

/** `X unit–Y unit` (a label's stretch) as [ns, ns]. */
function ends(text) {
  const scale = { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9 };
  return text.split('–').map((t) => {
    const [n, u] = t.trim().split(/\s+/);
    return Number(n) * (scale[u] ?? 1);
  });
}

test('zoom and pan go into the link as t0 and t1, and an A/B link reopens to the same stretch', async () => {
  const { page, problems } = await app('/?v=1&preset=intro&compare=1&b.hz=1000');
  await page.waitForFunction(() => document.querySelectorAll('.timeline canvas[role=img]').length === 2, null,
    { timeout: 60_000 });
  assert.doesNotMatch(await page.evaluate(() => location.search), /t0=/, 'the whole run: no stretch in the link');
  await page.focus('.timeline canvas[role=img]');
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /[?&]t0=[^&]+&t1=/.test(location.search), null, { timeout: 5_000 });
  const search = await page.evaluate(() => location.search);
  assert.match(search, /compare=1&b\.hz=1000/, 'still the A/B link');
  const before = await shown(page);
  assert.equal(before[0], before[1], 'A and B on one axis');

  const again = await app(`/${search}`);
  await again.page.waitForFunction(() => document.querySelectorAll('.timeline canvas[role=img]').length === 2, null,
    { timeout: 60_000 });
  await again.page.waitForFunction((want) => {
    const ls = [...document.querySelectorAll('.timeline canvas[role=img]')].map((c) => c.getAttribute('aria-label'));
    return ls.length === 2 && ls.every((l) => l.includes(want));
  }, 'showing ', { timeout: 10_000 }).catch(() => {});
  await again.page.waitForTimeout(500);
  const reopened = await shown(again.page);
  // The link rounds to a thousandth of the view, the labels to their printed digits: the
  // ends agree within a hundredth of the view.
  const [b0, b1] = ends(before[0]);
  for (const r of reopened) {
    const [r0, r1] = ends(r);
    const tol = (b1 - b0) / 100;
    assert.ok(Math.abs(r0 - b0) <= tol && Math.abs(r1 - b1) <= tol, `the link ${search} reopens at ${r}, not ${before[0]}`);
  }
  assert.equal(await again.page.evaluate(() => location.search), search, 'and writes the same link back');
  assert.deepEqual([...problems, ...again.problems], []);
  await page.close();
  await again.page.close();
});

test('a bad stretch in a link is a notice and the whole run, never a failure', async () => {
  for (const q of ['t0=5ms', 't0=9ms&t1=2ms', 't0=abc&t1=4ms']) {
    const { page, problems } = await app(`/?v=1&preset=intro&${q}`);
    assert.match(await page.textContent('.notices'), /whole run/, q);
    const [view] = await shown(page);
    assert.match(view, /^0(\.0+)? ?[a-zµ]*s?–/, `${q}: the view starts at 0 (${view})`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('a tour embed whose question compares A and B shows both timelines, stacked', async () => {
  const { page, problems } = await open(browser.context, url('/?tour=intro&step=1&embed=1'));
  await page.waitForFunction(() => document.querySelectorAll('.embed .timeline canvas[role=img]').length === 2, null,
    { timeout: 60_000 });
  const labels = await page.$$eval('.embed .timeline canvas[role=img]', (cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.match(labels[0], /^A: /);
  assert.match(labels[1], /^B: /);
  const [a, b] = await page.$$eval('.embed .timeline canvas[role=img]', (cs) => cs.map((c) => c.getBoundingClientRect().top));
  assert.ok(b > a, 'B under A');
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a 1920x1080 screen the timeline\'s lanes and labels are larger than at 1280x800', async () => {
  const heights = {};
  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    const { page, problems } = await app('/?v=1&preset=intro', size);
    await page.waitForTimeout(300);
    heights[size.width] = await page.$eval('.timeline canvas[role=img]', (c) => c.getBoundingClientRect().height);
    assert.deepEqual(problems, []);
    await page.close();
  }
  assert.ok(heights[1920] >= 1.25 * heights[1280], `canvas ${heights[1920]} px at 1920 against ${heights[1280]} at 1280`);
});

test('at 960x540 an embed of the timeline and the metrics shows both whole, without scrolling', async () => {
  const { page, problems } = await open(browser.context, url('/?v=1&preset=intro&embed=1'));
  await page.setViewportSize({ width: 960, height: 540 });
  await page.waitForSelector('.embed [data-view=metrics] [data-metric]', { timeout: 60_000 });
  await page.waitForSelector('.embed .timeline canvas[role=img]');
  await page.waitForTimeout(300);
  const r = await page.evaluate(() => ({
    bottom: document.querySelector('.embed [data-view=metrics]').getBoundingClientRect().bottom,
    wide: document.querySelector('.embed').scrollWidth,
  }));
  assert.ok(r.bottom <= 540, `the metrics end at ${r.bottom} px, below the 540-px slide`);
  assert.ok(r.wide <= 960, `no sideways scroll (${r.wide} px wide)`);
  assert.deepEqual(problems, []);
  await page.close();
});
