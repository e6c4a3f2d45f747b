// The decision inspector (issue 15): click real spans on the timeline canvas and read the
// panel outside it. On nohz-pipe a run after a wakeup shows the latency split into parts
// that add up to the latency; on eevdf-vs-cfs a pick shows the runqueue with lag and
// deadlines and the chosen task is the rule's; on a 390x844 phone a TAP shows the span's
// details. Spans are found by clicking a grid of points on the zoomed-in canvas, as a
// person would, until the panel shows the kind of decision looked for.
//
// Late in a run, past the records the page keeps, a clicked wakeup's records come on demand
// (the run simulated again around it) and still add up. "Compare menu / teo / ladder" shows
// three rows whose numbers are the CLI's `run --set governor=X --json`. The Counters toggle
// adds the counter tracks under the lanes.
//
// Needs dist/ (trunk build --release --offline) and the CLI (e2e/cli.mjs: the binary
// `cargo test` builds, or SCHEDSCOPE_BIN); run with `node --test e2e/inspect.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve } from './serve.mjs';
import { cliBinary } from './cli.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let CLI; // cliBinary() (e2e/cli.mjs), in `before`
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
  await page.focus('.timeline canvas[role=img]:not(.counters)');
  for (let i = 0; i < n; i++) await page.keyboard.press('+');
}

/**
 * Clicks (or taps) grid points on the canvas until `want()` holds in the page; returns its
 * value. After each click, a panel still "Finding the decisions…" is waited for.
 */
