//! pipe ping-pong, like `perf bench sched pipe`: two tasks, two pipes, `loops` round trips.
//!
//! Task A: {write p1; read p2} x loops. Task B: {read p1; write p2} x loops. Exactly one
//! task is runnable at a time; each write wakes the reader synchronously (WF_SYNC). Each
//! read and write is a system call: the profile's entry/exit cost plus the pipe work
//! (copying 1 byte, waking the other side: `PIPE_OP_REF`, 468 ns on the 2007 reference,
//! from a published profile of will-it-scale's `pipe1` on a Cascade Lake; see there).
//! Result: microseconds per round trip (lower is better); elapsed is the whole run.
//!
//! EMPTY READ (`empty_look`): a read that finds its pipe empty (in a ping-pong, nearly every
//! read) looks under the mutex, pulling the pipe's lines (`EMPTY_PIPE_LINES`), and pays the
//! release's wait, its locked instructions (`pipe_wait_locked`: 3.11's `pipe_wait` 4, 5.15's
//! `wait_event_interruptible_exclusive` 7; counted in hackbench's module doc, EMPTY READ),
//! before it sleeps; a write during the look is found at its end. The read after the wakeup
//! is charged as the whole op.
//!
//! `PipeBuf` is a pipe's buffers and wait queues for the workloads whose pipes fill
//! (hackbench `-p`, stress-ng `--pipe`), with each era's wake rules (`PipeWake`,
//! `Kernel::pipe_wake`); a 1-byte ping-pong never fills a pipe, so it needs none of it.
//!
//! TRANSFER (`Lines`). Every `pipe_write` and `pipe_read` (fs/pipe.c, read in 5.15) writes
//! the same few cache lines of the pipe: `__pipe_lock` takes `pipe->mutex`, the op reads
//! and advances `pipe->head` or `pipe->tail`, updates the `pipe_buffer` slot's `offset` and
//! `len`, copies the message into or out of the page, and the wakeup takes `rd_wait` or
//! `wr_wait`'s lock. In 5.15's `struct pipe_inode_info` the mutex (32 bytes on x86-64
//! without lock debugging), `rd_wait` (24) and the head of `wr_wait` fill the first line,
//! the rest of `wr_wait` with `head`, `tail`, `max_usage` and `ring_size` the second: two
//! lines, plus the slot, plus the message's own lines (`ceil(size / 64)`: `pipe_op_lines`).
//! An op on one CPU after an op on another pulls those lines across, at the profile's
//! core-to-core latency for the pair (`profile::C2c`, a one-way figure: the tool divides
//! its CAS round trip by two); on the same CPU they are hot and cost nothing more.
//!
//! CHAIN (`pipe_op_chain`): the pulls that wait for one another are paid one after the
//! other, the ones a core keeps in flight together once. The mutex's line comes first: it
//! is a locked `cmpxchg` (`__mutex_trylock_fast`), and x86 does not reorder loads with
//! locked instructions (Intel SDM vol. 3A, 8.2.2), so the loads of `head`/`tail` wait for
//! it; the slot's address is computed from `head` or `tail` (`&pipe->bufs[head & mask]`),
//! and the copy's from the slot (`buf->page`, `buf->offset`): three latencies in series.
//! The copy's lines are independent of one another and go out together, up to the line
//! fill buffers of the core (10 per core on Intel cores from Nehalem, the misses one core
//! keeps outstanding: `FILL_BUFFERS`): one latency for a message of up to 10 lines.
//! Simplified: one "last CPU" per pipe (every op writes all of these lines, so the last
//! op's CPU owns them); the stores that upgrade a line read shared (`buf->len`, the new
//! `head`/`tail`) overlap with the chain and are not charged; contended lines bounce more
//! than once while writers spin on the mutex, not modelled; the page's fresh lines come
//! from the last CPU too. The wakeup's own lines (the wakee's task and wait entry, the
//! target runqueue) are the wakeup path's (`sim::wakeup`). The transfer is a stall
//! (`Fx::stall`): a busy SMT sibling does not lengthen it (`sim::schedule` module doc: SMT).
//!
//! MUTEX (`Lines::locked_op`, hackbench's pipes). `pipe_write` and `pipe_read` do their
//! work between `__pipe_lock` and `__pipe_unlock` (5.15: the copy, `head`/`tail`, the
//! slot; the wakeups and `file_update_time` come after the unlock), so the ops on one pipe
//! are serialised: 20 senders and a receiver take turns. A task that finds the mutex held
//! spins (`mutex_optimistic_spin`: while the owner runs on a CPU, which a pipe op's owner
//! always does here, since a writer that must wait for room unlocks before it sleeps) and
//! then does its op; the spin is kernel time in its burst, a stall like the transfer.
//! HAND-OFF (`Lines::mutex`). A contended lock changes hands slower than a free one is taken:
//! the waiter's spin reads the lock's line, and the holder's unlock must take it back.
//! 5.15 kernel/locking/mutex.c: the waiter spins in `mutex_spin_on_owner`, re-reading
//! `lock->owner` (`__mutex_owner`) with a `cpu_relax()` between reads, so the line sits in
//! its cache; `mutex_unlock` -> `__mutex_unlock_fast` is `atomic_long_try_cmpxchg_release`
//! on `lock->owner`, which must own the line: one latency from the waiter's CPU; the
//! waiter's next read misses: one latency back; then `mutex_optimistic_spin`'s
//! `__mutex_trylock_or_owner` takes the lock with `atomic_long_try_cmpxchg_acquire`, which
//! must own the line the read brought in shared: one more. Three latencies of the mutex's
//! line in series between the unlock and the acquire, where a free lock's taker pays the
//! one its chain already counts (`pipe_op_chain`'s first line): `MUTEX_HANDOFF_LINES` (2)
//! more, at the profile's core-to-core latency between the holder's CPU and the waiter's
//! (the CAS ping-pong figure, `profile::C2c`). Only `pipe->mutex` is charged so: the
//! sockets' `unix_state_lock` (a queued spinlock, whose waiter also re-reads the lock word)
//! keeps the one latency (left alone here). Simplified: only the next owner's wait
//! lengthens (the holder's unlock, already laid in its burst, does not); the OSQ queue of
//! further spinners (`osq_lock`'s `xchg` on `lock->osq`, in the same line) is not charged;
//! `cpu_relax()`'s PAUSE (up to ~140 cycles on Skylake-derived cores, which would delay the
//! waiter's noticing the unlock) is not charged either.
//!
//! HOLDER'S SPEED: the holder unlocks when its burst has done the held work, so the hold
//! is timed at the speed its CPU runs at when the op starts (`Fx::rate`: below a lone
//! thread's while the SMT sibling is busy), as the simulation lays the burst: its stall
//! (the spin and the lines) first, then its work at that rate (`sim::schedule` module doc:
//! SMT). The entry and exit before the lock stretch the same way. (Until issue 27's hb25
//! branch the hold was timed at a lone thread's speed, so beside a busy sibling the next
//! op took the lock while the holder's burst still had a third of its work to do.)
//! Simplified: the lock is taken after the syscall's whole entry and exit cost; the op's
//! work estimate (`PIPE_OP_REF`, which includes the wakeup) is all held; the rate is the
//! one at the op's start (a sibling that goes idle or busy during the hold changes the
//! burst, not the unlock time already set); a CPU whose cursor runs ahead of global time
//! takes the lock at its own time; an op on a CPU behind it then takes the lock without
//! waiting (it would have come first), and the two holds overlap.

