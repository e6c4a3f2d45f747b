// Browser soak (issue 8): for N minutes, does what a restless person does to the page —
// drags random sliders with the keyboard and the mouse, switches presets and tabs, toggles
// checkboxes, pins and unpins — and records every console error and the JS heap.
//
//   SOAK_MINUTES=10 node e2e/soak.mjs        (default 10 minutes; SOAK_SEED picks the actions;
//                                             ./scripts/bench runs it and records the figures)
//   import { soak } from './soak.mjs'        (e2e/soak.test.mjs runs a fixed number of actions:
//                                             no console error, the page still answers)
//
// Passes with zero console errors and JS heap growth under 10% between the first and the last
// sample (the heap bound is judged here, by the script, not by a test: growth over a soak
// depends on how many actions a loaded machine gets through). Both samples are taken in the same quiet state (Explore tab, intro preset, runs
// finished) right after a forced garbage collection (CDP HeapProfiler.collectGarbage), with
// Chromium's --enable-precise-memory-info so performance.memory is not bucketed. The first
// sample follows a warm-up that visits every preset and the seed tables once and then does
// `warmup` random actions (SOAK_WARMUP, default 40), so caches that fill once and lazily
// compiled code are not counted as growth. Needs dist/ (trunk build --release --offline).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { CHROMIUM, FLAGS } from './browser.mjs';

export const PRESETS = ['intro', 'hrtick-iperf', 'rr-kbuild', 'nohz-pipe', 'eevdf-vs-cfs'];
const MAX_GROWTH = 0.1;

/** A small seeded PRNG (mulberry32), so a failing run can be repeated with SOAK_SEED. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Waits until the figures on screen are for the current config and the sweep is done. */
async function quiet(page, ms = 180_000) {
  await page.waitForFunction(
    () => {
      const m = document.querySelector('section.metrics');
      return m && m.getAttribute('aria-busy') === 'false' && m.dataset.gen && !document.querySelector('.progress');
    },
    null,
    { timeout: ms },
  );
}

async function sample(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(300);
  await cdp.send('HeapProfiler.collectGarbage');
  return page.evaluate(() => ({
    heap: performance.memory.usedJSHeapSize,
    nodes: document.getElementsByTagName('*').length,
  }));
}

async function tab(page, name) {
  await page.getByRole('button', { name, exact: true }).click();
}

async function choosePreset(page, name) {
  await page.evaluate(() => {
    const d = document.querySelector('details.drawer');
    if (d && !d.open) d.open = true;
  });
  await page.selectOption('select[name=preset]', name);
}

/** The actions, each (page, random) => description. Failures to find a target are fine. */
const ACTIONS = [
  // Keyboard drag: focus a random enabled slider and press a burst of keys.
  [6, async (page, r) => {
    const sliders = page.locator('input[type=range]:not([disabled])');
    const n = await sliders.count();
    if (!n) return 'no slider';
    const s = sliders.nth(Math.floor(r() * n));
    await s.scrollIntoViewIfNeeded();
    await s.focus();
    const keys = ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'];
    const burst = 1 + Math.floor(r() * 8);
    for (let i = 0; i < burst; i++) {
      await page.keyboard.press(keys[Math.floor(r() * keys.length)]);
      await page.waitForTimeout(20 + r() * 80);
    }
    return `keys on ${await s.getAttribute('name')} x${burst}`;
  }],
  // Mouse drag across a slider.
  [5, async (page, r) => {
    const sliders = page.locator('input[type=range]:not([disabled])');
    const n = await sliders.count();
    if (!n) return 'no slider';
    const s = sliders.nth(Math.floor(r() * n));
    await s.scrollIntoViewIfNeeded();
    const box = await s.boundingBox();
    if (!box) return 'slider hidden';
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + r() * box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + r() * box.width, y, { steps: 5 + Math.floor(r() * 20) });
    await page.mouse.up();
    return `drag ${await s.getAttribute('name')}`;
  }],
  [2, async (page, r) => {
    const p = PRESETS[Math.floor(r() * PRESETS.length)];
    await choosePreset(page, p);
    return `preset ${p}`;
  }],
  [3, async (page, r) => {
    const boxes = page.locator('aside.controls input[type=checkbox]:not([disabled])');
    const n = await boxes.count();
    if (!n) return 'no checkbox';
    const b = boxes.nth(Math.floor(r() * n));
    await b.scrollIntoViewIfNeeded();
    await b.click();
    return `toggle ${await b.getAttribute('name')}`;
  }],
  [1, async (page) => {
    await tab(page, 'Experiments');
    await page.waitForTimeout(500);
    const load = page.locator('.seed button', { hasText: 'Load' });
    if (await load.count()) {
      await load.first().click();
      return 'seed tab, load a row';
    }
    await tab(page, 'Explore');
    return 'seed tab and back';
  }],
  [1, async (page) => {
    const pin = page.getByRole('button', { name: /^(Pin as A|Unpin A)$/ });
    if (!(await pin.count())) return 'no pin button';
    const label = await pin.first().textContent();
    await pin.first().click();
    return label;
  }],
  [1, async (page, r) => {
    const name = r() < 0.5 ? 'Wakeup latency' : 'C-state residency';
    await page.getByRole('button', { name, exact: true }).click();
    return `dist ${name}`;
  }],
  // Sometimes let everything finish, so runs and sweeps complete rather than being dropped.
  [1, async (page) => {
    await quiet(page).catch(() => {});
    return 'wait until quiet';
  }],
];

