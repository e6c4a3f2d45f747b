// Starts the simulation worker (src/bin/worker.rs) as early as the page can: a classic
// script in the <head>, before the stylesheets (so it waits for none of them) and long before
// the deferred static/boot.js runs. The page never simulates itself, so the first figure waits
// for this worker; the load waterfall (BENCHMARKS.md "The first figure's load waterfall",
// e2e/perf.mjs PERF_ONLY=waterfall) showed its thread starting only once the page's main
// thread was free of the app's start-up, well after the app. Made here, its script is fetched
// and the thread starts while the app's wasm is still downloading. The app adopts it
// (src/ui/worker/runner.rs `adopt_early`) with the events it sent meanwhile, or the reason it
// could not be made (the page then says so); without this file the app makes its own.
// It also hands the worker the page's query at once: the worker computes the page's first
// run from it while the app's wasm compiles and mounts, and answers the app's first request
// from it when that request is the one it computed (src/ui/worker/execute.rs `Prefetched`).
'use strict';
(() => {
  performance.mark('schedscope:early');
  const early = { worker: null, events: [], error: null };
  try {
    early.worker = new Worker('./worker_loader.js');
    early.worker.postMessage(['schedscope:first', location.search]);
    early.worker.onmessage = (e) => early.events.push(e);
    early.worker.onerror = (e) => {
      e.preventDefault();
      early.events.push(e);
    };
  } catch (e) {
    early.error = String(e?.message ?? e);
  }
  window.schedscopeEarlyWorker = early;
})();
