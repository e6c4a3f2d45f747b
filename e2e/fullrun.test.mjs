// Full runs in headless Chromium against the built site (dist/), checked against the command
// line (issue 17): every preset opened from a plain `?preset=NAME` link runs to its end and
// shows the CLI's figures and digest (the page used to stop nohz-pipe at a hidden 2M-event
// budget); a long run shows its progress and Cancel stops it, leaving the preview labelled as
// one; and the page logs no console warning or error on load (Trunk's worker shim logged
// "using deprecated parameters for the initialization function"). Needs dist/ and the
// CLI (e2e/cli.mjs: the binary `cargo test` builds, brought up to date here; no release
// build). Run by `./scripts/test e2e` or `node --test e2e/fullrun.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve } from './serve.mjs';
import { cliBinary } from './cli.mjs';
import { launch, open } from './browser.mjs';
import { shown } from './format.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let CLI; // cliBinary() (e2e/cli.mjs), in `before`
// Every preset but messaging-run-to-parity (80M+ events: a minute of wasm; it runs to its
// end with progress, but is left to the CLI's checks to keep this layer short).
const PRESETS = [
  'intro', 'hrtick-iperf', 'rr-kbuild', 'nohz-pipe', 'eevdf-vs-cfs',
  'hackbench-wakeup-gran-clx', 'hackbench-wakeup-gran-zen3', 'token-governors',
];
const CHECKED = ['elapsed_s', 'context_switches', 'timer_reprograms', 'ipis'];
// nohz-pipe with ten times its round trips: ~80M events, several seconds in wasm. Its time to
// the end is a benchmark (`./scripts/bench longrun`, e2e/longrun.mjs); here only what it does
// (progress, Cancel, Run in full, replaced by a change), each wait a generous timeout.
const LONG = '/?v=1&preset=nohz-pipe&loops=10000000&max_events=100000000';

// The page's number formats (e2e/format.mjs, after src/ui/format.rs), applied to the CLI's values.

let server;
let browser;
const expected = {};
// Each preset's end in seconds as the CLI gives it (a number, not the page's text).
const endS = {};

