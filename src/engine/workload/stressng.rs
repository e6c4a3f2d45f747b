//! stress-ng's pipe stressor (`stress-ng --pipe N --metrics-brief`): N workers, each a writer
//! process and a reader process over one pipe; bogo ops/s as `--metrics-brief` prints them.
//!
//! PROGRAM (stress-ng `stress-pipe.c`, `stress_pipe()`, read at ColinIanKing/stress-ng
//! 01afb213, 2020): each worker opens `pipe2(pipefds, O_DIRECT)` (falling back to `pipe()`
//! when the kernel refuses the flag) and forks; the child reads `pipe_data_size` bytes at a
//! time (`--pipe-data-size`, default 512) until it reads the stop string; the parent fills
//! its buffer (`pipe_memset`, a byte loop) and writes it, counting one bogo op per
//! successful write (`inc_counter`), until the time limit (`--timeout`, here `duration`).
//! `--metrics-brief` prints, per stressor, the bogo ops of all workers and "bogo ops/s
//! (real time)": bogo ops over the run's wall time. Data verification (`--verify`) is off
//! by default and not modelled. Task `2w` is worker `w`'s writer, `2w + 1` its reader.
//!
//! KERNEL SIDE: an `O_DIRECT` pipe is a packet pipe (3.4+, `Kernel::pipe_packets`): each
//! write takes one of the 16 buffers and each read returns one write, so the writer sleeps
//! after 16 writes ahead of its reader; before 3.4, 512-byte writes merge, 8 to a page. Who
//! wakes whom is the era's (`pipe::PipeBuf`, `pipe::PipeWake`).
//!
//! COSTS: each read and write is a system call plus the pipe op (`pipe::PIPE_OP_REF`) and
//! the copy of the data at hackbench's copy rate (`hackbench::COPY_PS_PER_BYTE`, an
//! estimate). `pipe_memset` is a byte loop: `MEMSET_PS_PER_BYTE`, one byte a cycle on the
//! 2.4 GHz reference (an estimate, not a measurement). The reader's `strncmp` of 3 bytes is
//! folded into its read.
//!
//! SIMPLIFIED: the stress-ng parent process and the workers' start-up (fork, the
//! `setpgid`/alarm calls) and the stop string at the end are not modelled; the run starts
//! with every worker's pair running.

use super::hackbench::COPY_PS_PER_BYTE;
use super::pipe::{PipeBuf, PIPE_OP_REF};
use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::kernel::Kernel;
use crate::engine::time::Ns;

/// stress-ng's default `--pipe-data-size` (`size_t pipe_data_size = 512`).
pub const PIPE_DATA_SIZE: u64 = 512;
/// `pipe_memset`'s byte loop on the reference machine, picoseconds a byte (estimate: a byte
/// a cycle at 2.4 GHz).
const MEMSET_PS_PER_BYTE: u64 = 417;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Writer: fill the buffer (user work).
    Fill,
    /// Writer: write it; reader: read one.
    Io,
    /// The write or read ended: make it visible, count it.
    AfterIo,
}

pub struct StressNgPipe {
    costs: Costs,
    pipes: Vec<PipeBuf>,
    phase: Vec<Phase>,
    /// Per writer: it slept during its current write.
    waited: Vec<bool>,
    /// Bogo ops: writes done, all workers.
    ops: u64,
}

impl StressNgPipe {
    pub fn new(workers: usize, kernel: Kernel, costs: Costs) -> Self {
        let workers = workers.max(1);
        let pipe = PipeBuf::new(PIPE_DATA_SIZE, kernel.pipe_packets(), kernel.pipe_wake());
        let phase = (0..2 * workers).map(|t| if t % 2 == 0 { Phase::Fill } else { Phase::Io }).collect();
        StressNgPipe { costs, pipes: vec![pipe; workers], phase, waited: vec![false; 2 * workers], ops: 0 }
    }

    fn io_cost(&self) -> Ns {
        self.costs.syscall(PIPE_OP_REF + PIPE_DATA_SIZE * COPY_PS_PER_BYTE / 1000)
    }

    /// Bogo ops so far (writes done).
    pub fn ops(&self) -> u64 {
        self.ops
    }
}

