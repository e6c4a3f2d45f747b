// Main-thread CPU profile of a slider drag (a diagnostic script, not a test): opens the
// built site, loads a preset, presses ArrowRight on a slider at key-repeat pace while the
// Chrome DevTools profiler samples, and prints the functions with the most self time.
//
//   node e2e/profile.mjs [preset] [slider] [dist] [keys|mouse]   (writes e2e/out/drag.cpuprofile)
//
// Function names need a build that keeps them, e.g. index.html with data-wasm-opt="0" and
// data-keep-debug on the app's link, built with `trunk build --release --dist DIR FILE`.

import { mkdir, writeFile } from 'node:fs/promises';
import { serve } from './serve.mjs';
import { launch } from './browser.mjs';

const [preset = 'rr-kbuild', name = 'rr_interval', dist = 'dist', how = 'keys'] = process.argv.slice(2);
const server = await serve(dist);
const browser = await launch({ width: 1280, height: 800 });
try {
  const page = await browser.context.newPage();
  await page.goto(server.url, { waitUntil: 'load' });
  await page.selectOption('select[name=preset]', preset);
  const idle = () =>
    page.waitForFunction(() => document.querySelector('section.metrics')?.getAttribute('aria-busy') === 'false', null, {
      timeout: 120_000,
    });
  await idle();
  await page.waitForTimeout(1500); // let the sweep finish too
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const before = (await cdp.send('Performance.getMetrics')).metrics;
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const slider = page.locator(`input[type=range][name="${name}"]`);
  if (how === 'mouse') {
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    const y = box.y + box.height / 2;
    // Press on the thumb, wherever the value put it.
    const fraction = Number(await slider.inputValue()) / Number((await slider.getAttribute('max')) ?? 100) || 0.5;
    await page.mouse.move(box.x + box.width * Math.min(0.95, Math.max(0.05, fraction)), y);
    await page.mouse.down();
    for (let i = 1; i <= 30; i++) {
      await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / 30, y);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
  } else {
    await slider.focus();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press(i === 0 ? 'Home' : 'ArrowRight');
      await page.waitForTimeout(33);
    }
  }
  await idle();
  await page.waitForTimeout(300);
  const { profile } = await cdp.send('Profiler.stop');
  const after = (await cdp.send('Performance.getMetrics')).metrics;
  const was = Object.fromEntries(before.map((m) => [m.name, m.value]));
  const wanted = /Duration$|Count$|^Nodes$|^JSHeapUsedSize$/;
  const delta = after.filter((m) => wanted.test(m.name)).map((m) => {
    const d = m.value - (was[m.name] ?? 0);
    return `${m.name}=${/Duration$/.test(m.name) ? `${(d * 1000).toFixed(0)}ms` : Math.round(m.name === 'Nodes' ? m.value : d)}`;
  });
  console.log(`during the drag: ${delta.join(' ')}`);
  await mkdir('e2e/out', { recursive: true });
  await writeFile('e2e/out/drag.cpuprofile', JSON.stringify(profile));
  // Self time per function: samples x interval, attributed to the sampled (leaf) node.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log(`total sampled ${total.toFixed(0)} ms`);
  for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
} finally {
  await browser.close();
  server.close();
}