use std::collections::VecDeque;

use super::{at_rate, Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::kernel::{Kernel, PipeWake};
use crate::engine::time::Ns;

/// Kernel work of one pipe read or write on the reference machine (`ksys_read` /
/// `ksys_write` and below: the fd lookup, `vfs_*`, the security hooks, `pipe_read` /
/// `pipe_write` with the copy and the wait-queue walk; not the entry/exit, which is
/// `Profile::syscall`, nor the wakee's enqueue, which is `Profile::ttwu`).
///
/// Source: the kernel test robot's will-it-scale report on lkp-csl-2ap4, 2 x Xeon Platinum
/// 9242 (Cascade Lake, 192 threads), v5.8-rc3 base column, `pipe1` (each copy writes one
/// byte to its own pipe and reads it back: one `pipe_write` and one `pipe_read`, nobody to
/// wake), `mode=thread`, `nr_task=100%` ("[fs] b6509f6a8c: will-it-scale.per_thread_ops
/// -12.6% regression", 6 Jul 2020, Message-ID `<20200706012029.GZ3874@shao2-debian>`, read
/// in Xing Zhengjun's reply of 12 Oct 2020, `<6b301f34-f8fe-c626-e5e5-9af5c257c5c3@linux.intel.com>`):
/// 1,045,643 ops a second a thread, 956.4 ns a write and read. Its profile (children
/// cycles): `ksys_read` 36.87% + `ksys_write` 35.45% = 72.32% is this work, 345.8 ns an
/// op; `entry_SYSCALL_64_after_hwframe` less those (7.85%), `entry_SYSCALL_64` (7.28%) and
/// `syscall_return_via_sysret` (6.34%), 21.47%, is the entry and exit, 102.7 ns a call
/// (`Profile::syscall` of cascadelake-2s). All 192 hardware threads ran a copy, so each
/// shared its core with a busy sibling: by the engine's own SMT rule (`SMT_INTEL`, each of
/// two busy siblings at 650 permille of a lone thread) a lone thread does the op in
/// 345.8 x 0.65 = 224.8 ns, which is 468 ns at cascadelake-2s's 2083 permille speed.
/// Simplified: the 9242 is taken as the profile's Gold 6248 unscaled (the same core; the
/// run's cycles per op and time per op put its clock at ~2.86 GHz), and the kernel is 5.8,
/// not each preset's era. Not from a judged row: no corpus or seed row is this benchmark
/// or machine. (It was 500, an estimate: ~0.5 us on the 2007 reference.)
pub(crate) const PIPE_OP_REF: Ns = 468;

/// One locked instruction on a line already in this core's cache, reference ns: 19 cycles
/// (uops.info, `LOCK CMPXCHG m64, r64`) at 2.4 GHz (hackbench's module doc: EMPTY READ).
pub(crate) const LOCKED_OP_REF: Ns = 8;
/// The lines an empty pipe's look pulls in series, the mutex's and `head`/`tail`'s.
pub(crate) const EMPTY_PIPE_LINES: u64 = 2;

/// The locked instructions a pipe wait adds, counted in the release's `pipe_read` /
/// `pipe_write` (hackbench's module doc: EMPTY READ): (the first wait, each further round of
/// the wait loop). Up to 5.4 `pipe_wait` under the loop's mutex (4 and 4); from 5.6
/// `wait_event_interruptible_exclusive` after `__pipe_unlock` (7 and 2).
pub(crate) fn pipe_wait_locked(wake: PipeWake) -> (Ns, Ns) {
    match wake {
        PipeWake::SharedQueue => (4, 4),
        PipeWake::WasFull | PipeWake::FreedWhileFull => (7, 2),
    }
}

/// A read that finds a ping-pong's pipe empty (`Pipe`, `token::Token`): the look under the
/// mutex pulls the pipe's lines (a stall), then the wait's locked instructions; the read
/// after the wakeup is charged as a whole op. `wait` is the release's `first_wait`. Returns
/// (burst, stall).
pub(crate) fn empty_look(lines: &mut Lines, cpu: usize, wait: Ns, costs: &Costs) -> (Ns, Ns) {
    let stall = lines.touch(cpu, EMPTY_PIPE_LINES, costs);
    (stall + wait, stall)
}

/// The first wait's locked instructions (`pipe_wait_locked`) as work on this machine.
pub(crate) fn first_wait(wake: PipeWake, costs: &Costs) -> Ns {
    costs.work(pipe_wait_locked(wake).0 * LOCKED_OP_REF)
}

/// Lines of `struct pipe_inode_info` (two) and the `pipe_buffer` slot (one) that every
/// read and write writes (module doc: TRANSFER).
const PIPE_SHARED_LINES: u64 = 3;

/// Misses one core keeps in flight together: the L1 line fill buffers, 10 per core on
/// Intel cores from Nehalem to Haswell (Intel 64 and IA-32 Architectures Optimization
/// Reference Manual; the figure as a Stack Overflow question on software prefetching and
/// LFBs states it, "Modern Intel chips (Nehalem, Sandy Bridge, Ivy Bridge, Haswell) have 10
/// LFB's per core"). Taken for every profile (simplified: later cores have as many or
/// more, e.g. Zen's miss address buffers); it only matters past 640-byte messages.
const FILL_BUFFERS: u64 = 10;

/// The cache lines an op on a pipe of `msg_size`-byte messages writes (module doc: TRANSFER).
pub fn pipe_op_lines(msg_size: u64) -> u64 {
    PIPE_SHARED_LINES + msg_size.div_ceil(64)
}

/// The line latencies such an op waits for one after another (module doc: CHAIN): the
/// mutex, `head`/`tail` and the slot in series, then the copy's lines, `FILL_BUFFERS` at a
/// time.
pub fn pipe_op_chain(msg_size: u64) -> u64 {
    PIPE_SHARED_LINES + copy_chain(msg_size)
}

/// The latencies of copying a `msg_size`-byte message's lines from another CPU: they go
/// out together, `FILL_BUFFERS` at a time (module doc: CHAIN).
pub fn copy_chain(msg_size: u64) -> u64 {
    msg_size.div_ceil(64).div_ceil(FILL_BUFFERS)
}

/// The mutex line's latencies a contended `mutex_lock` adds to the hand-off beyond the
/// free lock's one (module doc: HAND-OFF).
pub const MUTEX_HANDOFF_LINES: u64 = 2;

/// Where a pipe's shared cache lines are (the CPU of its last read or write), and until
/// when its `pipe->mutex` is held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    last: Option<usize>,
    /// When the holder took `pipe->mutex` and when it unlocks (module doc: MUTEX).
    locked_at: Ns,
    free_at: Ns,
    /// Latencies of the lock's line a waiter pays at the hand-off beyond a free lock's
    /// (module doc: HAND-OFF): `MUTEX_HANDOFF_LINES` for `pipe->mutex`, 0 by default.
    handoff: u64,
}