impl Workload for StressNgPipe {
    /// stress-ng's main process forks each instance (the writer), which forks its reader.
    fn parent(&self, task: usize) -> Option<Parent> {
        Some(if task % 2 == 1 { Parent::Task(task - 1) } else { Parent::Cpu(0) })
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        (0..self.phase.len())
            .map(|t| TaskSpec {
                name: format!("stress-ng-pipe-{}{}", t / 2, if t % 2 == 0 { "w" } else { "r" }),
                group: if t % 2 == 0 { "writer" } else { "reader" }.into(),
                // A small loop: stack, a 512-byte buffer, libc.
                ws_bytes: 16 << 10,
                touch_bytes_per_us: 16 << 10,
                nice: 0,
                core: t,
                // Each stressor instance is a process and forks its reader: one mm each.
                mm: t as u32,
            })
            .collect()
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        let (w, writer) = (task / 2, task % 2 == 0);
        loop {
            match self.phase[task] {
                Phase::Fill => {
                    self.phase[task] = Phase::Io;
                    return Step::Run { ns: self.costs.work(PIPE_DATA_SIZE * MEMSET_PS_PER_BYTE / 1000), sys: false };
                }
                Phase::Io if writer => {
                    if !self.pipes[w].claim_write(task, !self.waited[task]) {
                        self.waited[task] = true;
                        return Step::Block;
                    }
                    self.phase[task] = Phase::AfterIo;
                    return Step::Run { ns: self.io_cost(), sys: true };
                }
                Phase::Io => {
                    if !self.pipes[w].claim_read() {
                        return Step::Block;
                    }
                    self.phase[task] = Phase::AfterIo;
                    return Step::Run { ns: self.io_cost(), sys: true };
                }
                Phase::AfterIo if writer => {
                    let waited = std::mem::take(&mut self.waited[task]);
                    self.pipes[w].write_done(waited, task + 1, fx);
                    self.ops += 1;
                    self.phase[task] = Phase::Fill;
                }
                Phase::AfterIo => {
                    self.pipes[w].read_done(fx);
                    self.phase[task] = Phase::Io;
                }
            }
        }
    }

    fn done(&self) -> bool {
        false
    }

    /// "bogo ops/s (real time)".
    fn result(&self, elapsed: Ns) -> Result {
        let per_s = if elapsed == 0 { 0.0 } else { self.ops as f64 * 1e9 / elapsed as f64 };
        Result { value: per_s, unit: "bogo ops/s", higher_is_better: true }
    }

    /// `--metrics-brief`'s bogo ops and bogo ops/s (real time).
    fn extra(&self, elapsed: Ns) -> Vec<(String, f64)> {
        vec![("bogo_ops".into(), self.ops as f64), ("bogo_ops_per_s".into(), self.result(elapsed).value)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Config;

    fn stress(kernel: Kernel) -> StressNgPipe {
        StressNgPipe::new(1, kernel, Costs::new(Config::default().profile()))
    }

    /// Runs task `t` until it blocks, returning the wakes it caused.
    fn drive(s: &mut StressNgPipe, t: usize) -> Vec<(usize, bool)> {
        let mut fx = Fx::default();
        let mut wakes = Vec::new();
        loop {
            let step = s.next(t, 0, &mut fx);
            wakes.append(&mut fx.wakes);
            if step == Step::Block {
                return wakes;
            }
        }
    }

    #[test]
    fn a_packet_pipe_takes_16_writes_of_512_bytes_and_a_plain_one_128() {
        // 3.4+: O_DIRECT, one write a buffer; 2.6.24: pipe() fallback, 8 writes a page.
        for (kernel, writes) in [(Kernel::V515, 16), (Kernel::V66, 16), (Kernel::V2624, 128)] {
            let mut s = stress(kernel);
            assert!(drive(&mut s, 0).is_empty(), "the reader never ran: nobody to wake");
            assert_eq!(s.ops(), writes, "{kernel:?}");
        }
    }

    #[test]
    fn the_reader_wakes_the_writer_on_its_first_read_of_the_full_pipe() {
        let mut s = stress(Kernel::V66);
        drive(&mut s, 0);
        let mut fx = Fx::default();
        assert!(matches!(s.next(1, 0, &mut fx), Step::Run { .. }));
        assert!(s.next(1, 0, &mut fx) != Step::Block);
        assert_eq!(fx.wakes, vec![(0, true)], "was_full: the writer, after one read");
    }

    #[test]
    fn bogo_ops_per_second_are_writes_over_the_run() {
        let mut c = Config::default();
        for (k, v) in [("workload", "stress-ng-pipe"), ("workers", "2"), ("cores", "4"), ("duration", "50ms")] {
            c.set(k, v).unwrap();
        }
        let m = crate::engine::run(&c, None).unwrap().metrics;
        let ops = m.workload["bogo_ops"];
        assert!(ops > 1000.0, "{ops}");
        assert!((m.workload["bogo_ops_per_s"] - ops / m.elapsed_s).abs() < 1e-6 * ops / m.elapsed_s);
        assert_eq!(m.throughput, m.workload["bogo_ops_per_s"]);
    }
}
