// A trace recorded on a real machine, end to end on the page (issue 14): LISA's 6.7 s
// trace-cmd report of an Arm Juno board (tests/fixtures/traces/real_lisa_juno.txt, Apache-2.0,
// see the fixtures' README). Import it, check the table against numbers read off the file
// itself, replay it and read the model error, whose latency rows are over every wakeup.
//
// Needs dist/ (trunk build --release --offline); run with `node --test e2e/traces_real.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const FILE = fileURLToPath(new URL('../tests/fixtures/traces/real_lisa_juno.txt', import.meta.url));
const WAIT = 60_000;
const panel = '[aria-label="Recorded trace"]';
let server;

before(async () => {
  server = await serve(DIST);
});
after(async () => {
  await server?.close();
});

/** Distinct pids named in the file's sched_switch lines (other than idle), counted here. */
function pidsInFile() {
  const pids = new Set();
  for (const m of readFileSync(FILE, 'utf8').matchAll(/(?:prev|next)_pid=(\d+)/g)) if (m[1] !== '0') pids.add(m[1]);
  return pids;
}

test('a real Juno trace: import, the table, replay and the model error', { timeout: 240_000 }, async () => {
  const b = await launch();
  try {
    const { page, problems } = await open(b.context, new URL('/?v=1', server.url).href);
    await page.waitForFunction(() => document.querySelector('section.metrics')?.getAttribute('aria-busy') === 'false',
      null, { timeout: WAIT });

    await page.setInputFiles('input[name="trace-import"]', FILE);
    await page.waitForSelector(`${panel} table.trace-tasks tbody tr`, { timeout: WAIT });
    const summary = await page.textContent(`${panel} .trace-summary`);
    assert.match(summary, /real_lisa_juno\.txt · trace-cmd report \/ perf script text · 6 CPUs/, summary);
    assert.match(summary, /17 other events skipped/, summary);
    const skipped = await page.textContent(`${panel} details`);
    assert.match(skipped, /print ×14, sched_overutilized ×3/, `the skipped events are listed by name: ${skipped}`);

    // One row per task: the file names 50 pids in its switches (none reused).
    const names = await page.$$eval(`${panel} table.trace-tasks tbody tr th`, (ths) => ths.map((th) => th.textContent));
    assert.equal(names.length, pidsInFile().size, names.join(', '));
    // Sorted by on-CPU time, the rt-app ramp task leads (3.85 s of the 4.02 s of work).
    await page.click(`${panel} table.trace-tasks thead tr:last-child th >> text=On CPU`);
    const top = await page.$eval(`${panel} table.trace-tasks tbody tr th`, (th) => th.textContent);
    if (top !== 'ramp-1706') {
      await page.click(`${panel} table.trace-tasks thead tr:last-child th >> text=On CPU`);
    }
    assert.equal(await page.$eval(`${panel} table.trace-tasks tbody tr th`, (th) => th.textContent), 'ramp-1706');

    // Replay under the page's config; the error table has a value in every cell.
    await page.click(`${panel} button.replay`);
    await page.waitForSelector(`${panel} .trace-diffview table.trace-error tbody tr`, { timeout: WAIT });
    const err = await page.$$eval(`${panel} table.trace-error tbody tr`, (trs) =>
      trs.map((tr) => [tr.dataset.metric, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]));
    assert.equal(err.length, 8);
    for (const [metric, pct, rec, sim] of err) {
      assert.match(pct, /^\d+(\.\d)?%$/, `${metric}: ${pct}`);
      assert.ok(rec !== '—' && sim !== '—', `${metric}: ${rec} / ${sim}`);
    }
    const row = Object.fromEntries(err.map(([m, pct]) => [m, Number.parseFloat(pct)]));
    // Each task replayed over its recorded life: on-CPU time and sleep agree closely.
    assert.ok(row.runtime_s < 1, `runtime error ${row.runtime_s}%`);
    assert.ok(row.sleep_s < 5, `sleep error ${row.sleep_s}%`);
    assert.equal(await page.locator(`${panel} .timeline canvas[role=img]:not(.counters)`).count(), 2);

    // Issue 29 item 7. One legend, under the pair, not a wall of colours between the two.
    const legends = await page.$$eval(`${panel} .trace-pair .timeline`, (ts) =>
      ts.map((t) => [...t.querySelectorAll('.timeline-legend')].filter((l) => l.offsetParent !== null).length));
    assert.deepEqual(legends, [0, 3], 'the recorded timeline shows no legend of its own');
    // One idle convention: the recording has no cpu_idle events, so neither timeline has C-states.
    const idle = await page.$$eval(`${panel} .trace-pair .timeline`, (ts) =>
      ts.map((t) => [...t.querySelectorAll('.timeline-legend li')].filter((li) => li.parentElement.textContent.includes('Idle:'))
        .map((li) => li.textContent).filter((x) => !/Idle:|Marks:|tick|wakeup|IPI|migrat|hrtick/i.test(x))));
    assert.deepEqual(idle[1], ['idle'], `the simulation draws idle as the recording does: ${JSON.stringify(idle)}`);
    assert.match(await page.textContent(`${panel} .trace-idle`), /no cpu_idle events/);
    // Which machine the replay ran on, why, and the Arm profile offered.
    assert.match(await page.textContent(`${panel} .trace-machine`), /Skylake-SP.*6 CPUs.*names no machine/);
    await page.click(`${panel} button.replay-arm`);
    await page.waitForFunction(() => [...document.querySelectorAll('.trace-pair h3')].some((h) => h.textContent.includes('cpu=rpi5')),
      null, { timeout: WAIT });
    assert.equal(await page.inputValue('select[name=cpu]'), 'rpi5', 'the page follows');
    assert.equal(await page.locator(`${panel} button.replay-arm`).count(), 0, 'on Arm already: nothing to offer');
    // A task never woken has no latency ("-"), in both tables.
    const never = await page.$$eval(`${panel} table.trace-tasks tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
      .filter((tds) => tds[3] === '0'));
    assert.ok(never.length > 0, 'the Juno trace has tasks never woken');
    for (const tds of never) assert.deepEqual(tds.slice(5), ['-', '-', '-'], tds.join(' | '));

    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});
