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
    return m && m.getAttribute('aria-busy') === 'false' && document.querySelector('.timeline canvas');
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
  return page.$eval(`${panel} .timeline canvas`, (c) => {
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
    assert.ok(await page.isVisible(`${panel} .timeline canvas`), 'the recording is on a timeline canvas');
    const aria = await page.getAttribute(`${panel} .timeline canvas`, 'aria-label');
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
    }, [`${panel} .timeline canvas`, h0], { timeout: 5_000 });

    // Another policy: EEVDF (kernel 6.6), then replay under it.
    await page.selectOption('select[name=kernel]', '6.6');
    await page.click(`${panel} button.replay`);
    await page.waitForSelector(`${panel} .trace-diffview table.trace-error tbody tr`, { timeout: WAIT });
    const heading = await page.textContent(`${panel} h3.series.b`);
    assert.match(heading, /Simulated: kernel=6\.6/);
    assert.equal(await page.locator(`${panel} .timeline canvas`).count(), 2, 'recorded and simulated timelines');
    const err = await page.$$eval(`${panel} table.trace-error tbody tr`, (trs) =>
      trs.map((tr) => [tr.dataset.metric, tr.querySelector('.err-pct').textContent]));
    assert.equal(err.length, 8);
    for (const [metric, pct] of err) assert.match(pct, /^\d+(\.\d)?%$/, `${metric}: ${pct}`);
    const diffRows = await page.$$eval(`${panel} table.trace-diff tbody tr`, (trs) =>
      trs.map((tr) => tr.children[1].textContent));
    assert.equal(diffRows.length, 3);
    for (const cell of diffRows) assert.match(cell, /→ .*[+−±]/, cell);

    // A file with no event: a line-numbered message; the trace, config and link stay.
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
