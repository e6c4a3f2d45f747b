// Share, embed, export and import in headless Chromium against the built site (dist/):
// the link restores the config and follows changes, bad links explain themselves, copy link,
// the embed in a reveal.js deck and in a plain docs page (renders, pans on drag, screenshots
// in e2e/out/), Perfetto/CSV/PNG export through real downloads (each plot's PNG in both
// themes is saved to e2e/out/ to look at), and rt-app import by file picker and by drag and drop. Run by `./scripts/test e2e` or `node --test e2e/`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = new URL('./out/', import.meta.url);
let server;
let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  server = await serve(DIST, 0, {
    '/hosts/': `${ROOT}/e2e/hosts`,
    '/vendor/reveal.js/': `${ROOT}/node_modules/reveal.js`,
  });
  browser = await launch({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const url = (path) => new URL(path, server.url).href;

/** Opens `path` and waits for the app's controls. */
async function app(path) {
  const { page, problems } = await open(browser.context, url(path));
  await page.waitForSelector('select[name=preset]', { timeout: 20_000 });
  return { page, problems };
}

/** Waits until the current run's result is shown. */
async function settled(page) {
  await page.waitForSelector('.status.ok', { timeout: 30_000 });
}

test('a link sets the preset and the keys, changes follow into the address bar, reload restores', async () => {
  const { page, problems } = await app('/?v=1&preset=rr-kbuild&rr_interval=5000ms');
  assert.equal(await page.locator('select[name=preset]').inputValue(), 'rr-kbuild');
  assert.equal(await page.locator('input[name=rr_interval-text]').inputValue(), '5s', '5000ms printed back as 5s');
  await settled(page);
  const historyBefore = await page.evaluate(() => history.length);

  // Three quick edits: the address bar catches up once, without new history entries.
  for (const v of ['7ms', '9ms', '8ms']) {
    await page.fill('input[name=rr_interval-text]', v);
    await page.press('input[name=rr_interval-text]', 'Enter');
  }
  await page.waitForFunction(() => location.search.includes('rr_interval=8ms'), null, { timeout: 5_000 });
  const search = await page.evaluate(() => location.search);
  assert.equal(search, '?v=1&preset=rr-kbuild&rr_interval=8ms');
  assert.equal(await page.evaluate(() => history.length), historyBefore, 'replaceState, not pushState');

  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('select[name=preset]', { timeout: 20_000 });
  assert.equal(await page.locator('input[name=rr_interval-text]').inputValue(), '8ms');
  assert.equal(await page.locator('select[name=preset]').inputValue(), 'rr-kbuild');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a hostile link loads, lists what it ignored, and the page keeps working', async () => {
  const hostile =
    '/?v=9&preset=nope&cores=999&bogus=%ZZ&hz=1000&view=%3Cscript%3Ealert(1)%3C/script%3E' +
    '&rr_interval=-1&' + 'x=1&'.repeat(30) + 'duration=100000s';
  const { page, problems } = await app(hostile);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  const notice = page.locator('ul.notices[role=status]');
  await notice.waitFor({ timeout: 10_000 });
  const text = await notice.innerText();
  for (const bit of ['preset=nope', 'cores=999', 'bogus', 'rr_interval=-1', 'duration', '<script>']) {
    assert.ok(text.includes(bit), `the notice does not mention ${bit}:\n${text}`);
  }
  // Valid values are kept; an unknown preset falls back to the default config's preset.
  assert.equal(await page.locator('select[name=hz]').inputValue(), '1000');
  assert.equal(await page.locator('select[name=preset]').inputValue(), 'intro');
  // Still working: a run finishes and a control change is taken.
  await settled(page);
  await page.waitForSelector('canvas');
  await page.fill('input[name=cores-text]', '3');
  await page.press('input[name=cores-text]', 'Enter');
  await page.waitForFunction(() => location.search.includes('cores=3'), null, { timeout: 5_000 });
  const search = await page.evaluate(() => location.search);
  assert.ok(!search.includes('bogus') && !search.includes('script'), `the cleaned link: ${search}`);
  // Dismissable.
  await notice.locator('button.dismiss').first().click();
  await page.waitForFunction(() => !document.querySelector('ul.notices'));
  assert.equal(await page.locator('script:not([src]):not([type])').count() <= 1, true);
  assert.deepEqual(dialogs, [], 'nothing from the URL ran');
  assert.deepEqual(problems, []);
  await page.close();
});

test('Copy link puts the share link on the clipboard', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  const { page, problems } = await app('/?v=1&preset=nohz-pipe&cores=4');
  await page.click('button[name=copy-link]');
  const field = page.locator('input[name=share-link]');
  await field.waitFor();
  const expected = url('/?v=1&preset=nohz-pipe&cores=4');
  assert.equal(await field.inputValue(), expected);
  await page.waitForSelector('.copied:has-text("copied"), .copied:has-text("Ctrl+C")');
  const status = await page.locator('.copied').innerText();
  if (status.includes('Link copied')) {
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
  } else {
    // The fallback: the link is selected for Ctrl+C.
    const selected = await page.evaluate(() => {
      const i = document.querySelector('input[name=share-link]');
      return document.activeElement === i && i.selectionStart === 0 && i.selectionEnd === i.value.length;
    });
    assert.ok(selected, 'the fallback field is focused and selected');
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Embed dialog makes an iframe snippet of the chosen views', async () => {
  const { page, problems } = await app('/?v=1&preset=rr-kbuild');
  await page.click('button[name=embed]');
  const snippet = page.locator('textarea[name=embed-snippet]');
  await snippet.waitFor();
  await page.check('input[name=embed-view][value=plot]');
  await page.uncheck('input[name=embed-view][value=metrics]');
  const text = await snippet.inputValue();
  assert.match(text, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?v=1&amp;preset=rr-kbuild&amp;embed=1&amp;view=timeline,plot" width="960" height="540" loading="lazy" title="schedscope"/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** Non-background pixels and distinct colours of the first canvas in `frame`. */
async function canvasInk(frame) {
  return frame.evaluate(() => {
    const c = document.querySelector('canvas');
    if (!c || !c.width || !c.height) return { ink: 0, colours: 0 };
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const bg = `${d[0]},${d[1]},${d[2]},${d[3]}`;
    const colours = new Set();
    let ink = 0;
    for (let i = 0; i < d.length; i += 16) {
      const k = `${d[i]},${d[i + 1]},${d[i + 2]},${d[i + 3]}`;
      colours.add(k);
      if (k !== bg) ink++;
    }
    return { ink, colours: colours.size, total: d.length / 16 };
  });
}

/** Checks the embed inside `page`: renders, fits, pans on a drag, links to the full app. */
async function checkEmbed(page, shot) {
  const handle = await page.waitForSelector('iframe', { timeout: 20_000 });
  const frame = await handle.contentFrame();
  await frame.waitForSelector('canvas', { timeout: 30_000 });
  await frame.waitForFunction(() => !document.querySelector('.status.running'), null, { timeout: 30_000 });
  // Minimal chrome: no controls panel, no share bar.
  assert.equal(await frame.locator('aside.controls, .sharebar').count(), 0);
  let ink = { ink: 0 };
  for (let i = 0; i < 50 && ink.ink < 200; i++) {
    await page.waitForTimeout(200);
    ink = await canvasInk(frame);
  }
  assert.ok(ink.ink >= 200 && ink.colours >= 4, `the embedded timeline is blank: ${JSON.stringify(ink)}`);
  // Fits the frame: the document itself does not scroll.
  const fit = await frame.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    w: innerWidth,
  }));
  assert.ok(fit.sw <= fit.w + 1, `the embed scrolls sideways: ${JSON.stringify(fit)}`);
  // The link to the full app keeps the config and drops embedding.
  const href = await frame.getAttribute('a.open-full', 'href');
  assert.ok(href.startsWith('?v=1&preset=') && !href.includes('embed'), href);

  // Zoom in, then drag: the visible window (in the canvas's aria-label) moves.
  const canvas = frame.locator('canvas').first();
  await frame.click('button[aria-label="Zoom in"]');
  await frame.click('button[aria-label="Zoom in"]');
  await page.waitForTimeout(200);
  const before = await canvas.getAttribute('aria-label');
  const box = await canvas.boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (0.3 + 0.04 * i), y);
  await page.mouse.up();
  await page.waitForTimeout(300);
  const afterDrag = await canvas.getAttribute('aria-label');
  assert.notEqual(afterDrag, before, 'the timeline did not pan on a drag');
  await page.screenshot({ path: fileURLToPath(new URL(shot, OUT)) });
}

test('embedded in a reveal.js deck: renders, pans on a drag, screenshot', async () => {
  const { page, problems } = await open(browser.context, url('/hosts/reveal.html'));
  await page.waitForFunction(() => window.Reveal?.isReady?.(), null, { timeout: 10_000 });
  await checkEmbed(page, 'embed-reveal.png');
  assert.deepEqual(problems, []);
  await page.close();
});

test('embedded in a plain docs page: renders, pans on a drag, screenshot', async () => {
  const { page, problems } = await open(browser.context, url('/hosts/docs.html'));
  await checkEmbed(page, 'embed-docs.png');
  const frame = await (await page.$('iframe')).contentFrame();
  await frame.waitForSelector('figure.plot.sweep svg', { timeout: 20_000 });
  assert.equal(await frame.locator('[data-view]').count(), 2, 'only the two views of view=timeline,plot');
  assert.deepEqual(problems, []);
  await page.close();
});

/** Clicks the export button `label` and resolves to the downloaded file's name and bytes. */
async function download(page, label) {
  // The exports live in the share bar's "Export…" menu.
  if (!(await page.isVisible(`button[data-export="${label}"]`))) await page.click('details.exports > summary');
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`button[data-export="${label}"]`)]);
  return { name: d.suggestedFilename(), body: await readFile(await d.path()) };
}

