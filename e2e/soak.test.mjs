// One minute of the browser soak (e2e/soak.mjs) inside the test command: random slider drags
// (keyboard and mouse), preset and tab switches, checkbox toggles; zero console errors and
// JS heap growth under 10%. The documented long run: SOAK_MINUTES=10 node e2e/soak.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from './soak.mjs';

test('one minute of random use: no console error, JS heap grows under 10%', { timeout: 20 * 60_000 }, async () => {
  const minutes = Number(process.env.SOAK_TEST_MINUTES ?? 1);
  const res = await soak({ minutes, seed: 7, dist: process.env.SCHEDSCOPE_DIST ?? 'dist' });
  assert.ok(res.actions >= 20, `only ${res.actions} actions in ${minutes} min`);
  assert.deepEqual(res.errors, [], 'console errors during the soak');
  assert.ok(
    res.growth < 0.1,
    `JS heap grew ${(res.growth * 100).toFixed(1)}% (${res.first.heap} -> ${res.last.heap} bytes)`,
  );
  // The page does not pile up elements either (same state at both samples).
  assert.ok(res.last.nodes <= res.first.nodes * 1.1, `elements: ${res.first.nodes} -> ${res.last.nodes}`);
});
