//! The native command line: presets, run, sweep, validate, bench (stub being written).

/// Runs the CLI with `args` (without the program name); returns the exit status.
pub fn main(_args: Vec<String>) -> i32 {
    0
}