impl Lines {
    /// A pipe's lines under `pipe->mutex`, whose contended hand-off costs
    /// `MUTEX_HANDOFF_LINES` more (module doc: HAND-OFF).
    pub fn mutex() -> Self {
        Lines { handoff: MUTEX_HANDOFF_LINES, ..Lines::default() }
    }

    /// One read or write of the pipe by a task on `cpu` entering the kernel at `at`: the
    /// syscall's entry and exit (`syscall`), then `__pipe_lock` (spinning until the holder
    /// unlocks, module doc: MUTEX), the pipe's lines pulled to `cpu` and `work` under the
    /// lock (`lines`: the latencies in series, `pipe_op_chain`), the work timed at `rate`
    /// permille of a lone thread's speed (`Fx::rate`, module doc: HOLDER'S SPEED). Returns
    /// the burst (entry and exit, the spin, the transfer and the work, as work at a lone
    /// thread's speed: the simulation stretches it) and its stall (the spin and the
    /// transfer: `Fx::stall`).
    #[allow(clippy::too_many_arguments)]
    pub fn locked_op(
        &mut self,
        cpu: usize,
        at: Ns,
        syscall: Ns,
        lines: u64,
        work: Ns,
        rate: u64,
        costs: &Costs,
    ) -> (Ns, Ns) {
        let lock = at + at_rate(syscall, rate);
        // An op asked for at a time before the holder's (its CPU is behind the holder's,
        // which ran ahead of global time) would have gone first: it does not wait, and the
        // holder's burst, already laid, is left alone (module doc: MUTEX).
        let after = lock >= self.locked_at;
        let mut spin = if after { self.free_at.saturating_sub(lock) } else { 0 };
        if spin > 0 && self.handoff > 0 {
            // The holder (the last op's CPU) and this waiter trade the lock's line (HAND-OFF).
            spin += self.last.map_or(0, |holder| costs.transfer(holder, cpu, self.handoff));
        }
        let xfer = self.touch(cpu, lines, costs);
        if after {
            self.locked_at = lock + spin;
        }
        self.free_at = self.free_at.max(lock + spin + xfer + at_rate(work, rate));
        (syscall + spin + xfer + work, spin + xfer)
    }

