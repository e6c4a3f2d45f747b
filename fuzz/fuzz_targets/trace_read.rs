//! libFuzzer target: any bytes as a trace file (trace.dat when it starts with the magic,
//! else any text dialect); reading must not panic, and a model's CPUs must each be busy
//! no longer than the trace lasts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedscope::share::ftrace;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = ftrace::read_bytes(data) {
        for &b in &m.busy {
            assert!(b <= m.duration(), "a CPU busy {b} ns in a {} ns trace", m.duration());
        }
    }
});
