// Starts the simulation worker (src/bin/worker.rs). Trunk's own loader shim (data-loader-shim)
// calls wasm_bindgen("./worker_bg.wasm") with a positional argument, which wasm-bindgen 0.2.9x+
// reports as "using deprecated parameters for the initialization function" on every load;
// this one passes the single object it asks for. Trunk copies it next to worker.js.
// The marks are the load waterfall's (e2e/perf.mjs PERF_ONLY=waterfall).
//
// Messages that come before the wasm has started (early.js's page query, posted as the worker
// is made: src/ui/worker/execute.rs `Prefetched`) wait here and go to the worker's handler, in
// order, once its main has set it (and has posted Ready); none would be heard otherwise.
//
// The wasm's fetch starts before the glue's (importScripts blocks until the glue is in and
// has run): the two come in together rather than one after the other (issue 26's waterfall).
const waiting = [];
const wait = (e) => waiting.push(e);
self.onmessage = wait;
const wasm = fetch('./worker_bg.wasm');
importScripts('./worker.js');
performance.mark('schedscope:worker-glue');
wasm_bindgen({ module_or_path: wasm }).then(() => {
  performance.mark('schedscope:worker-ready');
  const handle = self.onmessage;
  if (!handle || handle === wait) return;
  if (waiting.length > 0) {
    for (const e of waiting.splice(0)) handle(e);
    performance.mark('schedscope:worker-prefetched');
  }
  // The first message's end, for the waterfall: when the first run was computed. Only the
  // first: a mark per message would grow the timeline's buffer for as long as the page lives.
  self.onmessage = (e) => {
    self.onmessage = handle;
    handle(e);
    performance.mark('schedscope:worker-handled');
  };
});