    /// An op on `cpu` writing `lines` lines of the pipe: the time to pull them from the
    /// last op's CPU (0 for the first op or the same CPU). The lines are on `cpu` after it.
    pub fn touch(&mut self, cpu: usize, lines: u64, costs: &Costs) -> Ns {
        let t = self.last.map_or(0, |from| costs.transfer(from, cpu, lines));
        self.last = Some(cpu);
        t
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Write,
    AfterWrite,
    Read,
    AfterRead,
    Done,
}

pub struct Pipe {
    loops: u64,
    done_loops: u64,
    costs: Costs,
    /// Bytes waiting in p1 (A -> B) and p2 (B -> A).
    data: [u64; 2],
    /// Whether A / B is blocked in read.
    waiting: [bool; 2],
    phase: [Phase; 2],
    /// Each pipe's shared cache lines (module doc: TRANSFER).
    lines: [Lines; 2],
    /// A read's or write's system call (`PIPE_OP_REF` on this machine) and the release's
    /// first wait (`first_wait`, module doc: EMPTY READ): fixed for the run, computed once.
    op_ns: Ns,
    wait_ns: Ns,
    /// Whether A / B has looked at its empty pipe in this read (module doc: EMPTY READ).
    looked: [bool; 2],
}

impl Pipe {
    pub fn new(loops: u64, kernel: Kernel, costs: Costs) -> Self {
        Pipe {
            loops,
            done_loops: 0,
            data: [0; 2],
            waiting: [false; 2],
            phase: [Phase::Write, Phase::Read],
            lines: [Lines::default(); 2],
            op_ns: costs.syscall(PIPE_OP_REF),
            wait_ns: first_wait(kernel.pipe_wake(), &costs),
            looked: [false; 2],
            costs,
        }
    }

    /// One read or write of pipe `p` on `fx.cpu`: the syscall and the pipe's lines, whose
    /// transfer is a stall (`Fx::stall`).
    fn op(&mut self, p: usize, fx: &mut Fx) -> Ns {
        let xfer = self.lines[p].touch(fx.cpu, pipe_op_chain(1), &self.costs);
        fx.stall = xfer;
        self.op_ns + xfer
    }
}

impl Workload for Pipe {
    /// sched-pipe.c: A (the main process) forks B (or creates it as a thread with `-T`).
    fn parent(&self, task: usize) -> Option<Parent> {
        (task == 1).then_some(Parent::Task(0))
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        ["pipe-A", "pipe-B"]
            .iter()
            .enumerate()
            .map(|(i, n)| TaskSpec {
                name: n.to_string(),
                group: n.to_string(),
                ws_bytes: 16 << 10, // a small loop: stack, pipe buffers, libc
                touch_bytes_per_us: 16 << 10,
                nice: 0,
                core: i,
                // perf bench sched pipe forks B by default ("Use processes by default";
                // `-T` would make them threads): two mms.
                mm: i as u32,
            })
            .collect()
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        // A (0) writes p1 (0) and reads p2 (1); B (1) writes p2 (1) and reads p1 (0).
        let (wpipe, rpipe, other) = if task == 0 { (0, 1, 1) } else { (1, 0, 0) };
        loop {
            match self.phase[task] {
                Phase::Done => return Step::Exit,
                Phase::Write => {
                    self.phase[task] = Phase::AfterWrite;
                    return Step::Run { ns: self.op(wpipe, fx), sys: true };
                }
                Phase::AfterWrite => {
                    self.data[wpipe] += 1;
                    if self.waiting[other] {
                        self.waiting[other] = false;
                        fx.wakes.push((other, true));
                    }
                    self.phase[task] =
                        if task == 1 && self.done_loops >= self.loops { Phase::Done } else { Phase::Read };
                }
                Phase::Read => {
                    if self.data[rpipe] > 0 {
                        self.data[rpipe] -= 1;
                        self.looked[task] = false;
                        self.phase[task] = Phase::AfterRead;
                        return Step::Run { ns: self.op(rpipe, fx), sys: true };
                    }
                    // Empty: look and prepare to wait first (a write during the look is found
                    // at its end), then sleep (module doc: EMPTY READ).
                    if !std::mem::replace(&mut self.looked[task], true) {
                        let (ns, stall) = empty_look(&mut self.lines[rpipe], fx.cpu, self.wait_ns, &self.costs);
                        fx.stall = stall;
                        return Step::Run { ns, sys: true };
                    }
                    self.waiting[task] = true;
                    return Step::Block;
                }
                Phase::AfterRead => {
                    if task == 0 {
                        self.done_loops += 1;
                        self.phase[0] = if self.done_loops >= self.loops { Phase::Done } else { Phase::Write };
                    } else {
                        self.phase[1] = Phase::Write;
                    }
                }
            }
        }
    }

    fn done(&self) -> bool {
        self.done_loops >= self.loops
    }

    fn result(&self, elapsed: Ns) -> Result {
        let per = if self.done_loops == 0 { 0.0 } else { elapsed as f64 / self.done_loops as f64 / 1000.0 };
        Result { value: per, unit: "us/round trip", higher_is_better: false }
    }
}

/// Buffers of a pipe (`PIPE_DEF_BUFFERS`, 16 pages: 64 KiB).
pub const PIPE_BUFFERS: usize = 16;

/// A pipe's ring of `PIPE_BUFFERS` buffers (`pipe->bufs`), each (writes in it, reads of
/// it), kept inside the `PipeBuf`: a `VecDeque`'s own heap block had been a second cache
/// miss on most ops of a hackbench run with hundreds of pipes (issue 27). It never holds
/// more than `PIPE_BUFFERS`: `claim_write` takes a buffer only when the pipe is not full.
#[derive(Clone, Copy, Debug)]
struct Ring {
    bufs: [(u32, u32); PIPE_BUFFERS],
    head: usize,
    len: usize,
}

impl Ring {
    const MASK: usize = {
        assert!(PIPE_BUFFERS.is_power_of_two());
        PIPE_BUFFERS - 1
    };

