// Screenshots of the built site for people to look at (not a test): desktop 1280x800, wide 1920x1080,
// laptop 1024x768, projector 960x540 and phone 390x844, per scenario, into e2e/out/ (gitignored) as
// <size>-<scenario>.png (the whole page) and <size>-<scenario>-fold.png (what shows without
// scrolling). SIZES=desktop,phone picks sizes; OUT=/some/dir writes there instead.
//
//   node e2e/screens.mjs                  every scenario
//   node e2e/screens.mjs rr-kbuild seeds  only these
//
// Scenarios: each preset by name (chosen with the preset select), `seeds` (the
// Experiments tab), `compare` (intro pinned as A, B at HZ=1000), `tour` (Seed 3's tour at
// step 1, answered: the reveal), `embed-tour`, `embed-compare` (a tour step's embed, an A/B embed at a stretch), `compare-seeds` (rr-kbuild A/B, each the mean of 3
// seeds, with A's level on the sweep), `traces` (a recorded trace imported, replayed under
// EEVDF), `compare-link` (a shared
// nohz-pipe compare link, loops=100000, opened fresh: A runs first, then B), `long-run` (a
// long nohz-pipe run in progress, taken at once), `sweep` (rr-kbuild's sweep of p99 wakeup
// latency, 3 seeds a point), `governors` (token-governors under menu / teo / ladder), `counters` (the counter tracks), `trace-reading` / `trace-cancelled` (a 100 MB trace
// read on the page, mid-read, then cancelled), `heatmap` (rr_interval x jobs with the Pareto view), `topology` (80 CPUs over two sockets: lanes grouped), and `dark`, `dark-seeds`,
// `dark-compare` (the same in prefers-color-scheme: dark), `p99-wakeup` and
// `compare-a-wakeup` (a latency figure clicked: its wakeup in the inspector, outlined), `migration`
// (the inspector on a run after a move: why the task moved). Needs dist/
// (trunk build --release --offline). Prints each file and any problem the page logged.

import { mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';
import { bigTrace } from './big_trace.mjs';

const ALL_SIZES = {
  desktop: { width: 1280, height: 800 },
  wide: { width: 1920, height: 1080 },
  laptop: { width: 1024, height: 768 },
  projector: { width: 960, height: 540 },
  phone: { width: 390, height: 844 },
};
const SIZES = Object.fromEntries(
  Object.entries(ALL_SIZES).filter(([k]) => !process.env.SIZES || process.env.SIZES.split(',').includes(k)),
);
const PRESETS = [
  'intro', 'hrtick-iperf', 'rr-kbuild', 'nohz-pipe', 'eevdf-vs-cfs',
  'hackbench-wakeup-gran-clx', 'hackbench-wakeup-gran-zen3', 'messaging-run-to-parity', 'token-governors',
];

/** Waits until the current run is shown and the sweep finished (or `ms` passed). The sweep
 * panel comes from the views module, loaded after the first figure: its figure first. */
async function settle(page, ms = 60_000) {
  await page.waitForSelector('.status.ok', { timeout: ms }).catch(() => {});
  await page.waitForFunction(() => {
    const s = document.querySelector('section[aria-label=Sweep]');
    return !s || s.querySelector('.sweep-mount figure.plot, [role=alert], :scope > p.note:not(.sweep-loading)');
  }, null, { timeout: ms }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, { timeout: ms })
    .catch(() => {});
}

/** Opens the phone drawer if it is closed, so the controls are reachable. */
async function openDrawer(page) {
  await page.evaluate(() => {
    const d = document.querySelector('details.drawer');
    if (d && !d.open) d.open = true;
  });
}

const scenarios = {
  ...Object.fromEntries(PRESETS.map((p) => [p, async (page) => {
    await openDrawer(page);
    await page.selectOption('select[name=preset]', p);
    await settle(page);
  }])),
  seeds: async (page) => {
    await page.getByRole('button', { name: 'Experiments' }).click();
    await page.waitForSelector('.seed table', { timeout: 180_000 }).catch(() => {});
    // Every table in (the scoreboard is final), or as far as five minutes got.
    await page.waitForFunction(() => ![...document.querySelectorAll('p.note[role=status]')]
      .some((p) => p.textContent.includes('tables in')), null, { timeout: 300_000 }).catch(() => {});
  },
  compare: async (page) => {
    await settle(page);
    await page.getByRole('button', { name: 'Pin as A' }).click();
    await openDrawer(page);
    await page.selectOption('select[name=hz]', '1000');
    await settle(page);
  },
  // A long run in progress (nohz-pipe with ten times its round trips): the status line's
  // progress and Cancel button.
  'long-run': async (page) => {
    await page.goto(new URL('/?v=1&preset=nohz-pipe&loops=10000000&max_events=100000000', page.url()).href);
    await page.waitForSelector('.status.progress', { timeout: 60_000 }).catch(() => {});
  },
  // The sweep with another metric on its y axis and a min-max band of 3 seeds (rr-kbuild).
  sweep: async (page) => {
    await page.goto(new URL('/?v=1&preset=rr-kbuild&sweep_y=wakeup_latency_p99&replicas=3', page.url()).href);
    await settle(page, 120_000);
  },
  // Issue 29: hackbench with 208 groups on intro (its sweep's points stop at the budget,
  // so none is drawn as a result); the kernel swept on intro (names on the x axis); a
  // heatmap of hz x cores (within the profile's CPUs, you-are-here outlined).
  hackbench: async (page) => {
    await page.goto(new URL('/?v=1&preset=intro&kernel=6.12&workload=hackbench&groups=208', page.url()).href);
    await settle(page, 180_000);
    await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, { timeout: 180_000 }).catch(() => {});
  },
  'sweep-kernel': async (page) => {
    await page.goto(new URL('/?v=1&preset=intro&sweep=kernel&sweep_y=throughput', page.url()).href);
    await settle(page);
    await page.waitForFunction(() => !document.querySelector('figure.plot.sweep .progress'), null, { timeout: 180_000 }).catch(() => {});
  },
  'heatmap-cores': async (page) => {
    await page.goto(new URL('/?v=1&preset=intro&sweep=hz&sweep2=cores&sweep_y=throughput', page.url()).href);
    await page.waitForSelector('figure.plot.heatmap', { timeout: 60_000 }).catch(() => {});
    await page.waitForFunction(() => !document.querySelector('figure.plot.heatmap .progress'), null, { timeout: 180_000 })
      .catch(() => {});
  },
  // A 2-D sweep: rr_interval x jobs on rr-kbuild as a heatmap, with the Pareto view.
  heatmap: async (page) => {
    await page.goto(new URL('/?v=1&preset=rr-kbuild&sweep2=jobs&sweep_y=throughput&pareto=wakeup_latency_p99', page.url()).href);
    await page.waitForSelector('figure.plot.heatmap', { timeout: 60_000 }).catch(() => {});
    await page.waitForFunction(() => !document.querySelector('figure.plot.heatmap .progress'), null, { timeout: 180_000 })
      .catch(() => {});
  },
  // Issue 29: a busy run's p99 clicked (the worker finds that wakeup, the stretch holding
  // it loads, the inspector opens it outlined), and in A/B compare A's p99 in the table.
  'p99-wakeup': async (page) => {
    await page.goto(new URL('/?v=1&preset=messaging-run-to-parity&duration=30ms', page.url()).href);
    await settle(page, 120_000);
    await page.click('section.metrics [data-metric="wakeup_latency_p99"] button.open-wakeup');
    await page.waitForSelector('.inspector .inspect-wake', { timeout: 120_000 }).catch(() => {});
  },
  'compare-a-wakeup': async (page) => {
    await page.goto(new URL('/?v=1&preset=nohz-pipe&loops=300&compare=1&b.nohz_exit_reprograms=1', page.url()).href);
    await settle(page, 120_000);
    await page.click('td.a[data-metric="wakeup_latency_p99"] button.open-wakeup', { timeout: 60_000 }).catch(() => {});
    await page.waitForSelector('.inspector .inspect-wake', { timeout: 60_000 }).catch(() => {});
  },
  // The inspector open on a wakeup (issue 15): zoom in, click until the panel shows one.
  inspect: async (page) => {
    await page.goto(new URL('/?v=1&preset=nohz-pipe&loops=2000', page.url()).href);
    await settle(page);
    await page.focus('.timeline canvas[role=img]');
    for (let i = 0; i < 30; i++) await page.keyboard.press('+');
    const box = await page.locator('.timeline canvas[role=img]').boundingBox();
    outer: for (let fy = 0.15; fy < 0.95; fy += 0.08) {
      for (let i = 1; i < 30; i++) {
        await page.mouse.click(box.x + (box.width * i) / 30, box.y + box.height * fy);
        if (await page.$('.inspector .inspect-wake .inspect-bar')) break outer;
      }
    }
    await page.locator('.inspector').scrollIntoViewIfNeeded();
  },
  // Issue 31: why a task moved. A run on the CPU a task was moved to (hackbench on 16 Zen 3
  // CPUs: select_idle_sibling placements, newidle pulls): click runs until the inspector
  // shows a migration, a balancer pull if one comes within the clicks.
  migration: async (page) => {
    // The stretch from 1.3 ms, where the newidle pulls start, in the link (`t0`, `t1`): the
    // keyboard's zoom steps depend on the canvas's width, and on a phone they left the view
    // at the run's first microseconds.
    await page.goto(new URL('/?v=1&cpu=zen3-2s&cores=16&workload=hackbench&groups=2&duration=20ms&t0=1.3ms&t1=2.1ms', page.url()).href);
    await settle(page, 120_000);
    const canvas = page.locator('.timeline canvas[role=img]');
    // A point of the canvas by fraction, the page scrolled first if it is outside the view: on a
    // phone the lanes are taller than the viewport, and a click outside it lands nowhere. The
    // page is scrolled, not the timeline (a wheel over the canvas zooms it).
    const pointAt = async (fx, fy) => {
      let box = await canvas.boundingBox();
      const vh = page.viewportSize().height;
      const y = box.y + box.height * fy;
      if (y < 8 || y > vh - 8) {
        await page.evaluate((dy) => window.scrollBy(0, dy), y - vh / 2);
        box = await canvas.boundingBox();
      }
      return [box.x + box.width * fx, box.y + box.height * fy];
    };
    let first = null;
    let pull = false;
    outer: for (let fy = 0.1; fy < 0.95; fy += 0.05) {
      for (let i = 1; i < 40; i++) {
        await page.mouse.click(...(await pointAt(i / 40, fy)));
        // Past the page's first records the panel finds them on demand: wait for that.
        await page.waitForFunction(() => !document.querySelector('.inspector .inspect-finding'), null, { timeout: 60_000 })
          .catch(() => {});
        if (await page.$('.inspector .inspect-move:not([data-domain=""])')) { pull = true; break outer; }
        if (!first && await page.$('.inspector .inspect-move')) first = [i / 40, fy];
      }
    }
    if (!pull && first) await page.mouse.click(...(await pointAt(...first)));
    await page.locator('.inspector').scrollIntoViewIfNeeded().catch(() => {});
  },
  // The governor comparison (issue 15): token-governors under menu, teo and ladder.
  governors: async (page) => {
    await page.goto(new URL('/?v=1&preset=token-governors', page.url()).href);
    await settle(page);
    await page.getByRole('button', { name: 'Compare menu / teo / ladder on this run' }).click().catch(() => {});
    await page.waitForSelector('table.gov-table[data-done=true]', { timeout: 120_000 }).catch(() => {});
    await page.locator('.gov-compare').scrollIntoViewIfNeeded().catch(() => {});
  },
  // Issue 31: a two-socket machine at all its 80 CPUs (hackbench, 30 groups): the machine's
  // topology beside the cpu control, lanes grouped by socket and LLC, the timeline in view.
  topology: async (page) => {
    await page.goto(new URL('/?v=1&cpu=cascadelake-2s&cores=80&workload=hackbench&groups=30&loops=20', page.url()).href);
    await settle(page, 180_000);
    await page.locator('.timeline canvas[role=img]').scrollIntoViewIfNeeded().catch(() => {});
  },
  // The counter tracks under the lanes (issue 15), zoomed in on nohz-pipe.
  counters: async (page) => {
    await page.goto(new URL('/?v=1&preset=nohz-pipe&loops=2000', page.url()).href);
    await settle(page);
    await page.getByRole('button', { name: 'Counters' }).click().catch(() => {});
    await page.focus('.timeline canvas');
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await page.keyboard.press('Home'); // where the page's decision records are
    await page.locator('canvas.counters').scrollIntoViewIfNeeded().catch(() => {});
  },
  tour: async (page) => {
    await page.goto(new URL('/?tour=nohz-pipe&step=1', page.url()).href);
    await page.waitForSelector('button.tour-choice', { timeout: 30_000 }).catch(() => {});
    await page.click('button.tour-choice[data-choice="0"]').catch(() => {});
    await page.waitForSelector('.tour-figure[aria-busy=false]', { timeout: 120_000 }).catch(() => {});
  },
  // A compare link whose figures are means of 3 seeds (rr-kbuild varies by seed), with A's
  // level on the sweep plot.
  'compare-seeds': async (page) => {
    await page.goto(new URL('/?v=1&preset=rr-kbuild&seeds=3&compare=1&b.rr_interval=1ms', page.url()).href);
    await settle(page, 120_000);
  },
  // A recorded trace (issue 14): the hand-written trace-cmd fixture imported, a task picked,
  // replayed under EEVDF (kernel 6.6); the fold shows the trace panel.
  traces: async (page) => {
    await settle(page);
    const fixture = fileURLToPath(new URL('../tests/fixtures/traces/trace_cmd_basic.txt', import.meta.url));
    await page.setInputFiles('input[name="trace-import"]', fixture);
    await page.waitForSelector('table.trace-tasks tbody tr', { timeout: 60_000 }).catch(() => {});
    await page.click('table.trace-tasks tbody tr >> text=ping-101').catch(() => {});
    await openDrawer(page);
    await page.selectOption('select[name=kernel]', '6.6');
    await page.click('button.replay').catch(() => {});
    await page.waitForSelector('.trace-diffview table.trace-error', { timeout: 60_000 }).catch(() => {});
    await page.locator('section.traces').scrollIntoViewIfNeeded();
  },
  // A trace recorded on a real machine (LISA's Juno fixture, 50 tasks), replayed under the
  // page's config: the error table's latency rows over every wakeup.
  'traces-real': async (page) => {
    await settle(page);
    const fixture = fileURLToPath(new URL('../tests/fixtures/traces/real_lisa_juno.txt', import.meta.url));
    await page.setInputFiles('input[name="trace-import"]', fixture);
    await page.waitForSelector('table.trace-tasks tbody tr', { timeout: 60_000 }).catch(() => {});
    await page.click('button.replay').catch(() => {});
    await page.waitForSelector('.trace-diffview table.trace-error', { timeout: 60_000 }).catch(() => {});
    await page.locator('.trace-diffview table.trace-error').scrollIntoViewIfNeeded();
  },
  // A large trace read on the page (the trace worker blocked): the note, the progress bar
  // and Cancel, taken mid-read; then the same cancelled.
  'trace-reading': async (page) => {
    await settle(page);
    await page.evaluate(() => { window.Worker = function Worker() { throw new Error('blocked for the screenshot'); }; });
    await page.setInputFiles('input[name="trace-import"]', await bigTraceFile());
    await page.waitForFunction(() => Number(document.querySelector('.trace-progress')?.dataset.progress) > 0.1, null,
      { timeout: 60_000 }).catch(() => {});
    await page.locator('section.traces').scrollIntoViewIfNeeded();
  },
  'trace-cancelled': async (page) => {
    await scenarios['trace-reading'](page);
    await page.click('.trace-progress button.cancel').catch(() => {});
    await page.locator('section.traces').scrollIntoViewIfNeeded();
  },
  // Embeds (issue 29): a tour step's (its question compares A and B: both timelines) and an
  // A/B link's timeline and metrics, zoomed to a stretch by the link.
  'embed-tour': async (page) => {
    await page.goto(new URL('/?tour=intro&step=1&embed=1', page.url()).href);
    await page.waitForSelector('button.tour-choice', { timeout: 30_000 }).catch(() => {});
    await page.click('button.tour-choice[data-choice="1"]').catch(() => {});
    await page.waitForSelector('.tour-figure[aria-busy=false]', { timeout: 120_000 }).catch(() => {});
  },
  'embed-compare': async (page) => {
    await page.goto(new URL('/?v=1&preset=intro&t0=20ms&t1=60ms&embed=1&view=timeline,metrics&compare=1&b.hz=1000', page.url()).href);
    await settle(page);
  },
  'compare-link': async (page) => {
    await page.goto(new URL('/?v=1&preset=nohz-pipe&loops=100000&compare=1&b.nohz_exit_reprograms=1', page.url()).href);
    await settle(page);
  },
};
scenarios.dark = async (page) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await scenarios.intro(page);
};
scenarios['dark-seeds'] = async (page) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await scenarios.seeds(page);
};
scenarios['dark-compare'] = async (page) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await scenarios.compare(page);
};

