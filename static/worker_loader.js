// Starts the simulation worker (src/bin/worker.rs). Trunk's own loader shim (data-loader-shim)
// calls wasm_bindgen("./worker_bg.wasm") with a positional argument, which wasm-bindgen 0.2.9x+
// reports as "using deprecated parameters for the initialization function" on every load;
// this one passes the single object it asks for. Trunk copies it next to worker.js.
// The marks are the load waterfall's (e2e/perf.mjs PERF_ONLY=waterfall).
importScripts('./worker.js');
performance.mark('schedscope:worker-glue');
wasm_bindgen({ module_or_path: './worker_bg.wasm' }).then(() => performance.mark('schedscope:worker-ready'));
