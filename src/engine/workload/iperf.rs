//! iperf -P N over loopback: N sender/receiver pairs of TCP streams.
//!
//! iperf 2 writes and reads `len` = 8 KB buffers (its TCP default). A sender's write does
//! the whole loopback transmit in its own context (copy from user, TCP output, loopback
//! xmit, the receive softirq queuing the data on the receiver's socket) and wakes the
//! receiver; it blocks when the socket's window (`WINDOW` bytes in flight) is full. A
//! receiver's read copies up to `len` bytes to user space, and its ACK frees window space,
//! waking a blocked sender; it blocks when nothing is queued. Per-byte costs are estimates
//! for a 2007 Core 2 (a loopback TCP stream of the era moved ~1 Gbit/s per busy core).
//! Result: the sum of the streams' throughput in Gbit/s over the simulated duration.

use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::time::Ns;

/// iperf 2's default buffer length for TCP.
const LEN: u64 = 8 << 10;
/// Bytes in flight before the sender blocks (loopback socket buffer after autotuning: estimate).
const WINDOW: u64 = 128 << 10;
/// Reference ns per byte for the transmit path run by the sender (estimate).
const TX_PS_PER_BYTE: u64 = 4_500;
/// Reference ns per byte for the receiver's copy to user and ACK (estimate).
const RX_PS_PER_BYTE: u64 = 2_500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Try,
    After(u64),
}

pub struct Iperf {
    streams: usize,
    costs: Costs,
    /// Per stream: bytes queued at the receiver.
    queued: Vec<u64>,
    sender_waiting: Vec<bool>,
    receiver_waiting: Vec<bool>,
    phase: Vec<Phase>,
    received: u64,
}

impl Iperf {
    pub fn new(streams: usize, costs: Costs) -> Self {
        Iperf {
            streams,
            costs,
            queued: vec![0; streams],
            sender_waiting: vec![false; streams],
            receiver_waiting: vec![false; streams],
            phase: vec![Phase::Try; streams * 2],
            received: 0,
        }
    }
}

impl Workload for Iperf {
    /// iperf 2's client and server create each stream's thread (their main threads are
    /// not simulated; both taken on CPU 0).
    fn parent(&self, task: usize) -> Option<Parent> {
        let _ = task;
        Some(Parent::Cpu(0))
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        (0..self.streams * 2)
            .map(|t| {
                let sender = t % 2 == 0;
                TaskSpec {
                    name: format!("iperf-{}{}", if sender { "tx" } else { "rx" }, t / 2),
                    group: if sender { "sender" } else { "receiver" }.into(),
                    // The stream's data in flight cycles through fresh skb memory: a window's
                    // worth, plus the user buffer being copied.
                    ws_bytes: WINDOW + 2 * LEN,
                    touch_bytes_per_us: 2_000, // copy bandwidth class
                    nice: 0,
                    core: t,
                    // iperf 2 runs each stream as a thread of its client process (the
                    // senders) and of its server process (the receivers): two mms.
                    mm: if sender { 0 } else { 1 },
                }
            })
            .collect()
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        let s = task / 2;
        let sender = task % 2 == 0;
        loop {
            match self.phase[task] {
                Phase::Try if sender => {
                    if self.queued[s] + LEN > WINDOW {
                        self.sender_waiting[s] = true;
                        return Step::Block;
                    }
                    self.phase[task] = Phase::After(LEN);
                    let ns = self.costs.syscall(LEN * TX_PS_PER_BYTE / 1000);
                    return Step::Run { ns, sys: true };
                }
                Phase::Try => {
                    let n = self.queued[s].min(LEN);
                    if n == 0 {
                        self.receiver_waiting[s] = true;
                        return Step::Block;
                    }
                    // Claim the bytes now so a second read cannot take them.
                    self.queued[s] -= n;
                    self.phase[task] = Phase::After(n);
                    let ns = self.costs.syscall(n * RX_PS_PER_BYTE / 1000);
                    return Step::Run { ns, sys: true };
                }
                Phase::After(n) if sender => {
                    self.queued[s] += n;
                    if self.receiver_waiting[s] {
                        self.receiver_waiting[s] = false;
                        fx.wakes.push((task + 1, true));
                    }
                    self.phase[task] = Phase::Try;
                }
                Phase::After(n) => {
                    self.received += n;
                    if self.sender_waiting[s] && self.queued[s] + LEN <= WINDOW {
                        self.sender_waiting[s] = false;
                        fx.wakes.push((task - 1, false));
                    }
                    self.phase[task] = Phase::Try;
                }
            }
        }
    }

    fn done(&self) -> bool {
        false
    }

    fn result(&self, elapsed: Ns) -> Result {
        let gbit = if elapsed == 0 { 0.0 } else { self.received as f64 * 8.0 / elapsed as f64 };
        Result { value: gbit, unit: "Gbit/s", higher_is_better: true }
    }
}
