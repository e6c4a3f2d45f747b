// Browser performance benchmark of the built site (issue 7): page weight, first render and
// interaction latency while the rr_interval slider is dragged (`./scripts/bench perf`). A script, not a test: it
// prints a JSON summary with each target beside its figure and never fails on a time (the
// machine is shared and noisy). Figures and the command go into BENCHMARKS.md.
//
//   PATH=$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH trunk build --release --offline
//   node e2e/perf.mjs [dist]          (SCHEDSCOPE_DIST also names the directory)
//   PERF_ONLY=drawing node e2e/perf.mjs   (only the timeline drawing figures)
//   PERF_ONLY=waterfall node e2e/perf.mjs (only the first figure's load waterfall, 3 fresh browsers)
//   PERF_ONLY=interaction node e2e/perf.mjs (only the slider drags: keyboard and mouse)

import { serve } from './serve.mjs';
import { launch } from './browser.mjs';
import { APP_GZIP_KB_MAX, pageWeight } from './weight.mjs';

const DIST = process.argv[2] ?? process.env.SCHEDSCOPE_DIST ?? 'dist';
const LOADS = 3; // first-render samples (fresh browser each time); the median is reported
const PRESSES = 30; // keyboard steps of the slider
const MOUSE_STEPS = 30; // mouse moves while dragging the slider
const KEY_GAP_MS = 33; // ~ keyboard auto-repeat rate: the next press does not wait for figures
const SETTLE_MS = 120_000;

/**
 * Installed before any page script: long tasks, paint entries, when the throughput first
 * shows a non-zero figure, and per-input latency (input event -> next animation frame, and
 * input event -> the frame after the figures next change).
 */
function instrument() {
  const perf = (window.__perf = { longtasks: [], paints: {}, firstFigure: null, inputs: [], workers: [] });
  // Every Worker the page makes: when it was created, when each request was posted to it and
  // when each of its messages reached the page (the load waterfall; `waterfall` below).
  const Base = window.Worker;
  if (Base) {
    window.Worker = class extends Base {
      constructor(...args) {
        const created = performance.now();
        super(...args);
        const rec = { url: String(args[0]), created, posts: [], messages: [] };
        perf.workers.push(rec);
        this.__rec = rec;
        this.addEventListener('message', (e) =>
          rec.messages.push({ at: performance.now(), stamp: e.timeStamp, bytes: e.data?.byteLength ?? null }),
        );
      }
      postMessage(...args) {
        this.__rec.posts.push({ at: performance.now(), bytes: args[0]?.byteLength ?? null });
        return super.postMessage(...args);
      }
    };
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) perf.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    perf.longtaskError = String(e);
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) perf.paints[e.name] = e.startTime;
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {
    perf.paintError = String(e);
  }
  let pending = []; // inputs waiting for the figures to change
  const onMutation = () => {
    if (perf.firstFigure === null) {
      const dd = document.querySelector('[data-metric=throughput] dd');
      const n = Number(String(dd?.textContent ?? '').replace(/[^0-9.]/g, ''));
      if (n > 0) requestAnimationFrame((t) => (perf.firstFigure ??= { dom: performance.now(), frame: t }));
    }
    if (pending.length) {
      const waiting = pending;
      pending = [];
      requestAnimationFrame(() => {
        const now = performance.now();
        for (const rec of waiting) rec.update = now - rec.t0;
      });
    }
  };
  const watch = () => {
    const target = document.getElementById('app') ?? document.body;
    new MutationObserver((records) => {
      if (records.some((r) => (r.target.closest?.('[data-metric]') ?? r.target.parentElement?.closest?.('[data-metric]'))))
        onMutation();
      else if (perf.firstFigure === null) onMutation();
    }).observe(target, { subtree: true, childList: true, characterData: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
  const onInput = (e) => {
    if (!(e.target instanceof HTMLInputElement) || e.target.type !== 'range') return;
    const rec = { kind: e.type, t0: e.timeStamp, frame: null, update: null };
    perf.inputs.push(rec);
    pending.push(rec);
    requestAnimationFrame(() => (rec.frame = performance.now() - rec.t0));
  };
  // Keys: the keydown (the value changes in its default action); mouse: each input event.
  document.addEventListener('keydown', onInput, true);
  document.addEventListener('input', (e) => perf.recordMouse && onInput(e), true);
}

const percentile = (xs, p) => {
  const s = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 10) / 10;
};
const median = (xs) => percentile(xs, 50);
const round = (x) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

async function newPage(browser) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  return { page, problems };
}

