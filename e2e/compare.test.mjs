// A/B compare in headless Chromium against the built site (dist/), checked against the
// command line: a compare link opened in a fresh browser shows A's and B's figures and B's
// change exactly as `schedscope run --json` computes them for each config, and "Pin as A"
// pressed while only a preview is shown still gets A its full run (issue 17: A's preview
// was kept as its result, +603% instead of -11.6%). Until both full runs are in, a preview
// side is labelled as one and the status never says "Up to date". Needs dist/ and the
// release binary (brought up to date here: `cargo build --release`). Run by
// `./scripts/test e2e` or `node --test e2e/compare.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';
import { shown } from './format.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = process.env.SCHEDSCOPE_BIN ?? `${ROOT}/target/release/schedscope`;

// nohz-pipe with a tenth of its round trips: ~1.0M events, so the preview (250,000 events)
// is cut and the page's full run completes quickly (the whole preset, ~8M events, is checked
// by e2e/fullrun.test.mjs).
const BASE = ['--preset', 'nohz-pipe', '--set', 'loops=100000'];
const B_SET = ['--set', 'nohz_exit_reprograms=1'];
const LINK = '/?v=1&preset=nohz-pipe&loops=100000&compare=1&b.nohz_exit_reprograms=1';
const CHECKED = ['elapsed_s', 'context_switches', 'timer_reprograms', 'ipis'];

let server;

