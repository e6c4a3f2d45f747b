// A short browser soak (e2e/soak.mjs) inside the test command: after the warm-up (every preset
// and the seed tables once), a fixed number of random actions (slider drags by keyboard and
// mouse, preset and tab switches, checkbox toggles, pins); then no console error, the page
// still answers (the figures settle on intro again, which `soak` waits for) and it does not
// pile up elements. A count of actions, not minutes, so a loaded machine does the same work.
// The timed half, minutes of use with the JS heap bound (< +10%), is a benchmark:
// `./scripts/bench soak` (SOAK_MINUTES=10 node e2e/soak.mjs), figures in BENCHMARKS.md.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from './soak.mjs';

test('random use: no console error, the page still answers, no piling up of elements', { timeout: 20 * 60_000 }, async () => {
  const actions = Number(process.env.SOAK_TEST_ACTIONS ?? 40);
  const res = await soak({ actions, warmup: 0, seed: 7, dist: process.env.SCHEDSCOPE_DIST ?? 'dist' });
  assert.equal(res.actions, actions);
  assert.deepEqual(res.errors, [], 'console errors during the soak');
  // The page does not pile up elements either (same state at both samples).
  assert.ok(res.last.nodes <= res.first.nodes * 1.1, `elements: ${res.first.nodes} -> ${res.last.nodes}`);
  console.log(`soak: ${res.actions} actions, JS heap ${res.first.heap} -> ${res.last.heap} bytes (${(res.growth * 100).toFixed(1)}%, judged by ./scripts/bench)`);
});