/** A fresh instrumented page of `browser` loaded at `url` until its first figure, plus half a
 * second for buffered long tasks to arrive. */
async function toFirstFigure(browser, url) {
  await browser.context.addInitScript(instrument);
  const loaded = await newPage(browser);
  await loaded.page.goto(url, { waitUntil: 'load' });
  await loaded.page.waitForFunction(() => window.__perf.firstFigure !== null, null, { timeout: SETTLE_MS });
  await loaded.page.waitForTimeout(500);
  return loaded;
}

async function firstRender(url) {
  const samples = [];
  for (let i = 0; i < LOADS; i++) {
    const browser = await launch({ width: 1280, height: 800 });
    try {
      const { page } = await toFirstFigure(browser, url);
      const p = await page.evaluate(() => window.__perf);
      samples.push({
        first_contentful_paint_ms: round(p.paints['first-contentful-paint']),
        first_figure_ms: round(p.firstFigure.frame),
        longest_load_task_ms: round(Math.max(0, ...p.longtasks.map((t) => t.duration))),
        long_tasks_during_load: p.longtasks.length,
      });
    } finally {
      await browser.close();
    }
  }
  return {
    samples,
    median_first_contentful_paint_ms: median(samples.map((s) => s.first_contentful_paint_ms)),
    median_first_figure_ms: median(samples.map((s) => s.first_figure_ms)),
    target_ms: 1000,
  };
}

/** Waits until no newer config is being simulated. */
async function settle(page) {
  await page.waitForFunction(
    () => document.querySelector('section.metrics')?.getAttribute('aria-busy') === 'false',
    null,
    { timeout: SETTLE_MS },
  );
}

function summarise(inputs, longtasks) {
  const frame = inputs.map((r) => r.frame);
  const update = inputs.map((r) => r.update);
  return {
    inputs: inputs.length,
    input_to_next_frame_ms: { p50: percentile(frame, 50), p95: percentile(frame, 95), max: percentile(frame, 100) },
    input_to_updated_figures_frame_ms: {
      p50: percentile(update, 50),
      p95: percentile(update, 95),
      max: percentile(update, 100),
      updated: update.filter((x) => x !== null).length,
    },
    long_tasks: longtasks.length,
    longest_long_task_ms: round(Math.max(0, ...longtasks.map((t) => t.duration))),
  };
}

/** Drags `slider` (a range input's name; the first enabled one when null) on `preset`. */
async function interaction(url, preset, name) {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.addInitScript(instrument);
    const { page, problems } = await newPage(browser);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__perf.firstFigure !== null, null, { timeout: SETTLE_MS });
    if (preset) {
      await page.selectOption('select[name=preset]', preset);
      await page.waitForTimeout(200);
    }
    await settle(page);
    name ??= await page.evaluate(() => document.querySelector('input[type=range]:not([disabled])')?.name ?? null);
    const slider = page.locator(`input[type=range][name="${name}"]`);
    if (!name || (await slider.count()) === 0 || (await slider.isDisabled())) {
      return { preset: preset ?? 'default', skipped: `no enabled range input ${name ?? ''}` };
    }
    const shown = await page.inputValue('select[name=preset]').catch(() => '');
    const result = { preset: preset ?? `default (${shown || 'none selected'})`, slider: name };

    // Keyboard: PRESSES steps up at auto-repeat pace (all one way, so the last figures differ
    // from the first: identical text would leave the DOM untouched and nothing to time).
    await slider.focus();
    const mark = async () => page.evaluate(() => ((window.__perf.inputs = []), performance.now()));
    let since = await mark();
    for (let i = 0; i < PRESSES; i++) {
      await page.keyboard.press(i === 0 ? 'Home' : 'ArrowRight');
      await page.waitForTimeout(KEY_GAP_MS);
    }
    await settle(page);
    await page.waitForTimeout(300);
    let p = await page.evaluate(() => window.__perf);
    result.keyboard = summarise(
      p.inputs.filter((r) => r.kind === 'keydown'),
      p.longtasks.filter((t) => t.start >= since),
    );

    // Mouse: press on the thumb and drag across the track in MOUSE_STEPS moves.
    const box = await slider.boundingBox();
    await page.evaluate(() => (window.__perf.recordMouse = true));
    since = await mark();
    const y = box.y + box.height / 2;
    const fraction = Number(await slider.inputValue()) / Number((await slider.getAttribute('max')) ?? 100) || 0.5;
    const x0 = box.x + box.width * Math.min(0.95, Math.max(0.05, fraction));
    await page.mouse.move(x0, y);
    await page.mouse.down();
    for (let i = 1; i <= MOUSE_STEPS; i++) {
      await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / MOUSE_STEPS, y);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    await settle(page);
    await page.waitForTimeout(300);
    p = await page.evaluate(() => window.__perf);
    result.mouse = summarise(
      p.inputs.filter((r) => r.kind === 'input'),
      p.longtasks.filter((t) => t.start >= since),
    );
    result.problems = problems;
    return result;
  } finally {
    await browser.close();
  }
}