const TOTAL = ACTIONS.reduce((a, [w]) => a + w, 0);

/** One random action and a short pause; returns (and appends to `history`) what it did. */
async function step(page, r, history) {
  let pick = r() * TOTAL;
  const [, act] = ACTIONS.find(([w]) => (pick -= w) < 0) ?? ACTIONS[0];
  const what = await act(page, r).catch((e) => `action failed: ${e.message.split('\n')[0]}`);
  history.push(what);
  await page.waitForTimeout(50 + r() * 250);
  return what;
}

/** The state both samples are taken in: Explore, intro, nothing pinned, runs finished. */
async function settleTo(page) {
  if (await page.getByRole('button', { name: 'Explore', exact: true }).count()) await tab(page, 'Explore');
  const unpin = page.getByRole('button', { name: 'Unpin A' });
  if (await unpin.count()) await unpin.click();
  await page.getByRole('button', { name: 'Wakeup latency', exact: true }).click();
  // Load another preset first, so intro is loaded fresh (with its own sweep).
  await choosePreset(page, 'rr-kbuild');
  await quiet(page).catch(() => {});
  await choosePreset(page, 'intro');
  await quiet(page);
  await page.evaluate(() => document.activeElement?.blur());
}

/**
 * Runs the soak for `minutes` (or, given `actions`, for exactly that many random actions,
 * however long they take) against the built site in `dist`. Resolves to
 * { ok, errors, first, last, growth, actions, log }; never throws for a page problem, but
 * rejects if the page stops answering (the figures never settle after the last action).
 */
export async function soak({ minutes = 10, actions = null, dist = 'dist', seed = 1, warmup = 40, log = () => {} } = {}) {
  const server = await serve(dist);
  const profile = await mkdtemp(join(tmpdir(), 'schedscope-soak-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, '--enable-precise-memory-info'],
    viewport: { width: 1280, height: 800 },
  });
  const errors = [];
  const history = [];
  try {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    await page.goto(server.url, { waitUntil: 'load' });
    await quiet(page);

    // Warm-up: every preset and the seed tables once.
    for (const p of PRESETS) {
      await choosePreset(page, p);
      await quiet(page);
    }
    await tab(page, 'Experiments');
    await page.waitForSelector('.seed table', { timeout: 300_000 });
    await tab(page, 'Explore');
    const r = rng(seed);
    // Then some random actions, so every code path has run (V8 compiles the JS glue lazily,
    // and its bytecode is on the heap) before the first sample.
    for (let i = 0; i < warmup; i++) await step(page, r, []);
    await settleTo(page);
    const first = await sample(page, cdp);
    log(`first sample: heap ${(first.heap / 1e6).toFixed(2)} MB, ${first.nodes} elements`);

    const end = Date.now() + minutes * 60_000;
    while (actions === null ? Date.now() < end : history.length < actions) {
      const what = await step(page, r, history);
      if (history.length % 50 === 0) log(`${history.length} actions, ${errors.length} errors; last: ${what}`);
    }
    await settleTo(page);
    const last = await sample(page, cdp);
    const growth = (last.heap - first.heap) / first.heap;
    log(`last sample: heap ${(last.heap / 1e6).toFixed(2)} MB (${(growth * 100).toFixed(1)}%), ${last.nodes} elements`);
    return { ok: errors.length === 0 && growth < MAX_GROWTH, errors, first, last, growth, actions: history.length, log: history };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    await server.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const seed = Number(process.env.SOAK_SEED ?? Date.now() % 100_000);
  console.log(`soak: ${minutes} min, SOAK_SEED=${seed}`);
  const res = await soak({ minutes, seed, warmup: Number(process.env.SOAK_WARMUP ?? 40), dist: process.env.SCHEDSCOPE_DIST ?? 'dist', log: console.log });
  console.log(`${res.actions} actions; ${res.errors.length} console errors; heap growth ${(res.growth * 100).toFixed(1)}%`);
  for (const e of res.errors.slice(0, 20)) console.log(`  ${e}`);
  console.log(res.ok ? 'PASS' : 'FAIL');
  process.exit(res.ok ? 0 : 1);
}
