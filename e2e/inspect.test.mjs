// The decision inspector (issue 15): click real spans on the timeline canvas and read the
// panel outside it. On nohz-pipe a run after a wakeup shows the latency split into parts
// that add up to the latency; on eevdf-vs-cfs a pick shows the runqueue with lag and
// deadlines and the chosen task is the rule's; on a 390x844 phone a TAP shows the span's
// details. Spans are found by clicking a grid of points on the zoomed-in canvas, as a
// person would, until the panel shows the kind of decision looked for.
//
// Needs dist/ (trunk build --release --offline); run with `node --test e2e/inspect.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const RUN_MS = 120_000;
let server;

before(async () => {
  server = await serve(DIST);
});
after(async () => {
  await server?.close();
});

async function ready(page) {
  await page.waitForFunction(() => {
    const m = document.querySelector('section.metrics');
    return m && m.getAttribute('aria-busy') === 'false' && document.querySelector('.timeline canvas[role=img]');
  }, null, { timeout: RUN_MS });
}

/** Zooms the canvas in by pressing + `n` times (keyboard focus on the canvas). */
async function zoomIn(page, n) {
  await page.focus('.timeline canvas[role=img]');
  for (let i = 0; i < n; i++) await page.keyboard.press('+');
}

/** Clicks (or taps) grid points on the canvas until `want()` holds in the page; returns its value. */
async function hunt(page, want, { tap = false, cols = 40 } = {}) {
  const box = await page.locator('.timeline canvas[role=img]').boundingBox();
  for (let fy = 0.15; fy < 0.95; fy += 0.08) {
    for (let i = 1; i < cols; i++) {
      const x = box.x + (box.width * i) / cols;
      const y = box.y + box.height * fy;
      if (tap) await page.touchscreen.tap(x, y);
      else await page.mouse.click(x, y);
      const got = await page.evaluate(want);
      if (got) return got;
    }
  }
  return null;
}

test('nohz-pipe: a clicked wakeup shows its latency parts, which add up', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=nohz-pipe&loops=2000", server.url).href);
    await ready(page);
    await zoomIn(page, 4); // 5x a press (issue 18): the view is then about a 600th of the run
    // The page keeps the run's first decisions (jobs::PAGE_DECISIONS): look at its start.
    await page.keyboard.press('Home');
    const got = await hunt(page, () => {
      const w = document.querySelector('.inspector .inspect-wake[data-latency-ns]');
      if (!w || Number(w.dataset.latencyNs) === 0) return null;
      const parts = [...w.querySelectorAll('.inspect-bar [data-part]')].map((d) => [d.dataset.part, Number(d.dataset.ns)]);
      return { latency: Number(w.dataset.latencyNs), parts, text: w.textContent };
    });
    assert.ok(got, 'some click landed on a run that follows a wakeup');
    const sum = got.parts.reduce((a, p) => a + p[1], 0);
    assert.equal(sum, got.latency, `parts ${JSON.stringify(got.parts)} add up to the latency`);
    assert.ok(got.parts.length >= 2, JSON.stringify(got.parts));
    assert.match(got.text, /select_task_rq/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('eevdf-vs-cfs: a clicked pick shows lag and deadlines, and the rule picked the chosen task', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=eevdf-vs-cfs", server.url).href);
    await ready(page);
    await zoomIn(page, 2);
    await page.keyboard.press('Home');
    const got = await hunt(page, () => {
      const p = document.querySelector('.inspector .inspect-pick');
      if (!p || p.querySelectorAll('tr[data-task]').length < 2) return null;
      return {
        chosen: p.dataset.chosen,
        rule: p.dataset.rulePick,
        lags: p.querySelectorAll('td.lag').length,
        deadlines: p.querySelectorAll('td.deadline').length,
        text: p.textContent,
      };
    });
    assert.ok(got, 'some click landed on a run picked from a queue of two or more');
    assert.equal(got.chosen, got.rule, 'the chosen task is what pick_eevdf picks');
    assert.ok(got.lags >= 2 && got.deadlines >= 2, JSON.stringify(got));
    assert.match(got.text, /earliest virtual deadline/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('phone: a tap on a span shows its details in the panel', { timeout: 300_000 }, async () => {
  const b = await launch({ width: 390, height: 844 }, { hasTouch: true, isMobile: true });
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=nohz-pipe&loops=2000", server.url).href);
    await ready(page);
    await page.locator('.timeline canvas[role=img]').scrollIntoViewIfNeeded();
    const got = await hunt(page, () => {
      const li = [...document.querySelectorAll('.inspector .inspect-details li')].map((l) => l.textContent);
      return li.length >= 3 ? li : null;
    }, { tap: true, cols: 12 });
    assert.ok(got, 'a tap selected a span');
    assert.match(got[0], /^CPU \d+: /);
    assert.match(got.join(' '), /duration/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});