/**
 * Timeline drawing: loads `nohz-pipe` (its live trace holds the maximum of spans), then pans
 * the canvas by pointer drags back and forth and zooms by wheel notches in and out, while a
 * requestAnimationFrame loop records frame intervals. The canvas's aria-label says how many
 * spans are in view; it is read before and after.
 */
async function drawing(url) {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.addInitScript(instrument);
    const { page, problems } = await newPage(browser);
    await page.goto(url, { waitUntil: 'load' });
    await page.selectOption('select[name=preset]', 'nohz-pipe');
    await settle(page);
    const canvas = page.locator('canvas.timeline-canvas, .timeline canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    const inView = async () => {
      const label = (await canvas.getAttribute('aria-label')) ?? '';
      const m = label.match(/([\d,]+) spans in view/);
      return m ? Number(m[1].replace(/,/g, '')) : null;
    };
    const spansBefore = await inView();
    const box = await canvas.boundingBox();
    const y = box.y + box.height / 2;
    // Frame intervals and long tasks from here on.
    const since = await page.evaluate(() => {
      const f = (window.__frames = []);
      let last = performance.now();
      const loop = (t) => {
        f.push(t - last);
        last = t;
        if (!window.__stopFrames) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
      return performance.now();
    });
    // Zoom in one wheel notch (x0.86 of the range), so a pan has somewhere to go.
    const centre = box.x + box.width / 2;
    await page.mouse.move(centre, y);
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(50);
    const labels = [await canvas.getAttribute('aria-label')];
    const counts = [await inView()];
    // Pan: 6 drags of 120 px, alternating direction, 12 moves each at ~60 Hz.
    for (let d = 0; d < 6; d++) {
      const dir = d % 2 === 0 ? -1 : 1;
      await page.mouse.move(centre, y);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) {
        await page.mouse.move(centre + (dir * 120 * i) / 12, y);
        await page.waitForTimeout(16);
      }
      await page.mouse.up();
      labels.push(await canvas.getAttribute('aria-label'));
      counts.push(await inView());
    }
    // Zoom: 20 wheel notches alternating in and out around the centre.
    await page.mouse.move(centre, y);
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, i % 2 === 0 ? -100 : 100);
      await page.waitForTimeout(16);
      counts.push(await inView());
      labels.push(await canvas.getAttribute('aria-label'));
    }
    await page.waitForTimeout(200);
    const p = await page.evaluate(() => ((window.__stopFrames = true), { frames: window.__frames, perf: window.__perf }));
    const frames = p.frames.slice(1);
    const longtasks = p.perf.longtasks.filter((t) => t.start >= since);
    return {
      preset: 'nohz-pipe',
      spans_in_view_before: spansBefore,
      spans_in_view_min_while_moving: Math.min(...counts.filter((c) => c !== null)),
      distinct_views: new Set(labels).size,
      frames: frames.length,
      frame_interval_ms: { p50: percentile(frames, 50), p95: percentile(frames, 95), max: percentile(frames, 100) },
      frames_over_20ms: frames.filter((f) => f > 20).length,
      mean_fps: round(1000 / (frames.reduce((a, b) => a + b, 0) / Math.max(1, frames.length))),
      long_tasks: longtasks.length,
      longest_long_task_ms: round(Math.max(0, ...longtasks.map((t) => t.duration))),
      problems,
    };
  } finally {
    await browser.close();
  }
}