/** A ~100 MB synthetic trace-cmd text (`bigTrace`) in the temp folder, made once. */
async function bigTraceFile() {
  const { existsSync, writeFileSync } = await import('node:fs');
  const file = (await import('node:path')).join((await import('node:os')).tmpdir(), 'schedscope-screens-big.txt');
  if (existsSync(file)) return file;
  writeFileSync(file, bigTrace(125_000));
  return file;
}

const wanted = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(scenarios);
for (const w of wanted) {
  if (!scenarios[w]) {
    console.error(`unknown scenario '${w}' (known: ${Object.keys(scenarios).join(' ')})`);
    process.exit(2);
  }
}
const outDir = process.env.OUT ? pathToFileURL(`${process.env.OUT.replace(/\/$/, '')}/`) : new URL('./out/', import.meta.url);
await mkdir(outDir, { recursive: true });
const server = await serve(process.env.SCHEDSCOPE_DIST ?? 'dist');
try {
  for (const [label, viewport] of Object.entries(SIZES)) {
    const browser = await launch(viewport);
    try {
      for (const name of wanted) {
        const { page, problems } = await open(browser.context, server.url);
        await page.waitForSelector('canvas', { timeout: 20_000 }).catch(() => {});
        await scenarios[name](page);
        // Let the worker answer and a few frames paint (a run in progress is taken at once).
        await page.waitForTimeout(['long-run', 'trace-reading'].includes(name) ? 500 : 3000);
        const file = fileURLToPath(new URL(`${label}-${name}.png`, outDir));
        await page.screenshot({ path: file, fullPage: true });
        await page.screenshot({ path: file.replace(/\.png$/, '-fold.png') });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        console.log(`${file}${overflow > 0 ? `  OVERFLOW ${overflow}px` : ''}${problems.length ? `  (${problems.length} problems: ${problems.join(' | ')})` : ''}`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
