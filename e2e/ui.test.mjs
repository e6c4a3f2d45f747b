// The web UI as a person uses it (issue 5), in headless Chromium against the built site:
// choose the rr-kbuild preset, move rr_interval with the keyboard, and see the figures and
// the sweep plot follow; the timeline canvas is drawn; no console error and no CSP
// violation; at 390x844 nothing overflows horizontally. Real waits throughout: the worker
// simulates in real time.
//
// Needs dist/ (trunk build --release --offline); run with `node --test e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const RUN_MS = 120_000; // one live run of a capped config, on a busy 2-core machine
let server;

before(async () => {
  server = await serve(DIST);
});
after(async () => {
  await server?.close();
});

/** Records Content-Security-Policy violations (they also log a console error). */
async function watchCsp(context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
}

/** The generation of the figures on screen (the metrics panel's data-gen), or 0. */
async function shownGen(page) {
  return Number((await page.getAttribute('section.metrics', 'data-gen')) ?? 0);
}

/**
 * Waits until the figures belong to a config newer than generation `after` and nothing newer
 * is being simulated (aria-busy=false), then returns the new generation.
 */
async function freshFigures(page, after) {
  await page.waitForFunction(
    (g) => {
      const m = document.querySelector('section.metrics');
      return m && m.getAttribute('aria-busy') === 'false' && Number(m.dataset.gen ?? 0) > g;
    },
    after,
    { timeout: RUN_MS },
  );
  return shownGen(page);
}

async function figures(page) {
  return page.evaluate(() => {
    const text = (sel) => document.querySelector(sel)?.textContent.trim() ?? null;
    const sweep = document.querySelector('figure.plot.sweep');
    return {
      throughput: text('[data-metric=throughput] dd'),
      switches: text('[data-metric=context_switches] dd'),
      knob: document.querySelector('input[name=rr_interval]')?.getAttribute('aria-valuetext'),
      exact: document.querySelector('input[name=rr_interval-text]')?.value,
      sweepKey: sweep?.dataset.sweepKey,
      marker: sweep?.querySelector('line.marker')?.getAttribute('x1'),
      xLabel: sweep?.querySelector('svg > text.label')?.textContent,
    };
  });
}

/** Parses a displayed count like `12,345`. */
const count = (s) => Number(String(s).replace(/[^0-9.]/g, ''));

/** Presses `key` on the focused slider and waits for the figures of the new value. */
async function press(page, key) {
  const before = await shownGen(page);
  await page.keyboard.press(key);
  await freshFigures(page, before);
  return figures(page);
}