/**
 * The first figure's load waterfall (issue 26): for each of LOADS fresh browsers, the page's
 * resources (fetch start, response end), boot.js's marks (static/boot.js), the simulation
 * worker's creation, its own resources and marks (static/worker_loader.js; the worker's clock
 * is shifted onto the page's by the two time origins), its first messages (Ready, then the
 * first job's answer), the first request posted, first contentful paint and the first figure's
 * frame, all in ms since navigation start; the median of each step is reported.
 */
async function waterfall(url) {
  const loads = [];
  for (let i = 0; i < LOADS; i++) {
    const browser = await launch({ width: 1280, height: 800 });
    try {
      const { page, problems } = await toFirstFigure(browser, url);
      const p = await page.evaluate(() => ({
        perf: window.__perf,
        origin: performance.timeOrigin,
        nav: performance.getEntriesByType('navigation')[0]?.toJSON(),
        resources: performance.getEntriesByType('resource').map((r) => ({
          name: r.name.replace(/^.*\//, ''),
          start: r.startTime,
          response_start: r.responseStart,
          end: r.responseEnd,
          gzip_bytes: r.transferSize,
        })),
        marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
      }));
      const inWorker = [];
      for (const w of page.workers()) {
        const got = await w
          .evaluate(() => ({
            url: location.href.replace(/^.*\//, ''),
            origin: performance.timeOrigin,
            resources: performance.getEntriesByType('resource').map((r) => ({
              name: r.name.replace(/^.*\//, ''),
              start: r.startTime,
              response_start: r.responseStart,
              end: r.responseEnd,
            })),
            marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
          }))
          .catch((e) => ({ error: String(e) }));
        if (got.error) continue;
        const shift = (t) => round(t + got.origin - p.origin);
        inWorker.push({
          url: got.url,
          origin: shift(0),
          resources: got.resources.map((r) => ({ ...r, start: shift(r.start), response_start: shift(r.response_start), end: shift(r.end) })),
          marks: got.marks.map((m) => ({ name: m.name, at: shift(m.at) })),
        });
      }
      const sim = p.perf.workers.find((w) => w.url.includes('worker_loader')) ?? null;
      // The simulation worker's answers (wire bytes): its Ready, then the first job's.
      if (sim) sim.messages = sim.messages.filter((m) => m.bytes !== null);
      const jobs = sim?.posts.filter((x) => x.bytes !== null) ?? [];
      const res = (re) => p.resources.find((r) => re.test(r.name));
      const mark = (name) => p.marks.find((m) => m.name === name)?.at ?? null;
      const wk = inWorker.find((w) => w.url.includes('worker_loader'));
      const wres = (re) => wk?.resources.find((r) => re.test(r.name));
      const wmark = (name) => wk?.marks.find((m) => m.name === name)?.at ?? null;
      const steps = {
        html_response_end: p.nav?.responseEnd,
        dom_content_loaded: p.nav?.domContentLoadedEventEnd,
        early_js_runs: mark('schedscope:early'),
        boot_js_runs: mark('schedscope:boot'),
        worker_created: sim?.created,
        worker_time_origin: wk?.origin ?? null,
        worker_script_end: wres(/^worker\.js/)?.end ?? null,
        worker_wasm_fetch_start: wres(/^worker_bg\.wasm/)?.start ?? null,
        worker_wasm_end: wres(/^worker_bg\.wasm/)?.end ?? null,
        worker_wasm_ready: wmark('schedscope:worker-ready'),
        worker_ready_at_page: sim?.messages[0]?.at ?? null,
        app_js_end: res(/^schedscope-.*\.js$/)?.end ?? null,
        app_wasm_fetch_start: res(/^schedscope-.*_bg\.wasm$/)?.start ?? null,
        app_wasm_end: res(/^schedscope-.*_bg\.wasm$/)?.end ?? null,
        app_wasm_started: mark('schedscope:app-started'),
        first_contentful_paint: p.perf.paints['first-contentful-paint'],
        // early.js's page query (an array, no byteLength) is not a job: the jobs are wire bytes.
        first_job_posted: jobs[0]?.at ?? null,
        second_job_posted: jobs[1]?.at ?? null,
        worker_prefetched: wmark('schedscope:worker-prefetched'),
        worker_first_handled: wk?.marks.find((m) => m.name === 'schedscope:worker-handled')?.at ?? null,
        first_answer_at_page: sim?.messages[1]?.at ?? null,
        first_figure_frame: p.perf.firstFigure.frame,
        first_figure_dom: p.perf.firstFigure.dom,
      };
      for (const k of Object.keys(steps)) steps[k] = round(steps[k] ?? null);
      loads.push({
        steps,
        long_tasks: p.perf.longtasks.map((t) => ({ start: round(t.start), duration: round(t.duration) })),
        posts: sim?.posts.map((x) => ({ at: round(x.at), bytes: x.bytes })),
        messages: sim?.messages.map((x) => ({ at: round(x.at), bytes: x.bytes })),
        page_resources: p.resources.map((r) => ({ ...r, start: round(r.start), response_start: round(r.response_start), end: round(r.end) })),
        worker_resources: wk?.resources,
        worker_marks: wk?.marks,
        problems,
      });
    } finally {
      await browser.close();
    }
  }
  const medians = {};
  for (const k of Object.keys(loads[0].steps)) medians[k] = median(loads.map((l) => l.steps[k]));
  return { median_ms_since_navigation: medians, loads };
}

const server = await serve(DIST);
if (process.env.PERF_ONLY === 'waterfall') {
  console.log(JSON.stringify(await waterfall(server.url), null, 2));
  await server.close();
  process.exit(0);
}
if (process.env.PERF_ONLY === 'interaction') {
  // The drags alone (keyboard and mouse, rr-kbuild's rr_interval and the default scenario).
  const drag = await interaction(server.url, 'rr-kbuild', 'rr_interval');
  const dragDefault = await interaction(server.url, null, null);
  console.log(JSON.stringify({ interaction: drag, interaction_default: dragDefault }, null, 2));
  await server.close();
  process.exit(0);
}
if (process.env.PERF_ONLY === 'drawing') {
  // Quick look at the drawing figures alone.
  console.log(JSON.stringify(await drawing(server.url), null, 2));
  await server.close();
  process.exit(0);
}
try {
  const weight = await pageWeight(DIST);
  const load = await firstRender(server.url);
  const drag = await interaction(server.url, 'rr-kbuild', 'rr_interval');
  const dragDefault = await interaction(server.url, null, null);
  const draw = await drawing(server.url);
  const all = [drag.keyboard, drag.mouse, dragDefault.keyboard, dragDefault.mouse].filter(Boolean);
  const summary = {
    date: new Date().toISOString(),
    page_weight: weight,
    first_render: load,
    interaction: drag,
    interaction_default: dragDefault,
    drawing: draw,
    targets: {
      timeline_60fps_with_100k_spans:
        draw.spans_in_view_min_while_moving >= 100_000 &&
        draw.frame_interval_ms.p95 !== null &&
        draw.frame_interval_ms.p95 <= 17.5,
      page_weight_app_le_250kb: weight.app_gzip_kb <= APP_GZIP_KB_MAX,
      first_figure_le_400ms: load.median_first_figure_ms !== null && load.median_first_figure_ms <= 400,
      first_contentful_paint_le_1s:
        load.median_first_contentful_paint_ms !== null && load.median_first_contentful_paint_ms <= 1000,
      no_long_task_over_50ms_while_dragging: all.length > 0 && all.every((s) => s.longest_long_task_ms <= 50),
      input_to_frame_p95_le_16ms:
        all.length > 0 && all.every((s) => s.input_to_next_frame_ms.p95 !== null && s.input_to_next_frame_ms.p95 <= 16),
    },
  };
  console.log(JSON.stringify(summary, null, 2));
} finally {
  await server.close();
}