/** The CLI's metrics for these args. */
function cli(args) {
  const out = execFileSync(CLI, ['run', ...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out).metrics;
}

// The page's number formats (e2e/format.mjs, after src/ui/format.rs), applied to the CLI's values.
function delta(a, b) {
  const d = ((b - a) / Math.abs(a)) * 100;
  if (Math.abs(d) < 0.05) return '±0%';
  return d > 0 ? `+${d.toFixed(1)}%` : `−${Math.abs(d).toFixed(1)}%`;
}

let expected;

before(async () => {
  // Always ask cargo: a binary left from older sources would give stale expectations.
  if (!process.env.SCHEDSCOPE_BIN) execFileSync('cargo', ['build', '--release', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  const a = cli(BASE);
  const b = cli([...BASE, ...B_SET]);
  for (const m of [a, b]) assert.equal(m.stop_reason, 'completed', 'the CLI runs this config to its end');
  assert.ok(a.events > 250_000 && a.events < 2_000_000 && b.events < 2_000_000, 'a cut preview, a full run that completes');
  assert.notEqual(a.elapsed_s, b.elapsed_s, 'A and B differ');
  expected = Object.fromEntries(
    CHECKED.map((k) => [k, { a: shown(k, a), b: shown(k, b), delta: delta(a[k], b[k]) }]),
  );
  server = await serve(DIST, 0);
});

after(async () => {
  await server?.close();
});

/**
 * Records, on every change of the page, what the status and the compare table say, so the
 * test can check what a person could have seen on the way (not only the end state).
 */
function recordSnapshots() {
  window.__snaps = [];
  const snap = () => {
    const cell = (side) => document.querySelector(`.compare td[data-side=${side}][data-metric=elapsed_s]`)?.textContent ?? null;
    const s = {
      status: document.querySelector('.toolbar .status')?.textContent ?? null,
      ok: !!document.querySelector('.toolbar .status.ok'),
      a: cell('a'),
      b: cell('b'),
      preview: document.querySelector('.compare table')?.getAttribute('data-preview') ?? '',
      updating: document.querySelector('.compare table')?.getAttribute('data-updating') ?? '',
      aHead: document.querySelector('.compare thead th.a')?.textContent ?? null,
      delta: document.querySelector('.compare tr[data-compare=elapsed_s] td.delta')?.textContent ?? null,
    };
    const last = window.__snaps[window.__snaps.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.__snaps.push(s);
  };
  new MutationObserver(snap).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

/**
 * Presses "Pin as A" and sets B's nohz_exit_reprograms to 1 in the same callback that first
 * sees the status turn to "Preview"; sets window.__pinned when done.
 */
function pinDuringPreview() {
  window.__pinned = false;
  const obs = new MutationObserver(() => {
    if (window.__pinned) return;
    if (!document.querySelector('.toolbar .status')?.textContent.startsWith('Preview')) return;
    const pin = [...document.querySelectorAll('.toolbar button')].find((b) => b.textContent === 'Pin as A');
    const input = document.querySelector('input[name=nohz_exit_reprograms-text]');
    if (!pin || !input) return;
    window.__pinned = true;
    obs.disconnect();
    pin.click();
    input.value = '1';
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  obs.observe(document, { subtree: true, childList: true, characterData: true });
}

/** Waits for "Up to date", then reads A, B and Δ of every checked metric. */
async function finalFigures(page) {
  await page.waitForSelector('.toolbar .status.ok', { timeout: 180_000 });
  return page.evaluate((keys) => Object.fromEntries(keys.map((k) => {
    const row = document.querySelector(`.compare tr[data-compare=${k}]`);
    const text = (sel) => row?.querySelector(sel)?.textContent.trim() ?? null;
    return [k, { a: text('td[data-side=a]'), b: text('td[data-side=b]'), delta: text('td.delta')?.replace(/ \((better|worse)\)$/, '') }];
  })), CHECKED);
}

/**
 * Every recorded moment: a shown A other than the final one was labelled a preview, a shown
 * B other than the final one a preview or an earlier config's answer, and no change was
 * computed from them.
 */
function checkSnapshots(snaps) {
  const final = snaps[snaps.length - 1];
  assert.ok(final.ok && final.preview === '' && final.updating === '' && final.aHead === 'A', `ends final: ${JSON.stringify(final)}`);
  for (const s of snaps) {
    if (s.ok) assert.deepEqual([s.a, s.b, s.preview, s.updating], [final.a, final.b, '', ''], `"Up to date" only with the final figures: ${JSON.stringify(s)}`);
    if (s.a !== null && s.a !== final.a) {
      assert.ok(s.preview.includes('a') && s.aHead.includes('preview') && s.delta === '…', `A's preview is labelled: ${JSON.stringify(s)}`);
    }
    if (s.b !== null && s.b !== final.b) {
      assert.ok((s.preview.includes('b') || s.updating === 'b') && s.delta === '…', `B's preview is labelled: ${JSON.stringify(s)}`);
    }
  }
}

test('a compare link opened in a fresh browser shows the CLI figures of A and of B', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.addInitScript(recordSnapshots);
    const { page, problems } = await open(browser.context, new URL(LINK, server.url).href);
    const got = await finalFigures(page);
    assert.deepEqual(got, expected);
    const snaps = await page.evaluate(() => window.__snaps);
    checkSnapshots(snaps);
    assert.ok(snaps.some((s) => s.status?.startsWith('Preview')), 'A showed a preview on the way (the case of issue 17)');
    assert.equal(await page.evaluate(() => location.search), LINK.slice(1), 'the link is unchanged');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('Pin as A during a preview, then a change: A still gets its full run', async () => {
  const browser = await launch({ width: 1280, height: 800 });
  try {
    await browser.context.addInitScript(recordSnapshots);
    // Pin and change B in the first moment the status says "Preview", from inside the page:
    // a MutationObserver callback runs before any later task, so A's full run cannot land
    // in between (polling from Playwright could miss a short preview; CI once did). A is
    // pinned with its preview and B's change makes that full run stale.
    await browser.context.addInitScript(pinDuringPreview);
    const { page, problems } = await open(browser.context, new URL('/?v=1&preset=nohz-pipe&loops=100000', server.url).href);
    await page.waitForFunction(() => window.__pinned === true, null, { timeout: 60_000 });
    await page.waitForFunction(() => location.search.includes('b.nohz_exit_reprograms=1'), null, { timeout: 5_000 });
    const got = await finalFigures(page);
    assert.deepEqual(got, expected);
    const snaps = await page.evaluate(() => window.__snaps);
    checkSnapshots(snaps);
    assert.ok(snaps.some((s) => s.preview.includes('a')), 'A was pinned as a preview and labelled so');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
