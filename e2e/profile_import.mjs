// Profiles a large trace import on the page (issue 14): imports bigTrace(ROUNDS) (~100 MB at
// the default 125,000 rounds) with the Import trace… button while Chromium records a
// performance trace, then prints the main thread's long tasks, the page's User Timing
// measures (`src/ui/marks.rs`) and every main-thread task over 15 ms with what ran in it
// (layout, paint, animation frame, timer...), so a long task can be put down to one step.
//
// Needs dist/ (trunk build --release --offline). Run: `node e2e/profile_import.mjs`
// (ROUNDS=n for another size, SCHEDSCOPE_DIST=dir for another build; `./scripts/bench
// import` runs it). Not a test: it asserts nothing and ends with a summary line judging the
// issue's bound (no main-thread task over 50 ms, issue 14); e2e/traces.test.mjs keeps the
// functional half (the import's progress, Cancel and result) and logs the long tasks it saw.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';
import { bigTrace } from './big_trace.mjs';

const server = await serve(process.env.SCHEDSCOPE_DIST ?? 'dist');
const b = await launch();
const dir = await mkdtemp(join(tmpdir(), 'schedscope-profile-'));
try {
  const { page } = await open(b.context, new URL('/?v=1', server.url).href);
  await page.waitForFunction(() => document.querySelector('section.metrics')?.getAttribute('aria-busy') === 'false',
    null, { timeout: 60_000 });
  const file = join(dir, 'big.txt');
  await writeFile(file, bigTrace(Number(process.env.ROUNDS ?? 125_000)));

  const cdp = await b.context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,toplevel',
    transferMode: 'ReportEvents',
  });
  await page.evaluate(() => {
    window.__long = [];
    performance.clearMeasures();
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); })
      .observe({ type: 'longtask' });
  });
  await page.setInputFiles('input[name="trace-import"]', file);
  await page.waitForFunction(() => performance.getEntriesByName('schedscope timeline: first frame').length > 0,
    null, { timeout: 120_000 });
  await page.waitForTimeout(1000);
  const long = await page.evaluate(() => window.__long);
  console.log('long tasks (ms):', JSON.stringify(long));
  const os = await import('node:os');
  console.log(`summary: longest main-thread task ${Math.max(0, ...long)} ms, ${long.filter((d) => d > 50).length} over 50 ms ` +
    `(bound: none; ${long.every((d) => d <= 50) ? 'met' : 'NOT met'}), load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  const marks = await page.evaluate(() => performance.getEntriesByType('measure')
    .filter((m) => m.name.startsWith('schedscope ')).map((m) => `${m.name.slice(11)} ${m.duration.toFixed(1)} ms`));
  console.log('measures:', marks.join(', '));
  await cdp.send('Tracing.end');
  await complete;

  // The page's main thread: the renderer main thread that holds its measures (a browser may
  // have more than one renderer).
  const mark = events.find((e) => e.cat?.includes('user_timing') && e.name.startsWith('schedscope'));
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain'
    && (!mark || (e.pid === mark.pid && e.tid === mark.tid)));
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const timing = mine.filter((e) => e.cat?.includes('user_timing') && e.name.startsWith('schedscope') && e.ph === 'b');
  const start = timing.length ? Math.min(...timing.map((e) => e.ts)) - 5e6 : 0;
  const tasks = mine.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.dur > 15_000 && e.ts > start);
  for (const t of tasks) {
    const named = timing.filter((e) => e.ts >= t.ts && e.ts <= t.ts + t.dur).map((e) => e.name.slice(11));
    console.log(`task ${(t.dur / 1000).toFixed(1)} ms${named.length ? ` (${named.join(', ')})` : ''}`);
    const parts = mine.filter((e) => e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 1000
      && ['FireAnimationFrame', 'TimerFire', 'HandlePostMessage', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint',
        'Paint', 'Commit', 'EvaluateScript', 'FunctionCall'].includes(e.name));
    for (const p of parts) {
      const what = p.args?.data?.type ? ` ${p.args.data.type}` : '';
      console.log(`  +${((p.ts - t.ts) / 1000).toFixed(1)} ${p.name}${what} ${(p.dur / 1000).toFixed(1)} ms`);
    }
  }
} finally {
  await b.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
