// Real traces on the page (issue 14): import a hand-written trace-cmd report text with the
// Import trace… button, see it on the timeline with the per-task table, sort the table,
// click a task (its runs are outlined on the canvas), switch the kernel to EEVDF and replay
// the trace under it, read the diff view's numbers; then a file with no event shows a
// line-numbered error and keeps the trace, the config and the link; a trace.dat says how to
// convert it; and the page's own Perfetto export imports back (round trip).
//
// Needs dist/ (trunk build --release --offline); run with `node --test e2e/traces.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';
import { bigTrace } from './big_trace.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const FIX = (n) => fileURLToPath(new URL(`../tests/fixtures/traces/${n}`, import.meta.url));
const WAIT = 60_000;
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
    return m && m.getAttribute('aria-busy') === 'false' && document.querySelector(".timeline canvas[role=img]");
  }, null, { timeout: WAIT });
}

const panel = '[aria-label="Recorded trace"]';

/** The task table's rows as [name, wakeups] in the order shown. */
async function rows(page) {
  return page.$$eval(`${panel} table.trace-tasks tbody tr`, (trs) =>
    trs.map((tr) => [tr.querySelector('th').textContent, tr.children[4].textContent]));
}

/** A hash of the first trace canvas's pixels (to see that a highlight was drawn). */
async function canvasHash(page) {
  return page.$eval(`${panel} .timeline canvas[role=img]:not(.counters)`, (c) => {
    const d = c.toDataURL();
    let h = 0;
    for (let i = 0; i < d.length; i++) h = (h * 31 + d.charCodeAt(i)) | 0;
    return h;
  });
}