test('rr-kbuild: rr_interval moved by keyboard changes the figures and the sweep plot', async (t) => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await watchCsp(browser.context);
    const { page, problems } = await open(browser.context, server.url);
    await freshFigures(page, 0);

    let gen = await shownGen(page);
    await page.selectOption('select[name=preset]', 'rr-kbuild');
    gen = await freshFigures(page, gen);
    assert.equal(await page.inputValue('select[name=kernel]'), '2.6.21-sd', 'rr-kbuild runs the SD scheduler (its 2.6.21 patch)');
    // The sweep panel is drawn by the views module, loaded after the first figure.
    await page.waitForSelector('figure.plot.sweep[data-sweep-key=rr_interval]', { timeout: RUN_MS });
    const start = await figures(page);
    assert.equal(start.sweepKey, 'rr_interval', 'the sweep follows SD’s main knob');
    assert.equal(start.exact, '16ms', 'the preset’s rr_interval');

    const slider = page.locator('input[name=rr_interval]');
    assert.equal(await slider.getAttribute('type'), 'range');
    assert.equal(await slider.isDisabled(), false, 'rr_interval applies to SD');
    await slider.focus();

    const top = await press(page, 'End');
    assert.equal(top.exact, '10s', 'End goes to the top of the range');
    const bottom = await press(page, 'Home');
    assert.equal(bottom.exact, '100us', 'Home goes to the bottom of the range');
    // A 100 us quantum forces far more switches than a 10 s one (issue 5's mechanism).
    assert.ok(
      count(bottom.switches) > count(top.switches),
      `context switches: ${bottom.switches} at 100us vs ${top.switches} at 10s`,
    );
    t.diagnostic(`rr_interval 10s: ${JSON.stringify(top)}`);
    t.diagnostic(`rr_interval 100us: ${JSON.stringify(bottom)}`);
    assert.notEqual(bottom.throughput, top.throughput, 'the result moves with rr_interval');
    assert.notEqual(bottom.marker, top.marker, 'the sweep marker moves with the knob');
    assert.notEqual(bottom.xLabel, top.xLabel, 'the sweep axis names the current value');

    // Each arrow press changes the value (log-scale rounding never leaves the thumb stuck).
    let prev = bottom;
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowUp']) {
      const next = await press(page, key);
      assert.notEqual(next.exact, prev.exact, `${key} from ${prev.exact}`);
      assert.notEqual(next.marker, prev.marker, `${key} moves the sweep marker`);
      prev = next;
    }
    const back = await press(page, 'ArrowLeft');
    assert.notEqual(back.exact, prev.exact, 'ArrowLeft steps down');

    // The sweep fills in: every point has a value and the curve is drawn.
    await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, {
      timeout: 4 * RUN_MS,
    });
    const sweep = await page.evaluate(() => ({
      done: document.querySelectorAll('figure.plot.sweep circle:not(.pending)').length,
      path: document.querySelector('figure.plot.sweep path.curve')?.getAttribute('d') ?? '',
    }));
    assert.ok(sweep.done >= 16, `${sweep.done} sweep points`);
    assert.ok(sweep.path.split('L').length >= 16, 'the curve joins the points');

    // The timeline canvas shows something: many pixels off the background, several colours.
    const pixels = await page.evaluate(() => {
      const c = document.querySelector('.timeline-canvas-box canvas');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const counts = new Map();
      for (let i = 0; i < d.length; i += 4 * 7) {
        const k = ((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const bg = Math.max(...counts.values());
      return { w: c.width, h: c.height, colours: counts.size, drawn: 1 - bg / total };
    });
    t.diagnostic(`timeline canvas: ${JSON.stringify(pixels)}; sweep points: ${sweep.done}`);
    assert.ok(pixels.w > 0 && pixels.h > 0, 'the canvas has a size');
    assert.ok(pixels.colours >= 6, `only ${pixels.colours} colours on the timeline`);
    assert.ok(pixels.drawn > 0.05, `only ${(pixels.drawn * 100).toFixed(1)}% of the timeline is drawn`);

    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'CSP violations');
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('at 390x844 nothing overflows horizontally (explore, rr-kbuild, seed tables)', async () => {
  const browser = await launch({ width: 390, height: 844 });
  try {
    await watchCsp(browser.context);
    const { page, problems } = await open(browser.context, server.url);
    const overflow = () =>
      page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: innerWidth,
        // Elements sticking out of the viewport, outside any scrolling container.
        out: [...document.querySelectorAll('body *')]
          .filter((e) => {
            const r = e.getBoundingClientRect();
            if (r.width === 0 || r.right <= innerWidth + 0.5) return false;
            for (let p = e.parentElement; p; p = p.parentElement) {
              const o = getComputedStyle(p).overflowX;
              if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
            }
            return true;
          })
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`),
      }));
    const check = async (what) => {
      const o = await overflow();
      assert.ok(o.scroll <= o.inner, `${what}: page is ${o.scroll}px wide in a ${o.inner}px viewport`);
      assert.deepEqual(o.out, [], `${what}: elements past the right edge`);
    };

    let gen = await freshFigures(page, 0);
    await check('first load');
    // The controls are a closed drawer on a phone; open it like a person would.
    await page.getByText('Controls', { exact: true }).click();
    await page.selectOption('select[name=preset]', 'rr-kbuild');
    gen = await freshFigures(page, gen);
    await check('rr-kbuild with the controls open');

    await page.getByRole('button', { name: 'Experiments' }).click();
    await page.waitForSelector('.seed table', { timeout: 3 * RUN_MS });
    await check('seed experiments');
    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'CSP violations');
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('the timeline canvas follows the colour scheme', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await open(browser.context, server.url);
    await freshFigures(page, 0);
    // The canvas's own background pixel (top-left, inside the gutter).
    const corner = () =>
      page.evaluate(() => {
        const c = document.querySelector('.timeline canvas');
        return [...c.getContext('2d').getImageData(1, 1, 1, 1).data.slice(0, 3)];
      });
    const nextFrames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await nextFrames();
    const light = await corner();
    await page.emulateMedia({ colorScheme: 'dark' });
    // The scheme is read when a frame is drawn: nudge one (a wheel notch over the canvas).
    // (The minimap is a second canvas: name the timeline's own; bring it on screen first.)
    await page.locator('.timeline canvas[role=img]').scrollIntoViewIfNeeded();
    const box = await page.locator('.timeline canvas[role=img]').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100);
    await nextFrames();
    const dark = await corner();
    const lum = (rgb) => rgb[0] + rgb[1] + rgb[2];
    assert.ok(lum(light) > 600, `light scheme: a light canvas (${light})`);
    assert.ok(lum(dark) < 200, `dark scheme: a dark canvas (${dark})`);
    // This test's own two getImageData reads make Chromium suggest willReadFrequently; the
    // page never reads its canvas back.
    const own = (p) => p.startsWith('console warning: Canvas2D: Multiple readback operations');
    assert.deepEqual(problems.filter((p) => !own(p)), [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

test('finding things: workload and kernel first, unused knobs one click away, a skip link, the imports together (issue 29 item 8)', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const { page, problems } = await open(browser.context, server.url);
    await freshFigures(page, 0);
    const keys = () => page.evaluate(() => [...document.querySelectorAll('aside.controls [data-key]')].map((e) => e.dataset.key));
    const listed = await keys();
    assert.equal(listed[0], 'workload', `the first knob is the workload: ${listed.slice(0, 5)}`);
    assert.ok(listed.indexOf('kernel') < listed.indexOf('cpu'), `the kernel before the machine: ${listed.slice(0, 12)}`);
    assert.ok(!listed.includes('rr_interval') && !listed.includes('groups'), 'SD and hackbench knobs are not listed for rtapp on CFS');

    // One click lists them, disabled and saying why.
    await page.getByRole('button', { name: /^Show the \d+ knobs that do not apply$/ }).click();
    const rr = page.locator('input[name=rr_interval]');
    assert.equal(await rr.isDisabled(), true);
    assert.match(await page.textContent('[data-key=rr_interval] .note'), /not used by CFS/);
    await page.getByRole('button', { name: /^Hide the \d+ knobs/ }).click();
    assert.equal(await rr.count(), 0);

    // Tab stops before "Pin as A": few without the skip link, two with it.
    const pinReached = async (max) => {
      await page.evaluate(() => document.activeElement?.blur());
      await page.mouse.click(5, 5);
      for (let i = 1; i <= max; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => document.activeElement?.textContent === 'Pin as A')) return i;
      }
      return Infinity;
    };
    const stops = await pinReached(80);
    assert.ok(stops <= 48, `${stops} tab stops before Pin as A (64 listed every knob, 68 with the skip link before the sched_features folded)`);
    await page.mouse.click(5, 5);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the results');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Pin as A', 'skip link, then Pin as A');

    // Both imports sit in the share bar.
    const bar = await page.evaluate(() => document.querySelector('.sharebar').textContent);
    assert.match(bar, /Import rt-app….*Import trace…/);
    assert.deepEqual(problems, [], 'console errors or failed requests');
  } finally {
    await browser.close();
  }
});

// The result line (a phone's main figure kept in view) is hidden on a desktop, and whether the
// figure it repeats is on screen was read there all the same: a layout forced by
// getBoundingClientRect in every task that rendered a knob's change or a result (issue 26's
// keyboard latency, BENCHMARKS "The result line's forced layout"). A desktop reads nothing;
// the phone's behaviour is e2e/phone.test.mjs's.
test('a desktop does not measure the metrics panel for the result line it never shows', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.addInitScript(() => {
      window.__measured = 0;
      const read = Element.prototype.getBoundingClientRect;
      Element.prototype.getBoundingClientRect = function () {
        if (this.matches('section.metrics, section.metrics .metric.main')) window.__measured++;
        return read.call(this);
      };
    });
    const { page, problems } = await open(browser.context, `${server.url}?v=1&preset=intro`);
    const gen = await freshFigures(page, 0);
    const slider = page.locator('input[type=range]:not([disabled])').first();
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await freshFigures(page, gen);
    assert.equal(await page.evaluate(() => window.__measured), 0, 'the metrics panel was measured');
    assert.equal(await page.getAttribute('.result-line', 'data-covered'), null);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