/** Size and top-left pixel of a PNG, read from its chunks (IHDR, IDAT) by hand. */
function readPng(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(buf.toString('ascii', 12, 16), 'IHDR', 'IHDR comes first');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const [depth, colourType] = [buf[24], buf[25]];
  const idat = [];
  for (let at = 8; at < buf.length; ) {
    const len = buf.readUInt32BE(at);
    if (buf.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  // The first pixel of the first row is stored as is whatever the row's filter (nothing is
  // above or left of it), right after the filter byte.
  const raw = inflateSync(Buffer.concat(idat));
  const channels = { 2: 3, 6: 4 }[colourType];
  assert.ok(depth === 8 && channels, `8-bit RGB(A) expected, got depth ${depth} colour type ${colourType}`);
  return { width, height, topLeft: [...raw.subarray(1, 4)] };
}

/** `#rrggbb`, `#rgb` (the release build's minified CSS writes `--panel: #fff`) or
 * `rgb(r, g, b)` as [r, g, b]. */
function rgb(css) {
  const hex = css.trim().match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
  if (hex) return hex.slice(1).map((h) => parseInt(h, 16));
  const short = css.trim().match(/^#([0-9a-f])([0-9a-f])([0-9a-f])$/i);
  if (short) return short.slice(1).map((h) => parseInt(h + h, 16));
  return css.match(/\d+/g).slice(0, 3).map(Number);
}

test('exports: Perfetto JSON, metrics CSV and timeline PNG download', async () => {
  const { page, problems } = await app('/?v=1&preset=nohz-pipe');
  await settled(page);
  const trace = await download(page, 'Perfetto JSON');
  assert.equal(trace.name, 'schedscope-nohz-pipe.perfetto.json');
  const json = JSON.parse(trace.body.toString('utf8'));
  assert.ok(Array.isArray(json.traceEvents) && json.traceEvents.length > 10, 'traceEvents');
  assert.ok(json.traceEvents.some((e) => e.ph === 'X'), 'running slices');
  const csv = await download(page, 'Metrics CSV');
  assert.equal(csv.name, 'schedscope-nohz-pipe-metrics.csv');
  // The config and the link come with the figures (issue 29: B only, neither config nor link).
  const csvLines = csv.body.toString('utf8').split(/\r?\n/);
  assert.equal(csvLines[0], 'key,value');
  assert.equal(csvLines[1], 'config,preset=nohz-pipe');
  assert.match(csvLines[2], /^link,http:\/\/[^,]+\?v=1&preset=nohz-pipe$/);
  const png = await download(page, 'Timeline PNG');
  assert.deepEqual([...png.body.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
  const lum = (px) => px[0] + px[1] + px[2];
  assert.ok(lum(readPng(png.body).topLeft) > 600, 'light scheme: a light timeline image');
  // In the dark scheme the timeline PNG is dark too, like the screen and the plots' PNGs.
  await page.emulateMedia({ colorScheme: 'dark' });
  const darkPng = await download(page, 'Timeline PNG');
  assert.ok(lum(readPng(darkPng.body).topLeft) < 200, 'dark scheme: a dark timeline image');
  await page.emulateMedia({ colorScheme: 'light' });
  const svg = await download(page, 'Sweep SVG');
  assert.match(svg.body.toString('utf8'), /<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports with A pinned: named after both configs, the CSV has A and B with each config and the link', async () => {
  const { page, problems } = await app('/?v=1&preset=intro&workload=hackbench&groups=2&compare=1&b.hz=1000');
  await page.waitForSelector('.compare td[data-side=a][data-metric=elapsed_s]', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('.toolbar .status.ok') && !document.querySelector('.compare table[data-updating=true]'), null, { timeout: 60_000 });
  const csv = await download(page, 'Metrics CSV');
  assert.equal(csv.name, 'schedscope-intro-hackbench-groups-2-vs-hz-1000-metrics.csv');
  const lines = csv.body.toString('utf8').trimEnd().split(/\r?\n/);
  assert.equal(lines[0], 'key,A,B');
  assert.equal(lines[1], 'config,preset=intro&workload=hackbench&groups=2,preset=intro&hz=1000&workload=hackbench&groups=2', 'each config in the order of config::KEYS');
  assert.match(lines[2], /^link,(http[^,]+compare=1&b\.hz=1000),\1$/, 'the share link (A/B) in each column');
  const row = (k) => lines.find((l) => l.startsWith(`${k},`))?.split(',');
  const [, a, b] = row('ticks');
  assert.ok(Number(a) > 0 && Number(b) > Number(a), `A's ticks at HZ=250, B's at HZ=1000: ${a}, ${b}`);
  assert.equal((await download(page, 'Perfetto JSON')).name, 'schedscope-intro-hackbench-groups-2-vs-hz-1000.perfetto.json');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the timeline PNG of a cut trace says which stretch it holds, and holds that stretch', async () => {
  const { page, problems } = await app('/?v=1&preset=nohz-pipe&loops=100000');
  await settled(page);
  await page.waitForSelector('.timeline-note');
  const title = await page.getAttribute('button[data-export="Timeline PNG"]', 'title');
  assert.doesNotMatch(title, /whole timeline/, 'a cut trace is not the whole timeline');
  assert.match(title, /the first [0-9.]+ [mµu]?s of the [0-9.]+ [mµu]?s run/, title);
  const png = await download(page, 'Timeline PNG');
  assert.ok(readPng(png.body).width >= 1600, 'a PNG');
  await writeFile(new URL('export-timeline-cut.png', OUT), png.body);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports: each plot as a PNG (light and dark) and the sweep as CSV with every metric per point', async () => {
  const { page, problems } = await app('/?v=1&preset=nohz-pipe');
  await settled(page);
  // The sweep panel is drawn by the views module, loaded after the first figure.
  await page.waitForSelector('figure.plot.sweep', { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, { timeout: 180_000 });

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const panel = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--panel'));
    for (const [label, plot] of [['Sweep PNG', 'sweep'], ['Distribution PNG', 'dist']]) {
      const box = await page.locator(`figure.plot.${plot} svg`).boundingBox();
      const file = await download(page, label);
      assert.equal(file.name, `schedscope-nohz-pipe-${plot === 'dist' ? 'distribution' : 'sweep'}.png`);
      const png = readPng(file.body);
      assert.ok(png.width >= 2 * Math.floor(box.width) && png.height >= 2 * Math.floor(box.height),
        `${label}: ${png.width}x${png.height} for a ${box.width}x${box.height} plot (2x at least)`);
      await writeFile(new URL(`export-${scheme}-${plot}.png`, OUT), file.body);
      assert.deepEqual(png.topLeft, rgb(panel), `${label} in ${scheme}: the background is the panel's colour`);
    }
  }
  assert.equal(await page.locator('.sharebar [role=alert]').count(), 0, 'no export error shown');

  const key = await page.getAttribute('figure.plot.sweep', 'data-sweep-key');
  const points = await page.locator('figure.plot.sweep svg circle').count();
  const file = await download(page, 'Sweep CSV');
  assert.equal(file.name, `schedscope-nohz-pipe-sweep-${key}.csv`);
  const lines = file.body.toString('utf8').trimEnd().split(/\r?\n/);
  const header = lines[0].split(',');
  assert.deepEqual(header.slice(0, 2), ['param', 'value']);
  for (const col of ['throughput', 'elapsed_s', 'context_switches', 'wakeup_latency_p99', 'user_s']) {
    assert.ok(header.includes(col), `no ${col} column in ${lines[0]}`);
  }
  assert.equal(lines.length - 1, points, 'one row per point of the plot');
  // Values do not hold commas or quotes in these columns, so a split is enough to read them.
  const col = (name) => header.indexOf(name);
  const rows = lines.slice(1).map((l) => l.split(','));
  assert.ok(rows.every((r) => r[0] === key), 'the swept key');
  assert.equal(new Set(rows.map((r) => r[1])).size, points, 'a different value on each row');
  for (const r of rows) {
    assert.ok(Number.isFinite(Number(r[col('throughput')])) && r[col('throughput')] !== '', `throughput: ${r}`);
    assert.ok(Number(r[col('context_switches')]) > 0, `context switches: ${r}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('rt-app import: a file sets the workload, a broken one changes nothing and names the field', async () => {
  const { page, problems } = await app('/?v=1&preset=rr-kbuild');
  // rr-kbuild runs make -j: rt-app's tasks do not apply, so the knob is not listed (issue 29).
  assert.equal(await page.locator('input[name=tasks]').count(), 0, 'tasks hidden for kbuild');
  await page.click('button.show-unused');
  const before = await page.locator('input[name=tasks]').inputValue();
  await page.click('button.show-unused');
  await page.setInputFiles('input[name=rtapp-import]', `${ROOT}/tests/data/rtapp/periodic.json`);
  await page.waitForSelector('ul.notices:has-text("Imported periodic.json")');
  assert.equal(await page.locator('select[name=workload]').inputValue(), 'rtapp');
  const tasks = await page.locator('input[name=tasks]').inputValue();
  assert.notEqual(tasks, before);
  await page.waitForFunction(() => location.search.includes('workload=rtapp'), null, { timeout: 5_000 });

  await page.setInputFiles('input[name=rtapp-import]', {
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ "tasks": { "t0": { "run": -5, "sleep": 1000 } } }'),
  });
  const bad = page.locator('ul.notices li:has-text("Cannot import broken.json")');
  await bad.waitFor();
  assert.match(await bad.innerText(), /tasks\.t0/);
  assert.equal(await page.locator('input[name=tasks]').inputValue(), tasks, 'nothing changed');

  // Drag and drop onto the page imports too.
  const dropped = await readFile(`${ROOT}/tests/data/rtapp/video-phases.json`, 'utf8');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'video-phases.json', { type: 'application/json' }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, dropped);
  await page.waitForSelector('ul.notices:has-text("Imported video-phases.json")');
  assert.notEqual(await page.locator('input[name=tasks]').inputValue(), tasks);
  assert.deepEqual(problems, []);
  await page.close();
});

test('tour import: a tour file opens at its first step, a broken one names its line', async () => {
  // Read by a worker of its own (Request::Import): the page's wasm has no JSON parser.
  const { page, problems } = await app('/?v=1');
  const tour = (await readFile(`${ROOT}/src/ui/tour/tours/intro.json`, 'utf8'))
    .replace('"name": "intro"', '"name": "my-tour"').replace('"title": "Why', '"title": "Mine: why');
  const broken = tour.replace('"preset": "intro"', '"preset": "nope"');
  await page.setInputFiles('input[name=rtapp-import]', { name: 'broken-tour.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  const bad = page.locator('ul.notices li:has-text("Cannot import the tour broken-tour.json")');
  await bad.waitFor();
  assert.match(await bad.innerText(), /line 4: unknown preset 'nope'/);
  assert.equal(await page.locator('section.tour').count(), 0, 'nothing opened');
  await page.setInputFiles('input[name=rtapp-import]', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(tour) });
  await page.waitForSelector('ul.notices:has-text("Imported the tour \'Mine: why")');
  await page.waitForSelector('section.tour[data-step="1"]');
  await page.waitForFunction(() => location.search.includes('tour=my-tour'), null, { timeout: 5_000 });
  assert.match(await page.textContent('.tour-question'), /HZ goes from 250 to 1000/);
  assert.deepEqual(problems, []);
  await page.close();
});
