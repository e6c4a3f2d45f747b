//! Every native integration test in one binary: each file under tests/ is a module here, so
//! `cargo test` links one test executable instead of seven and runs all of them in one pool of
//! threads. Run one file's tests with its module name as the filter:
//! `cargo test --test all determinism::` (`SCHEDSCOPE_BLESS=1` in front rewrites the golden file).
//! tests/wasm.rs and tests/wasm_bench.rs stay their own wasm32 targets (Cargo.toml).

mod common;

mod cli;
mod determinism;
mod engine;
mod explain;
mod export;
mod fuzz_props;
mod preempt;
mod scripts;
mod slice;
mod tidy;
mod traces;
mod traces_alloc;
