// The panic view: a panic in the wasm app replaces the page with an error view that offers
// "Reset to defaults" and the current link for a bug report (issue 8's failure view).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const DIST = process.env.SCHEDSCOPE_DIST ?? 'dist';
let server;
let browser;

before(async () => {
  server = await serve(DIST);
  browser = await launch({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('a panic shows the error view with a reset link and the current link', async () => {
  const url = new URL('?v=1&preset=rr-kbuild&rr_interval=2ms', server.url).href;
  const { page, problems } = await open(browser.context, url);
  await page.waitForSelector('[data-metric=throughput]', { timeout: 30_000 });
  await page.waitForFunction(() => typeof window.wasmBindings?.debug_panic === 'function', null, { timeout: 10_000 });
  await page.evaluate(() => {
    try {
      window.wasmBindings.debug_panic();
    } catch {
      // The wasm trap after the hook surfaces here; the view is what matters.
    }
  });
  const crash = await page.waitForSelector('main.crash[role=alert]', { timeout: 10_000 });
  const text = await crash.textContent();
  assert.match(text, /schedscope stopped/);
  assert.match(text, /debug_panic\(\) was called/);
  const reset = await page.getAttribute('main.crash a', 'href');
  assert.equal(reset, '/', 'reset goes to the app without the query');
  const link = await page.inputValue('main.crash input[readonly]');
  assert.ok(link.includes('rr_interval=2ms'), `the bug-report link keeps the config: ${link}`);
  assert.ok(problems.some((p) => p.includes('panicked')), 'the panic is also logged to the console');
  await page.click('main.crash a');
  await page.waitForSelector('[data-metric=throughput]', { timeout: 30_000 });
  assert.ok(!page.url().includes('rr_interval'), `reset loads the defaults: ${page.url()}`);
});