    fn new() -> Self {
        Ring { bufs: [(0, 0); PIPE_BUFFERS], head: 0, len: 0 }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn front_mut(&mut self) -> Option<&mut (u32, u32)> {
        (self.len > 0).then(|| &mut self.bufs[self.head & Self::MASK])
    }

    fn back(&self) -> Option<&(u32, u32)> {
        (self.len > 0).then(|| &self.bufs[(self.head + self.len - 1) & Self::MASK])
    }

    fn back_mut(&mut self) -> Option<&mut (u32, u32)> {
        (self.len > 0).then(|| &mut self.bufs[(self.head + self.len - 1) & Self::MASK])
    }

    fn push_back(&mut self, buf: (u32, u32)) {
        debug_assert!(self.len < PIPE_BUFFERS, "a full pipe takes no buffer");
        self.bufs[(self.head + self.len) & Self::MASK] = buf;
        self.len = (self.len + 1).min(PIPE_BUFFERS);
    }

    fn pop_front(&mut self) {
        if self.len > 0 {
            self.head = (self.head + 1) & Self::MASK;
            self.len -= 1;
        }
    }
}

/// One pipe's buffers and wait queues, as `pipe_read`/`pipe_write` use them: one reader,
/// any number of writers; a message is one `write` (at most a page, so atomic).
#[derive(Clone, Debug)]
pub struct PipeBuf {
    /// Per used buffer: (writes in it, reads of it); released when every write is read.
    slots: Ring,
    /// Writes one buffer holds: a page of merged writes (`PIPE_BUF_FLAG_CAN_MERGE`,
    /// `offset + chars <= PAGE_SIZE`), 1 for a packet pipe (`O_DIRECT`: no merging).
    per_slot: u32,
    /// Writes complete and not yet claimed by a read.
    queued: u64,
    /// Writers asleep waiting for a buffer, in the order they (last) slept.
    blocked: VecDeque<usize>,
    reader_waiting: bool,
    wake: PipeWake,
}

impl PipeBuf {
    /// A pipe of `msg_size`-byte writes (`packet`: an `O_DIRECT` pipe) under `wake`.
    pub fn new(msg_size: u64, packet: bool, wake: PipeWake) -> Self {
        let per_slot = if packet { 1 } else { (4096 / msg_size.clamp(1, 4096)) as u32 };
        PipeBuf { slots: Ring::new(), per_slot, queued: 0, blocked: VecDeque::new(), reader_waiting: false, wake }
    }

    /// `pipe_full`: every buffer taken.
    pub fn full(&self) -> bool {
        self.slots.len() >= PIPE_BUFFERS
    }

    /// Writes visible to the reader.
    pub fn queued(&self) -> u64 {
        self.queued
    }

    /// Whether `writer` is asleep waiting for a buffer.
    pub fn is_blocked(&self, writer: usize) -> bool {
        self.blocked.contains(&writer)
    }

    /// `writer` starts a write: true if it merges into the last buffer or takes a new one,
    /// false if it must sleep (queued at the wait queue's tail). `fresh`: a new `write`
    /// call, which tries to merge before its loop; a writer woken from its wait is inside
    /// the loop and only takes a new buffer.
    pub fn claim_write(&mut self, writer: usize, fresh: bool) -> bool {
        if fresh {
            if let Some(last) = self.slots.back_mut() {
                if last.0 < self.per_slot && self.per_slot > 1 {
                    last.0 += 1;
                    return true;
                }
            }
        }
        if self.full() {
            self.blocked.push_back(writer);
            return false;
        }
        self.slots.push_back((1, 0));
        true
    }

    /// Whether a write would sleep now (`claim_write` would return false), without
    /// claiming: every buffer taken and, for a `fresh` write, no room to merge.
    pub fn write_must_wait(&self, fresh: bool) -> bool {
        let merges = fresh && self.per_slot > 1 && self.slots.back().is_some_and(|last| last.0 < self.per_slot);
        !merges && self.full()
    }

    /// The claimed write is done: the message is visible; wake as the era does.
    /// `waited`: the writer slept during this write.
    pub fn write_done(&mut self, waited: bool, reader: usize, fx: &mut Fx) {
        self.queued += 1;
        match self.wake {
            PipeWake::SharedQueue => {
                // One queue: the reader and every sleeping writer, after every write.
                if std::mem::take(&mut self.reader_waiting) {
                    fx.wakes.push((reader, true));
                }
                for w in self.blocked.drain(..) {
                    fx.wakes.push((w, true));
                }
            }
            PipeWake::WasFull | PipeWake::FreedWhileFull => {
                // The reader sleeps only on an empty pipe: this write began on one (`was_empty`).
                if std::mem::take(&mut self.reader_waiting) {
                    fx.wakes.push((reader, true));
                }
                if waited && !self.full() {
                    if let Some(w) = self.blocked.pop_front() {
                        fx.wakes.push((w, true));
                    }
                }
            }
        }
    }

    /// The reader starts a read: true when a message is there, false when it must sleep
    /// (it is woken by the next write).
    pub fn claim_read(&mut self) -> bool {
        if self.queued == 0 {
            self.reader_waiting = true;
            return false;
        }
        self.queued -= 1;
        true
    }

