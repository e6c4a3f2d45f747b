// The page on a 390x844 phone (issue 29, item 5), in headless Chromium against dist/: the
// inspector's tables stack or scroll inside their own box (the third column was cut), the
// result line at the bottom steps aside while the figure it repeats is on screen, the
// whole-run strip reads as each CPU's busy level (it was a barcode), and the first view is a
// stretch the phone can show, kept out of the link until the reader moves it. Run by
// `./scripts/test e2e` or `node --test e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let server;
let browser;

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch({ width: 390, height: 844 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `path` and waits for the first run's figures and its timeline. */
async function app(path) {
  const { page, problems } = await open(browser.context, new URL(path, server.url).href);
  await page.waitForSelector('.status.ok', { timeout: 60_000 });
  await page.waitForFunction(() => / showing .+ of /.test(
    document.querySelector('.timeline canvas[role=img]')?.getAttribute('aria-label') ?? ''), null, { timeout: 30_000 });
  return { page, problems };
}

/** `X unit` as ns. */
function ns(text) {
  const scale = { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9 };
  const [n, u] = text.trim().split(/\s+/);
  return Number(n) * (scale[u] ?? 1);
}

/** The timeline's visible stretch and the run's length (ns), from its label. */
async function shown(page) {
  const label = await page.getAttribute('.timeline canvas[role=img]', 'aria-label');
  const m = label.match(/showing (.+?) to (.+?) of (.+?);/);
  assert.ok(m, label);
  return { t0: ns(m[1]), t1: ns(m[2]), end: ns(m[3]), label };
}

/** What in the inspector does not fit its box: cells past its right edge (unless their
 * table scrolls sideways inside the inspector), text cut inside a cell, a sideways scroll. */
function misfits(page) {
  return page.evaluate(() => {
    const ins = document.querySelector('.inspector');
    const box = ins.getBoundingClientRect();
    const out = [];
    if (ins.scrollWidth > ins.clientWidth + 1) out.push(`the whole inspector scrolls sideways (${ins.scrollWidth} > ${ins.clientWidth})`);
    if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
    for (const table of ins.querySelectorAll('table')) {
      const tr = table.getBoundingClientRect();
      if (tr.right > box.right + 0.5) out.push(`table.${table.className} ends at ${tr.right}, the inspector at ${box.right}`);
      const scrolls = getComputedStyle(table).overflowX !== 'visible' && table.scrollWidth > table.clientWidth;
      for (const cell of table.querySelectorAll('td, th')) {
        const r = cell.getBoundingClientRect();
        const what = `table.${table.className}: "${cell.textContent.slice(0, 32)}"`;
        if (!scrolls && r.right > box.right + 0.5) out.push(`${what} ends at ${r.right}`);
        if (cell.scrollWidth > cell.clientWidth + 1) out.push(`${what} is cut inside its cell`);
      }
    }
    return out;
  });
}

test('the inspector\'s tables fit a phone: they stack or scroll inside their own box', async () => {
  const { page, problems } = await app('/?v=1&preset=nohz-pipe&loops=2000');
  await page.focus('.timeline canvas[role=img]');
  for (let i = 0; i < 30; i++) await page.keyboard.press('+');
  const canvas = page.locator('.timeline canvas[role=img]');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const kind = () => page.evaluate(() => document.querySelector('.inspector [data-kind]')?.dataset.kind ?? null);
  let found = null;
  outer: for (let fy = 0.15; fy < 0.95; fy += 0.08) {
    for (let i = 1; i < 20; i++) {
      await page.mouse.click(box.x + (box.width * i) / 20, box.y + box.height * fy);
      if (await kind()) {
        found = await kind();
        break outer;
      }
    }
  }
  assert.ok(found, 'a click on the timeline opened a decision in the inspector');
  // Every kind of decision met while stepping through the spans with ] (the idle table's
  // three columns were the ones cut).
  const seen = new Set();
  await page.focus('.timeline canvas[role=img]');
  for (let step = 0; step < 60 && seen.size < 3; step++) {
    const k = await kind();
    if (k && !seen.has(k)) {
      seen.add(k);
      await page.waitForTimeout(100);
      assert.deepEqual(await misfits(page), [], `the ${k} inspector at 390 px`);
    }
    await page.keyboard.press(']');
    await page.waitForTimeout(50);
  }
  assert.ok(seen.has('idle'), `an idle entry was among the decisions seen (${[...seen]})`);
  assert.deepEqual(problems, []);
});

test('the result line steps aside while the metrics panel\'s main figure is on screen', async () => {
  const { page, problems } = await app('/?v=1&preset=intro');
  const line = page.locator('.result-line');
  // Closed, the Controls leave the figures in the first screen: nothing to repeat.
  await line.waitFor({ state: 'hidden', timeout: 5_000 });
  await page.click('details.drawer > summary');
  await page.evaluate(() => scrollTo(0, 0));
  // With Controls open the figures are far below: the line says the result.
  await line.waitFor({ state: 'visible', timeout: 5_000 });
  await page.evaluate(() => document.querySelector('section.metrics .metric.main').scrollIntoView({ block: 'center' }));
  await line.waitFor({ state: 'hidden', timeout: 5_000 });
  await page.evaluate(() => scrollTo(0, 0));
  await line.waitFor({ state: 'visible', timeout: 5_000 });
  assert.deepEqual(problems, []);
});

test('the whole-run strip shows each CPU\'s busy level, not a barcode', async () => {
  const { page, problems } = await app('/?v=1&preset=intro');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await page.waitForFunction(() => /showing 0 ns to (.+?) of \1;/.test(
    document.querySelector('.timeline canvas[role=img]').getAttribute('aria-label')), null, { timeout: 5_000 });
  await page.waitForTimeout(300);
  // The strip's ink (how dark each pixel column is, over its height) from the plot's left
  // edge (after the 52 px gutter) to its right: a barcode jumps between dark and light from
  // one pixel column to the next all along the run.
  const edges = await page.evaluate(() => {
    const c = document.querySelector('canvas.minimap');
    const { width, height } = c;
    const d = c.getContext('2d').getImageData(0, 0, width, height).data;
    const ink = [];
    for (let x = 56; x < width - 4; x++) {
      let sum = 0;
      for (let y = 2; y < height - 2; y++) {
        const i = (y * width + x) * 4;
        sum += (255 - Math.min(d[i], d[i + 1], d[i + 2])) / 255;
      }
      ink.push(sum / (height - 4));
    }
    let n = 0;
    for (let x = 1; x < ink.length; x++) if (Math.abs(ink[x] - ink[x - 1]) > 0.15) n++;
    return { n, columns: ink.length };
  });
  assert.ok(edges.n <= 4, `${edges.n} sharp edges in ${edges.columns} pixel columns of the whole-run strip`);
  assert.deepEqual(problems, []);
});

test('a phone opens at a stretch it can show, kept out of the link until the reader moves it', async () => {
  const { page, problems } = await app('/?v=1&preset=intro');
  const first = await shown(page);
  assert.ok(first.t1 - first.t0 < first.end / 2, `the first view is a stretch, not the whole run: ${first.label}`);
  assert.equal(first.t0, 0, 'from the run\'s start');
  await page.waitForTimeout(800);
  assert.doesNotMatch(await page.evaluate(() => location.search), /t0=/, 'the page\'s choice is not in the link');
  await page.focus('.timeline canvas[role=img]');
  await page.keyboard.press('+');
  await page.waitForFunction(() => /[?&]t0=[^&]+&t1=/.test(location.search), null, { timeout: 5_000 });
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await page.waitForFunction(() => !/[?&]t0=/.test(location.search), null, { timeout: 5_000 });
  const fit = await shown(page);
  assert.equal(fit.t1 - fit.t0, fit.end, `Fit shows the whole run: ${fit.label}`);
  assert.deepEqual(problems, []);
});
