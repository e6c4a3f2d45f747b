// A/B compare in headless Chromium against the built site (dist/), checked against the
// command line: a compare link opened in a fresh browser shows A's and B's figures and B's
// change exactly as `schedscope run --json` computes them for each config, and "Pin as A"
// pressed while only a preview is shown still gets A its full run (issue 17: A's preview
// was kept as its result, +603% instead of -11.6%). Until both full runs are in, a preview
// side is labelled as one and the status never says "Up to date". Needs dist/ and the
// CLI (e2e/cli.mjs: the binary `cargo test` builds, brought up to date here). Run by
// `./scripts/test e2e` or `node --test e2e/compare.test.mjs`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve } from './serve.mjs';
import { cliBinary } from './cli.mjs';
import { launch, open } from './browser.mjs';
import { shown } from './format.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let CLI; // cliBinary() (e2e/cli.mjs), in `before`

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
  CLI = cliBinary();
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

test('with seeds=3 a compare link shows each side as the mean of three seeds, and says when a change is within them', async () => {
  // rr-kbuild's elapsed time moves by several percent from one seed to the next, so one run
  // per side cannot tell rr_interval's effect from noise (issue 17).
  const base = ['--preset', 'rr-kbuild'];
  const bSet = ['--set', 'rr_interval=1ms'];
  const seed = JSON.parse(execFileSync(CLI, ['run', ...base, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 })).config.seed;
  const runs = (args) => [0, 1, 2].map((r) => cli([...args, '--set', `seed=${Number(seed) + r}`]));
  const stats = (ms, k) => {
    const v = ms.map((m) => m[k]);
    return { mean: v.reduce((x, y) => x + y, 0) / v.length, min: Math.min(...v), max: Math.max(...v) };
  };
  const [as, bs] = [runs(base), runs([...base, ...bSet])];
  const a = stats(as, 'elapsed_s');
  const b = stats(bs, 'elapsed_s');
  assert.ok(new Set(as.map((m) => m.elapsed_s)).size > 1, 'the seeds differ');
  const browser = await launch({ width: 1280, height: 800 });
  try {
    const link = '/?v=1&preset=rr-kbuild&seeds=3&compare=1&b.rr_interval=1ms';
    const { page, problems } = await open(browser.context, new URL(link, server.url).href);
    await page.waitForSelector('.compare table[data-seeds="3"]', { timeout: 180_000 });
    await page.waitForSelector('.toolbar .status.ok', { timeout: 60_000 });
    const got = await page.evaluate(() => {
      const row = document.querySelector('.compare tr[data-compare=elapsed_s]');
      const v = (side) => Number(row.querySelector(`td[data-side=${side}]`).getAttribute('data-value'));
      const mean = document.querySelector('.seeds-stats');
      return {
        a: v('a'),
        b: v('b'),
        delta: row.querySelector('td.delta').className,
        note: document.querySelector('.compare .seeds-note')?.textContent ?? '',
        main: Number(mean?.getAttribute('data-mean')),
        n: mean?.getAttribute('data-n'),
      };
    });
    const close = (x, y) => Math.abs(x - y) <= 1e-9 * Math.abs(y);
    assert.ok(close(got.a, a.mean), `A's mean ${got.a} vs the CLI's ${a.mean}`);
    assert.ok(close(got.b, b.mean), `B's mean ${got.b} vs the CLI's ${b.mean}`);
    assert.ok(close(got.main, b.mean) && got.n === '3', `the main figure is B's mean: ${JSON.stringify(got)}`);
    const overlap = a.min <= b.max && b.min <= a.max;
    assert.equal(got.delta.includes('noise'), overlap, `within the seed ranges exactly when they overlap: ${JSON.stringify({ a, b, got })}`);
    if (overlap) assert.ok(!/better|worse/.test(got.delta), 'a change within the seed range is not coloured');
    assert.match(got.note, /mean of 3 seeds/);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

/** The `Amean` rows of a copied table: metric -> [A, B] as printed. */
function ameans(text) {
  return Object.fromEntries(text.split('\n').filter((l) => l.startsWith('Amean ')).map((l) => {
    const [, metric, a, b] = l.trim().split(/\s+/);
    return [metric, [Number(a), Number(b)]];
  }));
}

test('"Copy as text" gives the A/B table for an email with the CLI compare\'s numbers (issue 30)', async () => {
  const json = JSON.parse(execFileSync(CLI, ['compare', ...BASE, '--b', 'nohz_exit_reprograms=1', '--seeds', '1', '--json'],
    { encoding: 'utf8', maxBuffer: 1 << 26 }));
  const browser = await launch({ width: 1280, height: 800 });
  try {
    // Without the clipboard permission the page shows the text selected in a field instead:
    // grant it, and read either.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { page, problems } = await open(browser.context, new URL(LINK, server.url).href);
    await finalFigures(page);
    await page.click('.compare button.copy-as-text');
    await page.waitForSelector('.compare .copy-text [role=status]', { timeout: 10_000 });
    const field = await page.$('.compare textarea.copied-text');
    const text = field ? await field.inputValue() : await page.evaluate(() => navigator.clipboard.readText());
    const lines = text.split('\n');
    assert.ok(lines.every((l) => l.length <= 72 || /^https?:\/\//.test(l)), `72 columns but the link:\n${text}`);
    const link = lines[lines.indexOf('link:') + 1];
    assert.equal(new URL(link).origin, new URL(server.url).origin, text);
    // The configs close the text (wrapped at 72 columns): A's keys against the defaults
    // (the preset's kernel and machine; loops=100000 is the default), then B's change.
    assert.match(text, /^A: [^]*kernel=3\.11[^]*^B: A with nohz_exit_reprograms=1$/m);
    assert.match(text, /^A: [^]*nohz_exit_reprograms=2[^]*^B: /m);
    const got = ameans(text);
    assert.deepEqual(Object.keys(got), json.rows.map((r) => r.metric));
    for (const r of json.rows) {
      for (const [side, v] of [[0, r.a.mean], [1, r.b.mean]]) {
        const g = got[r.metric][side];
        assert.ok(Math.abs(g - v) <= Math.abs(v) * 5e-4 + 1e-9, `${r.metric} ${side ? 'B' : 'A'}: page ${g}, CLI ${v}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