async function hunt(page, want, { tap = false, cols = 40, dy = 0.08 } = {}) {
  const box = await page.locator('.timeline canvas[role=img]:not(.counters)').boundingBox();
  for (let fy = 0.15; fy < 0.95; fy += dy) {
    for (let i = 1; i < cols; i++) {
      const x = box.x + (box.width * i) / cols;
      const y = box.y + box.height * fy;
      if (tap) await page.touchscreen.tap(x, y);
      else await page.mouse.click(x, y);
      await page.waitForFunction(() => !document.querySelector('.inspector .inspect-finding'), null, { timeout: RUN_MS });
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

// Issue 29: reaching a wakeup took 31 presses of `]`. A latency figure is a button: p99 and
// the max under it open the wakeup with that latency in the inspector, the view zoomed to it.
test('nohz-pipe: clicking p99 or max opens that wakeup in the inspector', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=nohz-pipe&loops=300", server.url).href);
    await ready(page);
    for (const key of ['wakeup_latency_max', 'wakeup_latency_p99']) {
      const fig = page.locator(`[data-metric="${key}"] button.open-wakeup`).first();
      const us = Number((await fig.textContent()).replace(/,/g, ''));
      const unit = await page.locator(`[data-metric="${key}"] .u`).first().textContent();
      const want = us * (unit.includes('ms') ? 1e6 : unit.includes('µs') ? 1e3 : 1);
      await fig.click();
      await page.waitForSelector('.inspector .inspect-wake[data-latency-ns]', { timeout: RUN_MS });
      const got = Number(await page.locator('.inspector .inspect-wake').first().getAttribute('data-latency-ns'));
      const notice = await page.evaluate(() => document.body.innerText.includes('Opened the nearest wakeup'));
      // Exactly that wakeup (the worker finds it): within the histogram's bucket, no notice.
      assert.ok(!notice, `${key}: no notice`);
      assert.ok(Math.abs(got - want) <= want * (1 / 64 + 0.006) + 500, `${key}: ${got} ns for ${want} ns`);
      await page.click('.inspector button[aria-label="Close the inspector"]');
    }
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

// Issue 29: the p99 opened the nearest wakeup the page kept records for. On a busy run those
// stop at ~3 ms of 30, and the wakeup opened was not the p99's (a notice said so). Now the
// worker finds the wakeup of the figure's rank (`Request::Wakeup`), the page loads the
// stretch of the timeline that holds its run, and the inspector explains it: its latency
// is the figure's (within the histogram's bucket, 1/64 of an octave, and the figure's
// rounding), its parts add up, no notice.
// Its p99 wakeup is a receiver woken by the parent's kick that finds its socket empty: that
// look (`unix_stream_read_generic` -> `unix_stream_data_wait`) is a burst of its own before
// it sleeps again (workload/hackbench.rs, EMPTY READ), so the run has a span to open. It was
// a todo while the engine blocked such a read in 0 ns.
test('busy run: p99 and max open exactly their wakeup, past the records the page keeps', { timeout: 400_000 }, async () => {
  const b = await launch();
  try {
    // The preset with 6.6.0's pick (pick_eevdf_v1=off): the run this case was set on.
    const { page, problems } = await open(b.context, new URL('/?v=1&preset=messaging-run-to-parity&duration=30ms&pick_eevdf_v1=off', server.url).href);
    await ready(page);
    for (const key of ['wakeup_latency_p99', 'wakeup_latency_max']) {
      const fig = page.locator(`section.metrics [data-metric="${key}"] button.open-wakeup`).first();
      const us = Number((await fig.textContent()).replace(/,/g, ''));
      const unit = await page.locator(`section.metrics [data-metric="${key}"] .u`).first().textContent();
      const want = us * (unit.includes('ms') ? 1e6 : unit.includes('µs') ? 1e3 : 1);
      await fig.click();
      await page.waitForSelector('.inspector .inspect-wake[data-latency-ns]', { timeout: RUN_MS });
      const wake = page.locator('.inspector .inspect-wake').first();
      const got = Number(await wake.getAttribute('data-latency-ns'));
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(!text.includes('Opened the nearest wakeup'), `${key}: no notice`);
      assert.ok(Math.abs(got - want) <= want * (1 / 64 + 0.006), `${key}: ${got} ns for ${want} ns`);
      const parts = (await wake.locator('.inspect-parts td.ns').evaluateAll((els) => els.map((e) => Number(e.dataset.ns))));
      assert.equal(parts.reduce((x, y) => x + y, 0), got, `${key}: the parts add up`);
      // It stays open: the view moved to it stays inside the stretch loaded for it (a view
      // past it asked for another stretch, whose arrival cleared the selection).
      await page.waitForTimeout(3000);
      assert.equal(await page.locator('.inspector .inspect-wake').count(), 1, `${key}: still open`);
      await page.click('.inspector button[aria-label="Close the inspector"]');
    }
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

// Issue 29: a selection asked from outside (a latency figure) reached B's timeline only.
// In A/B compare, A's latency figures in the table open A's wakeup on A's timeline.
test('A/B compare: A\'s p99 in the table opens A\'s wakeup on A\'s timeline', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context,
      new URL('/?v=1&preset=nohz-pipe&loops=300&compare=1&b.nohz_exit_reprograms=1', server.url).href);
    await ready(page);
    const cell = page.locator('td.a[data-metric="wakeup_latency_p99"] button.open-wakeup');
    await cell.waitFor({ timeout: RUN_MS });
    await cell.click();
    const a = page.locator('.timeline:has(canvas[aria-label^="A:"])');
    await a.locator('.inspector .inspect-wake[data-latency-ns]').waitFor({ timeout: RUN_MS });
    const got = Number(await a.locator('.inspector .inspect-wake').first().getAttribute('data-latency-ns'));
    const want = Number(await page.locator('td.a[data-metric="wakeup_latency_p99"]').getAttribute('data-value')) * 1e3;
    const notice = await page.evaluate(() => document.body.innerText.includes('Opened the nearest wakeup'));
    assert.ok(notice || Math.abs(got - want) <= Math.max(want * 0.01, 500), `A: ${got} ns for ${want} ns`);
    const bSide = page.locator('.timeline:has(canvas[aria-label^="B:"])');
    assert.equal(await bSide.locator('.inspector .inspect-wake').count(), 0, "B's timeline is left alone");
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

test('nohz-pipe late in the run: a clicked wakeup gets its records on demand, and its parts add up', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=nohz-pipe&loops=2000", server.url).href);
    await ready(page);
    await zoomIn(page, 4);
    // The end of the run: far past the first decisions the page keeps (jobs::PAGE_DECISIONS).
    await page.keyboard.press('End');
    await page.evaluate(() => {
      window.__sawFinding = false;
      new MutationObserver(() => {
        if (document.querySelector('.inspector .inspect-finding')) window.__sawFinding = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    const got = await hunt(page, () => {
      const w = document.querySelector('.inspector .inspect-wake[data-latency-ns]');
      if (!w || Number(w.dataset.latencyNs) === 0) return null;
      const parts = [...w.querySelectorAll('.inspect-bar [data-part]')].map((d) => [d.dataset.part, Number(d.dataset.ns)]);
      const fetched = !!document.querySelector('.inspector .inspect-note');
      return { latency: Number(w.dataset.latencyNs), parts, fetched, text: w.textContent };
    });
    assert.ok(got, 'some click at the end of the run landed on a run that follows a wakeup');
    assert.ok(got.fetched, 'its records came on demand (the page holds none that late)');
    const sum = got.parts.reduce((a, p) => a + p[1], 0);
    assert.equal(sum, got.latency, `parts ${JSON.stringify(got.parts)} add up to the latency`);
    assert.ok(got.parts.length >= 2, JSON.stringify(got.parts));
    assert.match(got.text, /select_task_rq/);
    const saw = await page.evaluate(() => window.__sawFinding);
    assert.ok(saw, 'the panel said "Finding the decisions…" while the worker simulated');
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('token-governors: one click compares menu, teo and ladder, with the CLI\'s figures', { timeout: 300_000 }, async () => {
  CLI = cliBinary();
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=token-governors", server.url).href);
    await ready(page);
    await page.getByRole('button', { name: 'Compare menu / teo / ladder on this run' }).click();
    await page.waitForSelector('table.gov-table[data-done=true]', { timeout: RUN_MS });
    const rows = await page.evaluate(() => [...document.querySelectorAll('table.gov-table tbody tr')].map((tr) => ({
      governor: tr.dataset.governor,
      v: [...tr.querySelectorAll('td[data-v]')].map((td) => Number(td.dataset.v)),
    })));
    assert.deepEqual(rows.map((r) => r.governor), ['menu', 'teo', 'ladder']);
    for (const r of rows) {
      const out = execFileSync(CLI, ['run', '--preset', 'token-governors', '--set', `governor=${r.governor}`, '--json'],
        { encoding: 'utf8', maxBuffer: 1 << 26 });
      const m = JSON.parse(out).metrics;
      const g = m.governor_score;
      const want = [g.right, g.too_deep, g.too_shallow, g.miss_latency_us, g.miss_energy_mj, m.energy_j, m.throughput];
      assert.equal(r.v.length, want.length, JSON.stringify(r));
      assert.deepEqual(r.v.slice(0, 3), want.slice(0, 3), `${r.governor}: right / too deep / too shallow`);
      for (let i = 3; i < want.length; i++) {
        const tol = Math.abs(want[i]) * 1e-9;
        assert.ok(Math.abs(r.v[i] - want[i]) <= tol, `${r.governor} column ${i}: page ${r.v[i]} vs CLI ${want[i]}`);
      }
    }
    // menu and teo may pick equally often right and differ in what their misses cost; ladder
    // picks differently.
    assert.notDeepEqual(rows[0].v, rows[1].v, 'menu and teo differ on this run');
    assert.ok(rows[2].v[0] !== rows[0].v[0], 'ladder is right a different number of times than menu');
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('counter tracks: the toolbar toggle adds labelled tracks under the lanes', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL("/?v=1&preset=nohz-pipe&loops=2000", server.url).href);
    await ready(page);
    const before = (await page.locator('.timeline').first().boundingBox()).height;
    await page.getByRole('button', { name: 'Counters' }).click();
    await page.waitForSelector('canvas.counters', { timeout: 30_000 });
    await page.waitForFunction(() => {
      const c = document.querySelector('canvas.counters');
      if (!c || c.width === 0) return false;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let i = 0; i < d.length; i += 4 * 97) colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      return colours.size >= 4;
    }, null, { timeout: 30_000 });
    const after = (await page.locator('.timeline').first().boundingBox()).height;
    assert.ok(after > before + 100, `the timeline grew: ${before} -> ${after}`);
    const legend = await page.locator('ul.counter-legend').textContent();
    for (const w of ['nr_running', 'avg_idle', 'C-state', 'vruntime']) assert.match(legend, new RegExp(w));
    assert.equal(await page.getByRole('button', { name: 'Counters' }).getAttribute('aria-pressed'), 'true');
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

// Issue 31: why a task moved. A click on a run after a migration shows the move's path as
// the kernel names it; the CLI's `run --explain` at that instant prints the same move.
test('hackbench on 16 Zen 3 CPUs: a run after a migration says why the task moved, as the CLI does', { timeout: 300_000 }, async () => {
  CLI = cliBinary();
  const sets = ['cpu=zen3-2s', 'cores=16', 'workload=hackbench', 'groups=2', 'duration=20ms'];
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL(`/?v=1&${sets.join('&')}`, server.url).href);
    await ready(page);
    await zoomIn(page, 2);
    // The view is then 0.8 ms. The page keeps the run's first decisions (jobs::PAGE_DECISIONS),
    // so look early: views from 0.24 ms on, a few tenths apart, until a click lands on the
    // first run of a task after its move (the clicks sample the lanes, so one view may miss).
    let got = null;
    for (const steps of [3, 8, 13, 17, 21, 25]) {
      await page.keyboard.press('Home');
      for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
      // 16 lanes: a row of clicks every half lane.
      got = await hunt(page, () => {
        const m = document.querySelector('.inspector .inspect-move');
        return m && { cause: m.dataset.cause, head: m.querySelector('h4').textContent };
      }, { dy: 0.025 });
      if (got) break;
    }
    assert.ok(got, 'some click landed on a run after a migration');
    const [, from, to, at, cause] = got.head.match(/moved CPU (\d+) → CPU (\d+) at ([\d.]+) µs \((\w+)\)/) ?? [];
    assert.equal(cause, got.cause, got.head);
    // The page starts from the intro preset (its default) and applies the address's keys.
    const args = ['run', '--preset', 'intro', ...sets.flatMap((s) => ['--set', s]), '--explain', `${at}us`];
    const out = execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.ok(out.includes(`@ ${at} us`) && out.includes(`CPU ${from} -> CPU ${to} (${cause})`), `${got.head}\n${out}`);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});
