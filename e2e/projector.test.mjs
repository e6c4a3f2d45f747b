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
  }, `showing ${before[0].replace('–', ' to ')}`, { timeout: 10_000 }).catch(() => {});
  const reopened = await shown(again.page);
  // The link rounds to a thousandth of the view: the labels agree to their printed precision.
  assert.deepEqual(reopened, before, `the link ${search} reopens A and B at ${before[0]}`);
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

test('at 960x540 the metrics are not cut', async () => {
  const { page, problems } = await app('/?v=1&preset=intro', { width: 960, height: 540 });
  const cut = await page.$$eval('.metrics [data-metric]', (els) => els
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 1)
    .map((e) => `${e.dataset.metric}: ${e.scrollWidth}/${e.clientWidth}, right ${e.getBoundingClientRect().right}`));
  assert.deepEqual(cut, [], 'metrics overflowing their box or the screen');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
  assert.deepEqual(problems, []);
  await page.close();
});
