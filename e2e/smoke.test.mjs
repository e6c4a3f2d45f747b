// Smoke test of the built site (dist/) in headless Chromium: the app loads without a console
// error or a failed request, and shows a canvas and controls. Run by `./scripts/test e2e`
// (after `trunk build --release --offline`), or `node --test e2e/*.test.mjs` with dist/ present.

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

test('the app loads cleanly and shows a canvas and controls', async () => {
  const { page, problems } = await open(browser.context, server.url);
  // The wasm app renders after load: wait for its canvas rather than a fixed time.
  const canvas = await page.waitForSelector('canvas', { timeout: 20_000 }).catch(() => null);
  await page.waitForLoadState('networkidle').catch(() => {});
  assert.deepEqual(problems, [], 'the page logged errors or failed to load something');
  assert.ok(canvas, 'no <canvas> appeared within 20 s');
  const controls = await page.locator('select, input').count();
  assert.ok(controls > 0, 'no <select> or <input> controls on the page');
});

test('a missing file is a 404 (the server does not hide broken links)', async () => {
  const res = await fetch(new URL('no-such-file.js', server.url));
  assert.equal(res.status, 404);
});