before(async () => {
  CLI = cliBinary();
  for (const p of PRESETS) {
    const out = execFileSync(CLI, ['run', '--preset', p, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const m = JSON.parse(out).metrics;
    expected[p] = { digest: m.digest, stop: m.stop_reason, ...Object.fromEntries(CHECKED.map((k) => [k, shown(k, m)])) };
    endS[p] = m.elapsed_s;
  }
  assert.ok(JSON.parse(execFileSync(CLI, ['run', '--preset', 'nohz-pipe', '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 })).metrics.events > 2_000_000,
    'nohz-pipe needs more events than the old hidden budget');
  server = await serve(DIST, 0);
  browser = await launch({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The figures the metrics panel shows once the page is up to date. */
async function figures(page, timeout) {
  await page.waitForSelector('.toolbar .status.ok', { timeout });
  return page.evaluate((keys) => {
    const panel = document.querySelector('section.metrics');
    const v = (k) => panel.querySelector(`[data-metric="${k}"] .v`)?.textContent.trim() ?? null;
    return { digest: panel.getAttribute('data-digest'), stop: panel.getAttribute('data-stop'), ...Object.fromEntries(keys.map((k) => [k, v(k)])) };
  }, CHECKED);
}

for (const p of PRESETS) {
  test(`?preset=${p} runs to its end in the page and shows the CLI's figures`, async () => {
    const { page, problems } = await open(browser.context, new URL(`/?preset=${p}`, server.url).href);
    try {
      const got = await figures(page, 120_000);
      assert.deepEqual(got, expected[p]);
      assert.notEqual(got.stop, 'event_budget');
      assert.deepEqual(problems, [], 'no console warning or error, no failed request');
    } finally {
      await page.close();
    }
  });
}

test('the page logs no console warning on load (wasm-bindgen init of the app and the worker)', async () => {
  const { page, problems } = await open(browser.context, server.url);
  try {
    await page.waitForSelector('.toolbar .status.ok', { timeout: 30_000 });
    // The worker has started once the first run came back from it or the page: give its
    // loader time to log, then check.
    await page.waitForTimeout(1_000);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

/** The status line's text and class. */
const status = (page) => page.evaluate(() => {
  const s = document.querySelector('.toolbar .status');
  return { text: s?.textContent ?? '', cls: s?.className ?? '' };
});

test('a long run shows its progress, Cancel stops it, Run in full resumes and a change replaces it', async () => {
  const { page, problems } = await open(browser.context, new URL(LONG, server.url).href);
  try {
    await page.waitForSelector('.toolbar .status.progress', { timeout: 30_000 });
    const first = await status(page);
    assert.match(first.text, /^Preview · simulating the rest: .+ of ≤ 120 s simulated · [\d,]+ eventsCancel$/);
    const events = (t) => Number(t.match(/simulated · ([\d,]+) events/)[1].replace(/,/g, ''));
    await page.waitForFunction((n) => {
      const m = document.querySelector('.toolbar .status.progress')?.textContent.match(/simulated · ([\d,]+) events/);
      return m && Number(m[1].replace(/,/g, '')) > n;
    }, events(first.text), { timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('.toolbar .status.cancelled', { timeout: 30_000 });
    const note = await page.textContent('section.metrics [data-metric=stop_reason]');
    // A preview stops at 250,000 events or after the chunk that passes its worker-time bound
    // (issue 29: a loaded machine gets a shorter one); its figures are those of that many events.
    const shown = note.match(/^Preview: these figures cover the first ([\d,]+) events; the full run was cancelled/);
    assert.ok(shown, note);
    const n = Number(shown[1].replace(/,/g, ''));
    assert.ok(n > 0 && n <= 250_000, `a preview of ${n} events`);
    assert.equal(await page.getAttribute('section.metrics', 'data-stop'), 'event_budget', 'the preview, not a final figure');
    const previewCli = JSON.parse(execFileSync(CLI, ['run', '--preset', 'nohz-pipe', '--set', 'loops=10000000', '--set', `max_events=${n}`, '--json'],
      { encoding: 'utf8' })).metrics;
    assert.equal(await page.getAttribute('section.metrics', 'data-digest'), previewCli.digest, 'the preview is the run cut at its events');
    // The cancelled run does not come back later.
    await page.waitForTimeout(1_500);
    assert.match((await status(page)).cls, /cancelled/);
    // Run in full starts it again on a fresh worker, with progress.
    await page.getByRole('button', { name: 'Run in full' }).click();
    await page.waitForSelector('.toolbar .status.progress', { timeout: 30_000 });
    // A change while it runs: the stale long run is stopped, the new config is answered at once.
    await page.evaluate(() => {
      const d = document.querySelector('details.drawer');
      if (d && !d.open) d.open = true;
      const input = document.querySelector('input[name=loops-text]');
      input.value = '20000';
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForSelector('.toolbar .status.ok', { timeout: 60_000 });
    const cli = JSON.parse(execFileSync(CLI, ['run', '--preset', 'nohz-pipe', '--set', 'loops=20000', '--set', 'max_events=100000000', '--json'],
      { encoding: 'utf8' })).metrics;
    assert.equal(await page.getAttribute('section.metrics', 'data-digest'), cli.digest);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

/** The current run's timeline canvas: its aria-label says what it shows. */
const currentTimeline = 'canvas[aria-label^="current: timeline"]';
const shownRange = async (page) => {
  const label = await page.getAttribute(currentTimeline, 'aria-label');
  const m = label.match(/showing (.+?) to (.+?) of (.+?); (\d+) spans in view/);
  assert.ok(m, label);
  return { label, spans: Number(m[4]) };
};

test('panning a long run past its recorded stretch records that stretch, with the same figures', async () => {
  // Issue 17: the live trace keeps its first 200,000 items (about a quarter of nohz-pipe);
  // panning beyond it showed blank lanes. Now the page records the stretch in view again.
  const { page, problems } = await open(browser.context, new URL('/?preset=nohz-pipe', server.url).href);
  try {
    const before = await figures(page, 120_000);
    const note = page.locator('.timeline-note', { hasText: 'the live trace keeps at most' });
    assert.match(await note.textContent(), /^The timeline shows the first .+ of .+: .*Zoom in and pan past the recorded stretch/);
    // Zoom in, then End: the view is then at the run's end, beyond what was recorded. The
    // wheel goes where the canvas is on screen, so bring it into view first.
    await page.locator(currentTimeline).scrollIntoViewIfNeeded();
    const box = await page.locator(currentTimeline).boundingBox();
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    for (let i = 0; i < 10; i++) {
      await page.mouse.wheel(0, -200);
      await page.waitForTimeout(50);
    }
    await page.focus(currentTimeline);
    await page.keyboard.press('End');
    // The stretch arrives: the note names where it starts, and the view has spans in it.
    await page.waitForFunction(() => [...document.querySelectorAll('.timeline-note')]
      .some((n) => /^The timeline shows [\d.]+ \S+ to /.test(n.textContent)), null, { timeout: 60_000 });
    await page.waitForFunction((sel) => {
      const l = document.querySelector(sel)?.getAttribute('aria-label') ?? '';
      return /; [1-9]\d* spans in view/.test(l);
    }, currentTimeline, { timeout: 30_000 });
    const { label } = await shownRange(page);
    assert.doesNotMatch(label, /showing 0 ns/, 'the view stayed where it was panned to');
    // At the run's end the stretch runs to the end: "16.112 s to the end (16.139 s)", the
    // run's end as the CLI gives it.
    const end = endS['nohz-pipe'];
    const esc = (x) => x.replace('.', '\\.');
    const whole = Math.floor(end);
    const text = await page.locator('.timeline-note', { hasText: /^The timeline shows [\d.]+ \S+ to / }).textContent();
    assert.match(text, new RegExp(`^The timeline shows ${whole}\\.\\d+ s to the end \\(${esc(end.toFixed(3))} s\\): pan back before it`));
    // The label writes seconds to the nanosecond without trailing zeros (15.7470888 s).
    const ns = end.toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
    assert.match(label, new RegExp(`showing ${whole}\\.\\d+ s to ${esc(ns)} s of ${esc(ns)} s`));
    // Home goes back to the start, outside this stretch: the first stretch is recorded again.
    await page.keyboard.press('Home');
    await page.waitForFunction(() => [...document.querySelectorAll('.timeline-note')]
      .some((n) => /^The timeline shows the first /.test(n.textContent)), null, { timeout: 60_000 });
    assert.deepEqual(await figures(page, 5_000), before, 'the figures are the same run\'s');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
