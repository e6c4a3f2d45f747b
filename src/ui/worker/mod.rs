//! Everything between the page and its Web Workers. `protocol` (the messages and budgets),
//! `wire` (their binary format), `packing` (a trace's items in it), `scheduler` (one job in
//! flight, latest wins) and `execute` (how the worker runs a job) are pure and tested
//! natively; `runner` (the page's worker), `pool` (a sweep's workers), `export` (a file
//! written by a worker of its own) and `trace_io` (reading a `File` in the worker) are the
//! browser halves. Only the worker bin calls `execute`: the page's wasm holds no engine run,
//! no trace parser and no exporter.

pub mod execute;
pub mod export;
pub mod packing;
pub mod pool;
pub mod protocol;
pub mod runner;
pub mod scheduler;
#[cfg(target_arch = "wasm32")]
pub mod trace_io;
pub mod wire;

#[cfg(test)]
mod tests;
