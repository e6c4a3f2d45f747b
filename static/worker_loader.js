// Starts the simulation worker (src/bin/worker.rs). Trunk's own loader shim (data-loader-shim)
// calls wasm_bindgen("./worker_bg.wasm") with a positional argument, which wasm-bindgen 0.2.9x+
// reports as "using deprecated parameters for the initialization function" on every load;
// this one passes the single object it asks for. Trunk copies it next to worker.js.
//
// Messages that come before the wasm has started (the page's prefetch of its first run, posted
// before the worker is ready: src/ui/worker/execute.rs `Prefetched`) wait here and go to the
// worker's handler, in order, once its main has set it; none would be heard otherwise.
// The marks are the load waterfall's (e2e/perf.mjs PERF_ONLY=waterfall).
const waiting = [];
self.onmessage = (e) => waiting.push(e);
// The wasm's fetch starts before the glue's (importScripts blocks until the glue is in and
// has run): the two come in together rather than one after the other (issue 26's waterfall).
const wasm = fetch('./worker_bg.wasm');
importScripts('./worker.js');
performance.mark('schedscope:worker-glue');
wasm_bindgen({ module_or_path: wasm }).then(() => {
  performance.mark('schedscope:worker-ready');
  const handle = self.onmessage;
  if (!handle) return;
  // Each message's end, for the waterfall: when the first run was computed.
  self.onmessage = (e) => {
    handle(e);
    performance.mark('schedscope:worker-handled');
  };
  for (const e of waiting.splice(0)) self.onmessage(e);
});