    /// The claimed read is done: its buffer is released when read empty; wake writers as
    /// the era does. `pipe_read` holds `pipe->mutex` from its `was_full` test to its
    /// release, so no writer can fill the pipe in between; here the read is a burst during
    /// which writers run, so the test is made here, at the release: only this reader
    /// releases buffers, so a pipe full when the read began is still full now, and one
    /// that a writer filled meanwhile is full as the kernel's writer would have found it
    /// after the read (and slept, to be woken by the next read).
    pub fn read_done(&mut self, fx: &mut Fx) {
        let Some(first) = self.slots.front_mut() else { return };
        first.1 += 1;
        let freed = first.1 >= first.0;
        let was_full = self.full();
        let full_at_release = freed && was_full;
        if freed {
            self.slots.pop_front();
        }
        let one = match self.wake {
            PipeWake::SharedQueue => {
                if freed {
                    for w in self.blocked.drain(..) {
                        fx.wakes.push((w, true));
                    }
                }
                false
            }
            PipeWake::WasFull => was_full,
            PipeWake::FreedWhileFull => full_at_release,
        };
        if one {
            if let Some(w) = self.blocked.pop_front() {
                fx.wakes.push((w, true));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline ring against a `VecDeque` of the same buffers, through many laps of its
    /// 16 places: fill to full, drain, and a steady half-full churn; front, back and length
    /// agree after every step.
    #[test]
    fn the_buffer_ring_wraps_as_a_deque_would() {
        let mut ring = Ring::new();
        let mut deque: VecDeque<(u32, u32)> = VecDeque::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..5_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Phases of filling, draining and churning.
            let push = match step / 250 % 3 {
                0 => x % 4 != 0,
                1 => x % 4 == 0,
                _ => x % 2 == 0,
            };
            if push && deque.len() < PIPE_BUFFERS {
                ring.push_back((step, 0));
                deque.push_back((step, 0));
            } else if !push {
                ring.pop_front();
                deque.pop_front();
            }
            if let (Some(r), Some(d)) = (ring.front_mut(), deque.front_mut()) {
                r.1 += 1;
                d.1 += 1;
            }
            if let (Some(r), Some(d)) = (ring.back_mut(), deque.back_mut()) {
                r.0 += 1;
                d.0 += 1;
            }
            assert_eq!(ring.len(), deque.len(), "step {step}");
            assert_eq!(ring.front_mut().copied(), deque.front().copied(), "step {step}");
            assert_eq!(ring.back().copied(), deque.back().copied(), "step {step}");
        }
    }

    /// `PIPE_OP_REF` is LKP's `pipe1` on a Cascade Lake (its doc): 1,045,643 write+read pairs
    /// a second a thread, 72.32% of the cycles in `ksys_read` + `ksys_write`, a lone thread at
    /// the engine's SMT rule (two busy siblings at yield / 2 each), in cascadelake-2s's
    /// reference ns.
    #[test]
    fn the_pipe_op_is_lkp_pipe1_s_work_at_a_lone_thread() {
        let p = crate::engine::profile::profile("cascadelake-2s").unwrap();
        let pair_ns = 1e9 / 1_045_643.0;
        let op_busy = pair_ns * 0.7232 / 2.0;
        let lone = op_busy * (p.topo.smt_yield_permille as f64 / 2000.0);
        let reference = lone * p.speed_permille as f64 / 1000.0;
        assert_eq!(reference.round() as Ns, PIPE_OP_REF, "{op_busy:.1} ns busy, {lone:.1} lone");
    }

    /// MUTEX: two ops on one pipe entering the kernel together run one after the other:
    /// the second spins through the first's hold, then holds it for its own work.
    #[test]
    fn ops_on_one_pipe_take_turns_under_its_mutex() {
        let costs = Costs::new(crate::engine::profile::profile("cascadelake-2s").unwrap());
        let mut l = Lines::default();
        let (sys, work) = (100, 400);
        assert_eq!(
            l.locked_op(0, 1_000, sys, 5, work, 1000, &costs),
            (sys + work, 0),
            "first op: nothing to pull or wait for"
        );
        // CPU 1 (same socket) enters at the same instant: it spins the first op's 400 ns,
        // then pulls 5 lines at 47 ns and works 400 ns; the spin and the pull are a stall.
        assert_eq!(l.locked_op(1, 1_000, sys, 5, work, 1000, &costs), (sys + work + 5 * 47 + work, work + 5 * 47));
        // Long after, CPU 20 (the other socket): no spin, 5 lines at 134 ns.
        assert_eq!(l.locked_op(20, 10_000, sys, 5, work, 1000, &costs), (sys + 5 * 134 + work, 5 * 134));
    }

    /// HAND-OFF: `pipe->mutex` taken from a holder that has not unlocked yet costs the
    /// waiter two more latencies of the lock's line from the holder's CPU (the unlock's
    /// `cmpxchg` takes the line back from the spinning waiter, whose read and `cmpxchg` then
    /// take it again), on top of the spin and the chain; a free one costs nothing more, and
    /// a lock without the rule (the default: the sockets' spinlock) keeps the plain spin.
    #[test]
    fn a_contended_pipe_mutex_changes_hands_two_line_latencies_later() {
        let costs = Costs::new(crate::engine::profile::profile("cascadelake-2s").unwrap());
        let (sys, work) = (100, 400);
        let mut m = Lines::mutex();
        assert_eq!(m.locked_op(0, 1_000, sys, 5, work, 1000, &costs), (sys + work, 0));
        // CPU 1 asks at 1,100: the holder unlocks at 1,500; the line goes to CPU 0 and back
        // twice over (2 x 47 ns) before CPU 1 owns the lock, then 5 lines at 47 ns.
        let wait = 400 + 2 * 47;
        assert_eq!(m.locked_op(1, 1_000, sys, 5, work, 1000, &costs), (sys + wait + 5 * 47 + work, wait + 5 * 47));
        // Long after, free: no hand-off (CPU 20, the other socket: 5 lines at 134 ns).
        assert_eq!(m.locked_op(20, 10_000, sys, 5, work, 1000, &costs), (sys + 5 * 134 + work, 5 * 134));
        // The plain lock of the same two ops: the spin alone.
        let mut plain = Lines::default();
        plain.locked_op(0, 1_000, sys, 5, work, 1000, &costs);
        assert_eq!(plain.locked_op(1, 1_000, sys, 5, work, 1000, &costs).1, 400 + 5 * 47);
    }

    /// HOLDER'S SPEED: a holder whose SMT sibling is busy (650 permille, cascadelake-2s's
    /// rule) unlocks when its stretched burst is done, not after its work at a lone thread's
    /// speed: the op behind it spins that much longer. Its unlock is where the simulation
    /// ends its burst (entry, exit and work at 650 permille: 770 ns).
    #[test]
    fn a_holder_beside_a_busy_sibling_unlocks_when_its_slower_work_is_done() {
        let costs = Costs::new(crate::engine::profile::profile("cascadelake-2s").unwrap());
        let mut l = Lines::default();
        let (sys, work) = (100, 400);
        // CPU 0 at 650 permille: the lock at 1,000 + 154, the unlock 616 later, at 1,770.
        assert_eq!(l.locked_op(0, 1_000, sys, 5, work, 650, &costs), (sys + work, 0));
        assert_eq!(1_000 + at_rate(sys + work, 650), 1_770, "the burst as the simulation lays it");
        // CPU 1 (alone on its core) enters at 1,100 and asks at 1,200: it spins to 1,770
        // (570 ns; timed at a lone thread's speed the holder would have unlocked at 1,500:
        // 300 ns), then pulls 5 lines.
        let spin = 1_770 - 1_200;
        assert_eq!(l.locked_op(1, 1_100, sys, 5, work, 1000, &costs), (sys + spin + 5 * 47 + work, spin + 5 * 47));
    }

    /// The transfer's defining behaviour: a ping-pong's round trip on 2 x EPYC 7763 costs
    /// its four ops' lines (pipe_op_chain(1) = 4 latencies each) more when the two tasks are apart,
    /// at the cited core-to-core latency: 23 ns in a CCX, 107 ns across CCXs, 197 ns across
    /// sockets (nviennot/core-to-core-latency, EPYC 7R13), nothing on one CPU. The
    /// transfer is each op's stall (`Fx::stall`), and nothing else is.
    #[test]
    fn a_ping_pong_pays_the_pipe_s_lines_by_distance() {
        let p = crate::engine::profile::profile("zen3-2s").unwrap();
        let costs = Costs::new(p);
        // 100 round trips, A on CPU 0 and B on `b`; the run's CPU time and stall, ns.
        let trip = |b: usize| {
            let mut w = Pipe::new(100, Kernel::V66, costs.clone());
            let mut fx = Fx::default();
            let (mut total, mut stall) = (0, 0);
            let mut runnable = [true, true];
            for _ in 0..10_000 {
                for task in 0..2 {
                    if !runnable[task] {
                        continue;
                    }
                    fx.cpu = if task == 0 { 0 } else { b };
                    match w.next(task, 0, &mut fx) {
                        Step::Run { ns, .. } => total += ns,
                        Step::Block => runnable[task] = false,
                        _ => runnable[task] = false,
                    }
                    stall += std::mem::take(&mut fx.stall);
                    for (t, _) in fx.wakes.drain(..) {
                        runnable[t] = true;
                    }
                }
                if w.done() {
                    break;
                }
            }
            assert!(w.done());
            (total, stall)
        };
        let (same, none) = trip(0);
        assert_eq!(none, 0, "one CPU: no stall");
        assert_eq!(pipe_op_chain(1), 4);
        for (b, c2c) in [(1, 23), (8, 107), (64, 197), (128, 10)] {
            // 4 ops a round trip, 4 lines each; each pipe's first op finds its lines nowhere.
            // Each read finds its pipe empty first and looks (EMPTY_PIPE_LINES, 2): the look
            // comes before the other side's write, so the lines are where this side's own
            // last read left them, except B's first look, which pulls p1's 2 from A's write.
            let want = (100 * 4 - 2) * 4 * c2c + 2 * c2c;
            let (total, stall) = trip(b);
            assert_eq!(total - same, want, "B on CPU {b}");
            assert_eq!(stall, want, "B on CPU {b}: the transfer is the stall");
        }
    }

    /// EMPTY READ: a ping-pong read that finds its pipe empty pays the release's wait before
    /// it sleeps (3.11's `pipe_wait`: 4 locked instructions; 5.15's exclusive wait: 7; 8 ns
    /// of reference work each); before, it blocked in 0 ns. Its read after the wakeup is
    /// the whole op, with no second look.
    #[test]
    fn a_ping_pong_read_of_an_empty_pipe_pays_the_release_s_wait_before_it_sleeps() {
        let costs = Costs::new(crate::engine::Config::default().profile());
        for (kernel, locked) in [(Kernel::V311, 4), (Kernel::V515, 7)] {
            let mut w = Pipe::new(10, kernel, costs.clone());
            let mut fx = Fx::default();
            // B (task 1) reads first: nothing written yet.
            assert_eq!(w.next(1, 0, &mut fx), Step::Run { ns: costs.work(locked * 8), sys: true }, "{kernel:?}");
            assert_eq!(w.next(1, 0, &mut fx), Step::Block, "{kernel:?}: still empty, it sleeps");
            // A writes and wakes it; its read is one op.
            assert!(matches!(w.next(0, 0, &mut fx), Step::Run { .. }));
            assert!(matches!(w.next(0, 0, &mut fx), Step::Run { .. }), "A's own look at its empty pipe");
            assert_eq!(fx.wakes, vec![(1, true)]);
            assert_eq!(w.next(1, 0, &mut fx), Step::Run { ns: costs.syscall(PIPE_OP_REF), sys: true });
        }
    }

    /// CHAIN: the mutex, `head`/`tail` and the slot are pulled one after the other; the
    /// copy's lines together, up to the 10 line fill buffers. hackbench's 100-byte message
    /// writes 5 lines and waits for 4 latencies; 640 bytes (10 lines) still 4; 641, 5.
    #[test]
    fn a_copy_s_lines_are_in_flight_together() {
        assert_eq!((pipe_op_lines(100), pipe_op_chain(100)), (5, 4));
        assert_eq!((pipe_op_lines(640), pipe_op_chain(640)), (13, 4));
        assert_eq!((pipe_op_lines(641), pipe_op_chain(641)), (14, 5));
        assert_eq!(pipe_op_chain(4096), 3 + 7, "a page: 64 lines, 7 rounds of 10");
    }

    /// A packet pipe (one write a buffer) filled to its 16 buffers, writers 1 and 2 asleep.
    fn full(wake: PipeWake) -> PipeBuf {
        let mut p = PipeBuf::new(512, true, wake);
        let mut fx = Fx::default();
        for _ in 0..PIPE_BUFFERS {
            assert!(p.claim_write(1, true));
            p.write_done(false, 0, &mut fx);
        }
        assert!(!p.claim_write(1, true) && !p.claim_write(2, true));
        p
    }

    #[test]
    fn after_aaec5a95d596_only_a_read_that_frees_a_buffer_of_a_full_pipe_wakes_a_writer() {
        // 16 packets of 512 bytes: every read frees its buffer; only the first began on
        // (and released a buffer of) a full pipe.
        let mut p = full(PipeWake::FreedWhileFull);
        let mut fx = Fx::default();
        assert!(p.claim_read());
        p.read_done(&mut fx);
        assert_eq!(fx.wakes, vec![(1, true)]);
        // Page mode: 40 writes a page; a read that frees nothing wakes nobody.
        let mut q = PipeBuf::new(100, false, PipeWake::FreedWhileFull);
        for _ in 0..PIPE_BUFFERS * 40 {
            assert!(q.claim_write(1, true));
            q.write_done(false, 0, &mut fx);
        }
        assert!(!q.claim_write(2, true));
        fx.wakes.clear();
        for _ in 0..39 {
            assert!(q.claim_read());
            q.read_done(&mut fx);
        }
        assert!(fx.wakes.is_empty(), "39 reads of a still full pipe: no wakeup (5.6-6.13 woke 39)");
        assert!(q.claim_read());
        q.read_done(&mut fx);
        assert_eq!(fx.wakes, vec![(2, true)]);
    }

    #[test]
    fn up_to_5_4_every_write_wakes_the_shared_queue_even_a_merged_one() {
        // 3.11 pipe_write sets `do_wakeup = 1` in its merge path too. Writers 1 and 2 woke
        // to a full pipe and slept again (inside the loop they only take a new buffer);
        // writer 3's new write merges into the last page, which has room, and wakes them.
        for (wake, woken) in [(PipeWake::SharedQueue, vec![(1, true), (2, true)]), (PipeWake::WasFull, vec![])] {
            let mut p = PipeBuf::new(100, false, wake);
            let mut fx = Fx::default();
            for _ in 0..15 * 40 + 1 {
                assert!(p.claim_write(3, true));
                p.write_done(false, 0, &mut fx);
            }
            assert!(!p.claim_write(1, false) && !p.claim_write(2, false));
            fx.wakes.clear();
            assert!(p.claim_write(3, true), "a fresh write merges");
            p.write_done(false, 0, &mut fx);
            assert_eq!(fx.wakes, woken, "{wake:?}");
        }
    }

    #[test]
    fn a_writer_that_waited_wakes_the_next_one_unless_the_pipe_is_full_again() {
        // 5.15 pipe_write: `wake_next_writer` after a write that slept, if !pipe_full.
        let mut p = full(PipeWake::WasFull);
        let mut fx = Fx::default();
        for _ in 0..2 {
            assert!(p.claim_read());
            p.read_done(&mut fx);
        }
        // The first read (full) woke 1; the second began on 15 buffers: no wakeup.
        assert_eq!(fx.wakes, vec![(1, true)]);
        fx.wakes.clear();
        assert!(p.claim_write(1, false));
        p.write_done(true, 0, &mut fx);
        assert_eq!(fx.wakes, vec![(2, true)], "15 of 16 buffers taken: the next writer");
        fx.wakes.clear();
        assert!(p.claim_write(2, false));
        p.write_done(true, 0, &mut fx);
        assert!(fx.wakes.is_empty(), "full again: nobody");
    }
}
