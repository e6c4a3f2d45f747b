// Issue 29 polish at a laptop's 1024x768 and a phone's 390x844, in headless Chromium against
// dist/: the replay's task table fits its column at 1024 px (its grouped "Wakeup latency"
// header was cut to "Wa"), the picked row is framed once (the row's outline and its name
// cell's frame were both drawn), the table still scrolls inside its own box on a phone, and
// the timeline toolbar takes two rows on a phone (it took three). Run by `./scripts/test e2e`
// or `node --test e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const FIXTURE = fileURLToPath(new URL('../tests/fixtures/traces/trace_cmd_basic.txt', import.meta.url));
let server;

before(async () => {
  server = await serve(DIST, 0);
});

after(async () => {
  await server?.close();
});

/** The page at `viewport`, its first run shown; `trace` also imports the fixture and picks ping-101. */
async function at(viewport, trace, body) {
  const browser = await launch(viewport);
  try {
    const { page, problems } = await open(browser.context, new URL('/?v=1', server.url).href);
    await page.waitForSelector('.status.ok', { timeout: 60_000 });
    if (trace) {
      await page.setInputFiles('input[name="trace-import"]', FIXTURE);
      await page.waitForSelector('table.trace-tasks tbody tr', { timeout: 60_000 });
      await page.click('table.trace-tasks tbody tr >> text=ping-101');
      await page.waitForSelector('table.trace-tasks tr.picked');
    }
    await body(page);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
}

/** The task table's box and its grouped header's right edge against the box's. */
function taskTable(page) {
  return page.evaluate(() => {
    const table = document.querySelector('table.trace-tasks');
    const wrap = table.closest('.table-wrap');
    const group = table.querySelector('tr.group th').getBoundingClientRect();
    const picked = table.querySelector('tr.picked');
    return {
      scroll: wrap.scrollWidth,
      width: wrap.clientWidth,
      groupRight: group.right,
      wrapRight: wrap.getBoundingClientRect().right,
      rowOutline: getComputedStyle(picked).outlineStyle,
      nameFrame: getComputedStyle(picked.querySelector('th')).boxShadow,
      pageScroll: document.documentElement.scrollWidth > innerWidth,
    };
  });
}

test('at 1024 px the task table fits its column, "Wakeup latency" whole, the picked row framed once', async () => {
  await at({ width: 1024, height: 768 }, true, async (page) => {
    const t = await taskTable(page);
    assert.ok(t.scroll <= t.width + 1, `the table scrolls sideways at 1024 px: ${JSON.stringify(t)}`);
    assert.ok(t.groupRight <= t.wrapRight + 1, `"Wakeup latency" runs past the box: ${JSON.stringify(t)}`);
    assert.ok(t.rowOutline === 'none' || t.nameFrame === 'none', `two frames on the picked row: ${JSON.stringify(t)}`);
    assert.notEqual(t.nameFrame, 'none', 'the picked row is still framed');
  });
});

test('on a phone the task table scrolls inside its box, not the page', async () => {
  await at({ width: 390, height: 844 }, true, async (page) => {
    const t = await taskTable(page);
    assert.ok(t.scroll > t.width, `expected the table to scroll in its box: ${JSON.stringify(t)}`);
    assert.ok(!t.pageScroll, 'the page scrolls sideways');
  });
});

test('on a phone the timeline toolbar takes two rows', async () => {
  await at({ width: 390, height: 844 }, false, async (page) => {
    const rows = await page.evaluate(() => {
      const bar = document.querySelector('.timeline-toolbar');
      const mids = [...bar.children].map((c) => { const r = c.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
      mids.sort((a, b) => a - b);
      return mids.reduce((n, m, i) => n + (i === 0 || m - mids[i - 1] > 8 ? 1 : 0), 0);
    });
    assert.ok(rows <= 2, `the toolbar takes ${rows} rows`);
  });
});