test('import, table, highlight, replay under EEVDF, errors keep everything', { timeout: 240_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    const before = page.url();

    // Import with the button.
    await page.setInputFiles('input[name="trace-import"]', FIX('trace_cmd_basic.txt'));
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    const summary = await page.textContent(`${panel} .trace-summary`);
    assert.match(summary, /trace_cmd_basic\.txt · trace-cmd report \/ perf script text · 2 CPUs/);
    assert.ok(await page.isVisible(`${panel} .timeline canvas[role=img]:not(.counters)`), 'the recording is on a timeline canvas');
    const aria = await page.getAttribute(`${panel} .timeline canvas[role=img]:not(.counters)`, 'aria-label');
    assert.match(aria ?? '', /recorded/, aria);
    const names = (await rows(page)).map((r) => r[0]).sort();
    assert.deepEqual(names, ['bg worker-300', 'ping-101', 'pong-102']);
    assert.match(await page.textContent(`${panel} .trace-link`), /cannot carry this file/);

    // Sort by wakeups: descending first, then ascending.
    await page.click(`${panel} table.trace-tasks thead tr:last-child th >> text=Wakeups`);
    assert.equal(await page.getAttribute(`${panel} table.trace-tasks thead tr:last-child th:nth-child(5)`, 'aria-sort'), 'descending');
    const down = (await rows(page)).map((r) => Number(r[1]));
    assert.deepEqual(down, [...down].sort((a, b) => b - a));
    assert.ok(down[0] > down[down.length - 1], `wakeups differ: ${down}`);
    await page.click(`${panel} table.trace-tasks thead tr:last-child th >> text=Wakeups`);
    assert.equal(await page.getAttribute(`${panel} table.trace-tasks thead tr:last-child th:nth-child(5)`, 'aria-sort'), 'ascending');
    const up = (await rows(page)).map((r) => Number(r[1]));
    assert.deepEqual(up, [...up].sort((a, b) => a - b));

    // Click a task: the row is selected and its runs are outlined on the canvas.
    const h0 = await canvasHash(page);
    await page.click(`${panel} table.trace-tasks tbody tr >> text=ping-101`);
    assert.equal(await page.getAttribute(`${panel} table.trace-tasks tr.picked th`, 'scope'), 'row');
    assert.equal(await page.textContent(`${panel} table.trace-tasks tr.picked th`), 'ping-101');
    await page.waitForFunction(async ([sel, h]) => {
      const c = document.querySelector(sel);
      const d = c.toDataURL();
      let x = 0;
      for (let i = 0; i < d.length; i++) x = (x * 31 + d.charCodeAt(i)) | 0;
      return x !== h;
    }, [`${panel} .timeline canvas[role=img]:not(.counters)`, h0], { timeout: 5_000 });

    // Another policy: EEVDF (kernel 6.6), then replay under it.
    await page.selectOption('select[name=kernel]', '6.6');
    await page.click(`${panel} button.replay`);
    await page.waitForSelector(`${panel} .trace-diffview table.trace-error tbody tr`, { timeout: WAIT });
    const heading = await page.textContent(`${panel} h3.series.b`);
    assert.match(heading, /Simulated: kernel=6\.6/);
    assert.equal(await page.locator(`${panel} .timeline canvas[role=img]:not(.counters)`).count(), 2, 'recorded and simulated timelines');
    const err = await page.$$eval(`${panel} table.trace-error tbody tr`, (trs) =>
      trs.map((tr) => [tr.dataset.metric, tr.querySelector('.err-pct').textContent]));
    assert.equal(err.length, 8);
    for (const [metric, pct] of err) assert.match(pct, /^\d+(\.\d)?%$/, `${metric}: ${pct}`);
    const diffRows = await page.$$eval(`${panel} table.trace-diff tbody tr`, (trs) =>
      trs.map((tr) => tr.children[1].textContent));
    assert.equal(diffRows.length, 3);
    for (const cell of diffRows) assert.match(cell, /→ .*[+−±]/, cell);

    // A file with no event: a line-numbered message; the trace, config and link stay. The
    // link takes the kernel change a moment after it (CI once read it before, then saw it
    // change under the import).
    await page.waitForFunction(() => location.search.includes('kernel=6.6'), null, { timeout: WAIT });
    const url = page.url();
    await page.setInputFiles('input[name="trace-import"]', FIX('not_a_trace.txt'));
    await page.waitForSelector(`${panel} .trace-error-msg`, { timeout: WAIT });
    const msg = await page.textContent(`${panel} .trace-error-msg`);
    assert.match(msg, /Cannot import not_a_trace\.txt: .*line 3: expected 'COMM-PID \[CPU\] TIMESTAMP/);
    assert.match(msg, /unchanged/);
    assert.match(await page.textContent(`${panel} .trace-summary`), /trace_cmd_basic\.txt/);
    assert.equal(await page.inputValue('select[name=kernel]'), '6.6', 'the config is kept');
    assert.ok(await page.isVisible(`${panel} .trace-diffview`), 'the replay shown is kept');
    assert.equal(page.url(), url);
    assert.notEqual(url, before, 'the kernel change is in the link');

    // trace.dat: how to convert it.
    await page.setInputFiles('input[name="trace-import"]', FIX('magic_only.dat'));
    await page.waitForFunction((sel) => /trace-cmd report -i trace\.dat/.test(document.querySelector(sel)?.textContent ?? ''),
      `${panel} .trace-error-msg`, { timeout: WAIT });

    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('the page\'s own Perfetto export imports back', { timeout: 180_000 }, async () => {
  const b = await launch({ width: 1280, height: 800 }, { acceptDownloads: true });
  try {
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    await page.click('summary:has-text("Export…")');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Perfetto JSON")')]);
    const path = await download.path();
    await page.setInputFiles('input[name="trace-import"]', { name: 'run.perfetto.json', mimeType: 'application/json',
      buffer: await (await import('node:fs/promises')).readFile(path) });
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    assert.match(await page.textContent(`${panel} .trace-summary`), /run\.perfetto\.json · schedscope Perfetto JSON/);
    assert.ok((await rows(page)).length >= 1);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

/** Imports `file` (named `name`), Cancels while it reads, and checks the panel says so. */
async function importThenCancel(page, file, name) {
  await page.setInputFiles('input[name="trace-import"]', file);
  await page.waitForSelector(`${panel} .trace-progress progress`, { timeout: WAIT });
  await page.click(`${panel} .trace-progress button.cancel`);
  await page.waitForSelector(`${panel} .trace-error-msg`, { timeout: WAIT });
  assert.match(await page.textContent(`${panel} .trace-error-msg`), new RegExp(`Import cancelled: ${name.replace('.', '\\.')}`));
}

/** (Re)starts recording the main thread's long tasks (PerformanceObserver 'longtask', one a page). */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__long = [];
    performance.clearMeasures();
    window.__longObserver ??= new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__long.push(Math.round(e.duration));
    });
    window.__longObserver.observe({ type: 'longtask', buffered: false });
  });
}

/**
 * Logs the long tasks seen since `watchLongTasks` (with the page's User Timing marks, which
 * say what ran: `marks.rs`, used by `web.rs` and `timeline.rs`). Logged, not judged: long
 * tasks are wall time on a shared 2-core machine. The bounds (no main-thread task over 50 ms
 * for a 100 MB file read in the worker, issue 14; none over 250 ms on the page path) are
 * measured by `./scripts/bench import` (e2e/profile_import.mjs), figures in BENCHMARKS.md.
 */
async function logLongTasks(page, what) {
  await page.waitForTimeout(500);
  const long = await page.evaluate(() => window.__long);
  const marks = await page.evaluate(() => performance.getEntriesByType('measure')
    .filter((m) => m.name.startsWith('schedscope ')).map((m) => `${m.name.slice(11)} ${Math.round(m.duration)} ms`));
  const os = await import('node:os');
  const load = os.loadavg()[0];
  console.log(`${what}: main-thread long tasks ${JSON.stringify(long)} (marks: ${marks.join(', ')}; load ${load.toFixed(1)} on ${os.cpus().length} cores)`);
}

test('a large file: progress, Cancel, then the whole file, read in the worker', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    const rounds = Number(process.env.TRACE_ROUNDS ?? 125_000);
    const buffer = bigTrace(rounds); // ~100 MB, 750k lines
    // From a path (not a buffer): Playwright then hands the page a real file, so the page's
    // main thread does not spend seconds decoding the test's bytes.
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const dir = await mkdtemp((await import('node:path')).join((await import('node:os')).tmpdir(), 'schedscope-trace-'));
    const file = (await import('node:path')).join(dir, 'big.txt');
    await writeFile(file, buffer);
    after(() => rm(dir, { recursive: true, force: true }));
    // Cancel while it reads: the message says so, nothing else changes.
    await importThenCancel(page, file, 'big.txt');
    assert.equal(await page.$(`${panel} .trace-progress`), null);

    // Again, to the end, watching the main thread's long tasks.
    await watchLongTasks(page);
    const t0 = Date.now();
    await page.setInputFiles('input[name="trace-import"]', file);
    let sawProgress = false;
    for (let i = 0; i < 600 && !(await page.$(`${panel} table.trace-tasks tbody tr`)); i++) {
      const p = await page.getAttribute(`${panel} .trace-progress`, 'data-progress').catch(() => null);
      if (p && Number(p) > 0 && Number(p) < 1) sawProgress = true;
      await page.waitForTimeout(100);
    }
    assert.ok(await page.$(`${panel} table.trace-tasks tbody tr`), 'the large trace opened');
    assert.ok(sawProgress, 'the progress bar moved between 0 and 1');
    assert.match(await page.textContent(`${panel} .trace-summary`), /big\.txt .* 2 CPUs/);
    // The worker read it (a worker slower than web.rs's READY_MS to start would leave it to the page).
    assert.equal(await page.$(`${panel} .trace-on-page`), null, 'the worker read it');
    assert.match(await page.textContent(`${panel} .trace-cut`), /The timeline shows the first .* of [0-9.]+ s: at most 100,000/);
    await logLongTasks(page, `a ${(buffer.length / 1e6).toFixed(0)} MB import in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // A second large trace (another period: the same timeline again would not be drawn again,
    // equal props do not re-render) replaces the first, and its timeline is drawn.
    const again = (await import('node:path')).join(dir, 'big2.txt');
    await writeFile(again, bigTrace(rounds, 22000));
    await page.evaluate(() => performance.clearMeasures());
    await page.setInputFiles('input[name="trace-import"]', again);
    // Shown: the timeline's first frame of it is marked (`timeline.rs`; the marks were cleared).
    await page.waitForFunction(() => performance.getEntriesByName('schedscope timeline: first frame').length > 0,
      null, { timeout: WAIT });
    assert.match(await page.textContent(`${panel} .trace-summary`), /big2\.txt .* 2 CPUs/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test('a trace dropped on the page opens in the trace panel', { timeout: 120_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    const text = (await import('node:fs')).readFileSync(FIX('perf_script.txt'), 'utf8');
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'dropped.perf.txt', { type: 'text/plain' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    assert.match(await page.textContent(`${panel} .trace-summary`), /dropped\.perf\.txt/);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

/** The task table's rows, every cell's text, sorted by task name. */
async function tableCells(page) {
  const all = await page.$$eval(`${panel} table.trace-tasks tbody tr`, (trs) =>
    trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  return all.sort((a, b) => a[0].localeCompare(b[0]));
}

for (const [how, setup] of [
  ['the Worker constructor throws', async (context) => {
    await context.addInitScript(() => {
      window.Worker = function Worker() { throw new Error('blocked by the test'); };
    });
  }],
  ['the worker script does not load', async (context) => {
    await context.route('**/worker_loader.js', (r) => r.fulfill({ status: 404, body: 'gone' }));
  }],
]) {
  test(`no trace worker (${how}): the page reads the trace itself, same table`, { timeout: 180_000 }, async () => {
    // The worker's table first.
    const a = await launch();
    let want;
    try {
      const { page } = await open(a.context, new URL('/?v=1', server.url).href);
      await ready(page);
      await page.setInputFiles('input[name="trace-import"]', FIX('trace_cmd_basic.txt'));
      await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
      want = await tableCells(page);
      assert.equal(await page.$(`${panel} .trace-on-page`), null, 'the worker read it');
    } finally {
      await a.close();
    }
    const b = await launch();
    try {
      await setup(b.context);
      const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
      await ready(page);
      await page.setInputFiles('input[name="trace-import"]', FIX('trace_cmd_basic.txt'));
      await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
      assert.match(await page.textContent(`${panel} .trace-on-page`), /read on this page.*the trace worker could not start/);
      assert.deepEqual(await tableCells(page), want);
      assert.match(await page.textContent(`${panel} .trace-summary`), /trace_cmd_basic\.txt · trace-cmd report/);
      assert.equal(await page.$(`${panel} .trace-error-msg`), null);
      // A replay runs on the page too.
      await page.click(`${panel} button.replay`);
      await page.waitForSelector(`${panel} .trace-diffview table.trace-error tbody tr`, { timeout: WAIT });
      // The 404 is the test's own doing; anything else is a problem.
      assert.deepEqual(problems.filter((p) => !/worker_loader\.js/.test(p)), []);
    } finally {
      await b.close();
    }
  });
}

// The page path parses each chunk in pieces of a few ms, a fresh task between (`web.rs`
// `parse`): a chunk parsed in one task was a 60-130 ms task, so Cancel's click (which waits
// for the button to be stable over two frames, then for its input to be handled) came late.
test('no trace worker, a large file: progress, Cancel, then it opens', { timeout: 300_000 }, async () => {
  const b = await launch();
  try {
    await b.context.addInitScript(() => {
      window.Worker = function Worker() { throw new Error('blocked by the test'); };
    });
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join((await import('node:os')).tmpdir(), 'schedscope-trace-'));
    const file = path.join(dir, 'mid.txt');
    const buffer = bigTrace(Number(process.env.PAGE_TRACE_ROUNDS ?? 10_000)); // ~8 MB, 60k lines: read in about a second
    await writeFile(file, buffer);
    after(() => rm(dir, { recursive: true, force: true }));
    await watchLongTasks(page);
    await importThenCancel(page, file, 'mid.txt');
    await page.waitForTimeout(300);
    assert.equal(await page.$(`${panel} table.trace-tasks`), null, 'a cancelled read shows nothing');
    await logLongTasks(page, 'the page reading until Cancel');
    await watchLongTasks(page);
    const t0 = Date.now();
    await page.setInputFiles('input[name="trace-import"]', file);
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    assert.match(await page.textContent(`${panel} .trace-summary`), /mid\.txt .* 2 CPUs/);
    assert.match(await page.textContent(`${panel} .trace-on-page`), /read on this page/);
    await logLongTasks(page, `a ${(buffer.length / 1e6).toFixed(0)} MB import on the page in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

// A worker whose script never arrives (neither Ready nor an error): after `READY_MS` the page
// gives it up and reads the trace itself, with the same note. The simulation's own worker
// (the same script, loaded first) is left alone.
test('a trace worker that never answers: the page reads the trace after a timeout', { timeout: 180_000 }, async () => {
  const b = await launch();
  try {
    let hang = false;
    await b.context.route('**/worker_loader.js', (r) => (hang ? undefined : r.continue()));
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await ready(page);
    hang = true;
    const t0 = Date.now();
    await page.setInputFiles('input[name="trace-import"]', FIX('trace_cmd_basic.txt'));
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    const waited = Date.now() - t0;
    assert.match(await page.textContent(`${panel} .trace-on-page`),
      /read on this page.*the trace worker could not start \(it did not answer within 8 s\)/);
    assert.ok(waited >= 7_500, `the page waited for the worker first (${waited} ms)`);
    assert.match(await page.textContent(`${panel} .trace-summary`), /trace_cmd_basic\.txt · trace-cmd report/);
    // The hung request is aborted when the worker is terminated; anything else is a problem.
    assert.deepEqual(problems.filter((p) => !/worker_loader\.js/.test(p)), []);
  } finally {
    await b.close();
  }
});
