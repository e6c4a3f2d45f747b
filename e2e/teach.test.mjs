// Teaching and reading (issue 18) in headless Chromium against dist/: a link without v= shows
// no notice, the Experiments page is in the URL and Back returns to the explorer, a guided
// tour is walked (answer first, then the reveal), and a reveal.js deck embeds a single step.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = new URL('./out/', import.meta.url);
let server;
let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  server = await serve(DIST, 0, {
    '/hosts/': `${ROOT}/e2e/hosts`,
    '/vendor/reveal.js/': `${ROOT}/node_modules/reveal.js`,
  });
  browser = await launch({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const url = (path) => new URL(path, server.url).href;
const search = (page) => page.evaluate(() => location.search);

test('a hand-written link without v= shows no notice, in the embed or the full app', async () => {
  for (const path of ['/?embed=1&preset=intro', '/?preset=intro&hz=1000']) {
    const { page, problems } = await open(browser.context, url(path));
    await page.waitForSelector('canvas', { timeout: 30_000 });
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.notices').count(), 0, `${path}: ${await page.locator('.notices').textContent().catch(() => '')}`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('the Experiments page is in the URL, and Back returns to the explorer', async () => {
  const { page, problems } = await open(browser.context, url('/?v=1&preset=intro'));
  await page.waitForSelector('select[name=preset]', { timeout: 20_000 });
  await page.click('nav[aria-label=Views] button:has-text("Experiments")');
  await page.waitForSelector('.seeds-page');
  await page.waitForFunction(() => location.search.includes('view=seeds'));
  await page.goBack();
  await page.waitForSelector('select[name=preset]', { timeout: 10_000 });
  assert.equal(await page.locator('.seeds-page').count(), 0);
  assert.equal(await search(page), '?v=1&preset=intro');
  await page.goForward();
  await page.waitForSelector('.seeds-page', { timeout: 10_000 });
  // A preset change is an entry of its own; Back returns to the previous preset.
  await page.goBack();
  await page.waitForSelector('select[name=preset]');
  await page.selectOption('select[name=preset]', 'rr-kbuild');
  await page.waitForFunction(() => location.search.includes('preset=rr-kbuild'));
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('rr-kbuild'), null, { timeout: 10_000 });
  assert.equal(await page.locator('select[name=preset]').inputValue(), 'intro');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a tour: the figures wait for the answer, then the reveal explains; Next is a link and Back returns', async () => {
  const { page, problems } = await open(browser.context, url('/?preset=intro'));
  await page.waitForSelector('button.tour-start', { timeout: 20_000 });
  await page.click('button.tour-start');
  await page.waitForSelector('section.tour[data-step="1"]');
  await page.waitForFunction(() => location.search.includes('tour=intro'));
  assert.equal(await page.locator('section.metrics').count(), 0, 'figures hidden before the answer');
  assert.match(await page.textContent('.tour-question'), /HZ goes from 250 to 1000/);
  await page.click('button.tour-choice[data-choice="1"]');
  await page.waitForSelector('.tour-reveal .tour-verdict.right');
  assert.match(await page.textContent('.tour-explain'), /scheduler_tick/);
  await page.waitForSelector('.tour-figure[aria-busy=false]', { timeout: 60_000 });
  assert.match(await page.textContent('.tour-figure'), /Ticks: A 95 → B \d/);
  assert.equal(await page.locator('section.metrics').count(), 1, 'figures shown after the answer');
  await page.click('button.tour-next');
  await page.waitForSelector('section.tour[data-step="2"]');
  assert.ok((await search(page)).includes('step=2'));
  assert.equal(await page.locator('.tour-reveal').count(), 0, 'a new step asks again');
  // A number step: step 4 asks for the reprograms left without nohz.
  await page.goto(url('/?tour=intro&step=4'));
  await page.waitForSelector('section.tour[data-step="4"]');
  await page.fill('input[name=tour-number]', '3');
  await page.click('.tour-answer button[type=submit]');
  await page.waitForSelector('.tour-verdict.wrong');
  assert.match(await page.textContent('.tour-verdict'), /The answer: 0/);
  await page.goBack();
  await page.waitForSelector('section.tour[data-step="2"]', { timeout: 10_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a reveal.js deck embeds a single tour step: its question and timeline, answered in the slide', async () => {
  const { page, problems } = await open(browser.context, url('/hosts/tour-reveal.html'));
  await page.waitForFunction(() => window.Reveal?.isReady?.(), null, { timeout: 10_000 });
  const frame = await (await page.waitForSelector('iframe', { timeout: 20_000 })).contentFrame();
  await frame.waitForSelector('section.tour[data-step="3"]', { timeout: 30_000 });
  await frame.waitForSelector('canvas', { timeout: 30_000 });
  assert.equal(await frame.locator('aside.controls, .sharebar, .tour-nav').count(), 0, 'only the step');
  assert.match(await frame.textContent('.tour-question'), /C-states off/);
  await frame.click('button.tour-choice[data-choice="0"]');
  await frame.waitForSelector('.tour-verdict.right');
  await frame.waitForSelector('.tour-figure[aria-busy=false]', { timeout: 60_000 });
  assert.match(await frame.textContent('.tour-figure'), /Wakeup latency p99: A .* → B /);
  await page.screenshot({ path: fileURLToPath(new URL('tour-reveal.png', OUT)) });
  assert.deepEqual(problems, []);
  await page.close();
});

test('linked A/B: zooming A zooms B to the same window; unlinked, B stays', async () => {
  const { page, problems } = await open(browser.context, url('/?v=1&preset=intro&compare=1&b.hz=1000'));
  await page.waitForSelector('input[name=link-axes]', { timeout: 30_000 });
  await page.waitForSelector('.status.ok', { timeout: 60_000 });
  const windows = () => page.$$eval('canvas[role=img]', (cs) => cs.map((c) => (c.getAttribute('aria-label').match(/showing (.*?) of/) ?? [])[1]));
  const zoomA = page.locator('.timeline button[aria-label="Zoom in"]').first();
  await zoomA.click();
  await zoomA.click();
  await page.waitForTimeout(400);
  const [a, b] = await windows();
  assert.ok(a && a === b, `A and B show one window: ${a} / ${b}`);
  await page.uncheck('input[name=link-axes]');
  await zoomA.click();
  await page.waitForTimeout(400);
  const [a2, b2] = await windows();
  assert.notEqual(a2, b2, 'unlinked, B keeps its window');
  assert.equal(b2, b);
  assert.deepEqual(problems, []);
  await page.close();
});

/** The window a timeline canvas says it shows, in ns: [from, to, end]. */
async function shownWindow(page, nth = 0) {
  const label = await page.locator('.timeline canvas[role=img]').nth(nth).getAttribute('aria-label');
  const m = label.match(/showing (.*?) to (.*?) of (.*?);/);
  assert.ok(m, label);
  const ns = (t) => {
    const [, v, u] = t.trim().match(/^([\d.,]+)\s*(ns|µs|ms|s)$/) ?? [];
    assert.ok(v, `a time: ${t}`);
    return Number(v.replaceAll(',', '')) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[u];
  };
  return [ns(m[1]), ns(m[2]), ns(m[3])];
}

test('drag-to-zoom, the minimap and "zoom to selection" reach a single wakeup in a few steps', { timeout: 300_000 }, async () => {
  const { page, problems } = await open(browser.context, url('/?v=1&preset=nohz-pipe&loops=2000'));
  await page.waitForSelector('.status.ok', { timeout: 60_000 });
  const canvas = page.locator('.timeline canvas[role=img]:not(.counters)');
  // The mouse acts where the canvas is on screen: bring it into view first.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const [f0, f1, end] = await shownWindow(page);
  assert.equal(f0, 0);
  // Shift-drag across the second quarter of the plot (right of the 52 px gutter).
  const plotX = (f) => box.x + 52 + (box.width - 52) * f;
  const y = box.y + box.height / 2;
  await page.keyboard.down('Shift');
  await page.mouse.move(plotX(0.25), y);
  await page.mouse.down();
  await page.mouse.move(plotX(0.4), y, { steps: 4 });
  await page.mouse.move(plotX(0.5), y, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForTimeout(300);
  const [d0, d1] = await shownWindow(page);
  const len = f1 - f0;
  assert.ok(Math.abs(d0 - len * 0.25) < len * 0.01 && Math.abs(d1 - len * 0.5) < len * 0.01, `zoomed to the dragged quarter: ${d0}..${d1} of ${len}`);
  // The minimap is the whole run: a click at 60% of it centres the view there.
  await page.locator('.timeline canvas.minimap').scrollIntoViewIfNeeded();
  const mini = await page.locator('.timeline canvas.minimap').boundingBox();
  assert.ok(mini && mini.height > 10, 'a minimap under the lanes');
  await page.mouse.click(mini.x + 52 + (mini.width - 52) * 0.6, mini.y + mini.height / 2);
  await page.waitForTimeout(300);
  const [m0, m1] = await shownWindow(page);
  assert.ok(Math.abs((m0 + m1) / 2 - end * 0.6) < end * 0.02 && Math.abs(m1 - m0 - (d1 - d0)) < (d1 - d0) * 0.01, `centred at 60%, same zoom: ${m0}..${m1} (end ${end}, dragged ${d0}..${d1})`);
  // Zoom in a little, select a run that follows a wakeup, and zoom to it.
  await page.focus('.timeline canvas[role=img]');
  await page.keyboard.press('Home');
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await page.keyboard.press('Home');
  await canvas.scrollIntoViewIfNeeded();
  const box2 = await canvas.boundingBox();
  let found = false;
  outer: for (let fy = 0.1; fy < 0.9; fy += 0.08) {
    for (let i = 1; i < 40; i++) {
      await page.mouse.click(box2.x + 52 + ((box2.width - 52) * i) / 40, box2.y + box2.height * fy);
      if (await page.$('.inspector .inspect-wake[data-latency-ns]')) { found = true; break outer; }
    }
  }
  assert.ok(found, 'a click selected a woken run');
  const latency = Number(await page.getAttribute('.inspector .inspect-wake[data-latency-ns]', 'data-latency-ns'));
  await page.click('button.zoom-to');
  await page.waitForTimeout(300);
  const [z0, z1] = await shownWindow(page);
  // The window is the wakeup to the run's start (its latency), a little of the run, and a
  // quarter either side: at most about 3x the latency (2 µs at least).
  assert.ok(z1 - z0 <= 3 * Math.max(latency, 2000) + 10 && z1 - z0 < (d1 - d0) / 10, `zoomed to the wakeup: ${z1 - z0} ns shown for a ${latency} ns latency`);
  assert.ok(z1 - z0 >= Math.min(latency, 2000), `the whole latency (${latency} ns) fits: ${z1 - z0} ns`);
  assert.deepEqual(problems, []);
  await page.close();
});
