//! hackbench (rt-tests `hackbench.c`; `perf bench sched messaging` is the same program):
//! `groups` groups of 20 senders spraying messages at 20 receivers over AF_UNIX sockets or pipes.
//!
//! PROGRAM (rt-tests src/hackbench/hackbench.c, `group()`, `sender()`, `receiver()`, `main()`):
//! - The parent creates, per group, 20 receivers (each owns one `socketpair(AF_UNIX,
//!   SOCK_STREAM)` or `pipe()`), then 20 senders that hold the write end of every receiver
//!   of their group. Task 0 here is the parent; group `g` is tasks `1 + 40g ..`, receivers first.
//! - Ready/start barrier (`ready()`): each child, right after it starts, writes one byte to
//!   the shared ready fd and `poll()`s the shared wakeup fd (sched-messaging.c 5.15: both
//!   made by `fdpair`, a socketpair by default, a pipe with `-p`). The parent reads one byte
//!   per child, takes the start time, and writes one byte to the wakeup fd: that one write
//!   wakes every poller (`sock_def_readable` or `pipe_write`:
//!   `wake_up_interruptible_sync_poll`, WF_SYNC; fs/select.c `pollwake` -> `__pollwake`
//!   passes `sync` on to `default_wake_function` -> `try_to_wake_up`).
//! - A sender does `for loops: for each receiver: write(fd, data, msg_size)`; a receiver does
//!   `num_fds * loops` reads of `msg_size` bytes (a short read is completed by another read;
//!   every write here is smaller than the buffer, so each read returns one whole message).
//! - The parent reaps every child (`wait()`; a child's exit wakes it through
//!   `do_notify_parent` -> `__wake_up_parent`, a sync wakeup), takes the stop time and prints
//!   "Time: x.xxx" (seconds, lower is better): the result.
//!
//! START: the fork loop and the ready bytes come before the start time, so the run begins
//! at the kick. At time 0 every child exists, placed where the era's fork placement put it
//! with the children before it asleep in poll() (`Workload::sleeps_at_start`, `sim::fork`),
//! and sleeps there with its new-task averages as blocked load; the parent, on its CPU,
//! takes the start time and writes the start byte, which wakes the children one after
//! another through the normal wakeup path (`select_task_rq_fair` from the parent's CPU,
//! WF_SYNC). Their order: each poll() queued its entry with `__pollwait` ->
//! `add_wait_queue` -> `__add_wait_queue`, which `list_add`s it at the head of the wait
//! queue (after any WQ_FLAG_PRIORITY entry; include/linux/wait.h 5.15), and
//! `__wake_up_common` (kernel/sched/wait.c) walks the list from the head: the last child to
//! poll is woken first. The children polled in creation order (each reaches poll() before
//! the parent's next fork returns: ASSUMPTION, a fork costing more than a child's first
//! two system calls), so the kick wakes the last-created child first and the first last.
//!
//! KERNEL SIDE (net/unix/af_unix.c, fs/pipe.c, net/core/sock.c):
//! - Socket: the 20 senders of a receiver share one socket (the pair's write end), whose
//!   send buffer is `sk_sndbuf` = `net.core.wmem_default` (212992, `sock_init_data`). Each
//!   message is one skb charged to that socket (`sock_alloc_send_pskb` in
//!   `unix_stream_sendmsg`) until the receiver consumes it (`sock_wfree`). A send proceeds
//!   while `sk_wmem_alloc < sk_sndbuf` (so one may overshoot), else the sender sleeps in
//!   `sock_wait_for_wmem` (non-exclusive). The receiver's `consume_skb` calls
//!   `unix_write_space`, which wakes all waiting senders (sync) once `unix_writable`:
//!   `wmem_alloc << 2 <= sndbuf`, a quarter of the buffer. The skb's `truesize` for a
//!   100-byte message is an estimate: the `sk_buff` (about 232 bytes, 256 aligned) plus a
//!   kmalloc'd head of `SKB_DATA_ALIGN(size) + skb_shared_info` (about 320 bytes), rounded
//!   up to a kmalloc size class. The send wakes a reader waiting in `unix_stream_read_generic`
//!   through `sk_data_ready` (`sock_def_readable`: sync).
//! - Pipe: 16 buffers of one page (`PIPE_DEF_BUFFERS`, 64 KB). `pipe_write` merges a write
//!   into the last page while it fits (`PIPE_BUF_FLAG_CAN_MERGE`, `offset + chars <=
//!   PAGE_SIZE`), else takes a new buffer; the writer sleeps when all 16 are taken. A page
//!   read empty is released (`pipe_buf_release` in `pipe_read`). Who wakes whom is the
//!   era's (`pipe::PipeWake`, `Kernel::pipe_wake`): up to 5.4 one shared queue, woken (all
//!   of it) by a released buffer and by every write; from 5.6 one writer per read that began
//!   on a full pipe (`was_full`), a woken writer facing a full pipe sleeping again at the
//!   tail, and `wake_next_writer`. A write to an empty pipe wakes the reader (sync).
//! - AF_UNIX's rules above (`unix_writable`: `sk_wmem_alloc << 2 <= sk_sndbuf`, then
//!   `unix_write_space`'s non-exclusive wakeup; `sk_data_ready` on each send) are the same
//!   in every modelled era (2.6's `atomic_read`, 4.11+'s `refcount_read`; 6.10's
//!   `unix_writable(sk, state)` only adds the listen-state test), so sockets have no era switch.
//! - `msg_size` is at most a page, `PIPE_BUF`: each message stays one atomic write on both.
//!
//! COSTS: each read and write is a system call (the profile's entry/exit cost) plus kernel
//! work on the 2007 reference machine. The pipe op is the pipe workload's estimate
//! (`PIPE_OP_REF`, 468 ns, from will-it-scale's `pipe1`). The copy is 0.25 ns/byte (estimate: ~4 GB/s
//! `copy_to/from_user` on a Core 2). A child's exit costs an estimate of 20 us of reference
//! work in process mode (tearing down a forked mm) and 5 us in thread mode.
//!
//! SOCKET SEND AND RECEIVE (`SOCK_SEND_REF`, `SOCK_RECV_REF`). What each side does (6.6
//! net/unix/af_unix.c; 5.15's is the same for these steps):
//! - `unix_stream_sendmsg`: `sock_alloc_send_pskb` (wmem test, `alloc_skb_with_frags` ->
//!   `__alloc_skb`: the `sk_buff` from `skbuff_head_cache` and a kmalloc'd head, with memcg
//!   hooks in the profile's tree; `skb_set_owner_w`), `unix_scm_to_skb`,
//!   `skb_copy_datagram_from_iter` (the copy in), then under `unix_state_lock(other)`
//!   `skb_queue_tail`, and `sk_data_ready` (`sock_def_readable`: the wait queue's lock and
//!   the wakeup).
//! - `unix_stream_read_generic`: `mutex_lock(&u->iolock)`, under `unix_state_lock(sk)`
//!   `skb_peek`, `scm_recv` (`scm_recv_unix` in the profile's tree),
//!   `unix_stream_read_actor` -> `skb_copy_datagram_msg` (the copy out), `skb_unlink`,
//!   `consume_skb` (`skb_release_head_state` -> `unix_destruct_scm` -> `sock_wfree` ->
//!   `unix_write_space`; `skb_release_data` -> `kfree` of the head; `kfree_skbmem` ->
//!   `kmem_cache_free` of the `sk_buff`), `mutex_unlock`.
//!
//! Their shares of the CPU come from a published profile of this very program: the kernel
//! test robot's report on hackbench, threads over sockets (`perf bench sched messaging -t`'s
//! program), 128-thread Ice Lake Xeon Gold 6338, bpf tree of June 2025 (LKP, "[PATCH bpf
//! v2] xsk: Fix out of order segment free in __xsk_generic_xmit()",
//! `<202506042255.a3161554-lkp@intel.com>`), its base column, inclusive (`children`)
//! cycles: `vfs_write` 37.92%, less `try_to_wake_up`'s 3.83% (all of it, nearly all under
//! `sock_def_readable`: the wakeup, which the simulation charges the waker apart:
//! `Profile::ttwu`), leaves **34.09%** for a send;
//! `vfs_read` 40.72%, of which `schedule_timeout` 3.51% (the receiver's sleep in
//! `unix_stream_data_wait`: the simulation's switch), leaves **37.21%** for a receive. Each
//! message is one write and one read, so a receive costs 1.09 sends. (Eric Dumazet's 2011
//! profile in 16e5726269611b71, "af_unix: dont send SCM_CREDENTIALS by default", agrees in
//! direction: self time `unix_stream_recvmsg` 8.60% against `unix_stream_sendmsg` 7.87%.)
//! The profile gives the split, not the level. The level (`SOCK_PAIR_REF`) is the pair's
//! work against a pipe op's on one machine, kernel and load: the same LKP report that
//! sources `PIPE_OP_REF` (lkp-csl-2ap4, 2 x Xeon Platinum 9242, v5.8-rc3, base column) also
//! ran will-it-scale's `unix1` (each copy writes one byte into its own `socketpair` and
//! reads it back: one `unix_stream_sendmsg` and one `unix_stream_recvmsg`, nobody to wake),
//! `mode=process`, `nr_task=100%`: 720,286 ops a second a copy, 1,388.3 ns a pair, of which
//! `ksys_write` 44.34% + `ksys_read` 38.85% = 83.19% is the work, 1,155.0 ns; `pipe1` in the
//! same run: 345.8 ns an op. The pair is 1,155.0 / 345.8 = **3.34 pipe ops** (1,563 ns of
//! reference work; it was 3.5, 1,750 ns, an estimate), split 34.09 : 37.21 (747 and 815 ns;
//! the old split, 2 and 1.5 pipe ops, had no source). Both runs loaded every hardware
//! thread, so the SMT sharing cancels in the ratio; their entry and exit agree (106.5 ns a
//! call here, 102.7 in `pipe1`). Simplified: one-byte messages (hackbench's 100-byte copy
//! is `COPY_PS_PER_BYTE`, added apart), and the ratio of 5.8 is carried to every era. Simplified: the profile's cycles include
//! its cache misses and its SLUB node-lock contention (`get_partial_node`,
//! `__put_partials`), which the simulation charges (the lines) or leaves out (the node
//! lock) apart; the copy is in the shares and is added again as `COPY_PS_PER_BYTE` (25 ns
//! a side at 100 bytes); a read that found the queue empty is in the read's share too
//! (see EMPTY READ, about a tenth of the reads here).
//!
//! EMPTY READ (`Phase::Claim`, `Phase::Woken`). A receiver that finds its socket or pipe
//! empty does not block for free: the read has entered the kernel, looked, and prepared
//! to wait, and after the wakeup it takes the locks again before the read proper
//! (`WaitLocked`, counted per release; the unlocks of spinlocks are plain stores, a mutex's
//! unlock is a `LOCK CMPXCHG`). Socket, 6.6 `unix_stream_read_generic` and
//! `unix_stream_data_wait`: `mutex_lock(&u->iolock)`, `unix_state_lock(sk)`, `skb_peek`
//! finds nothing, `unix_state_unlock`, `mutex_unlock(&u->iolock)`; `unix_stream_data_wait`:
//! `unix_state_lock`, `prepare_to_wait` (the wait queue's spinlock and `set_current_state`'s
//! `smp_store_mb`), `skb_peek_tail` unchanged, `sk_set_bit(SOCKWQ_ASYNC_WAITDATA)` (no
//! atomic: include/net/sock.h returns early for a socket without SOCK_FASYNC), `unix_state_unlock`,
//! `schedule_timeout`; woken: `unix_state_lock`, `sk_clear_bit` (no atomic), `prepare_to_wait`
//! again (lock and store; it puts the entry back on the queue that
//! `autoremove_wake_function` took it off), the tail moved, `finish_wait` (the entry is on
//! the queue: lock), `unix_state_unlock`, `mutex_lock(&u->iolock)` and the read: 10 locked
//! instructions beyond a read that finds data. 3.11 (`unix_stream_recvmsg`, the same
//! steps) sets and clears SOCK_ASYNC_WAITDATA with `set_bit`/`clear_bit` on every wait: 12.
//! Pipe, 5.15 `pipe_read`: `__pipe_lock`, empty, `__pipe_unlock`,
//! `wait_event_interruptible_exclusive(pipe->rd_wait, ...)`: `prepare_to_wait_event` (lock
//! and store), `schedule`; woken: `prepare_to_wait_event` again (lock and store),
//! `finish_wait` (the entry is back on the list: lock): 7. 3.11's `pipe_read` holds the
//! mutex across its loop and waits in `pipe_wait`: `prepare_to_wait` (lock and store),
//! `pipe_unlock`, `schedule`; woken: `finish_wait` (the entry was taken off: no lock),
//! `pipe_lock`: 4. Each locked instruction costs `LOCKED_OP_REF` (19 cycles: uops.info's measured throughput of
//! `LOCK CMPXCHG m64, r64` on Alder Lake-P, 19.07 cycles a loop iteration; LLVM commit
//! b1bdd97a2671 measured ~17 on AMD Jaguar), 8 ns at the reference's 2.4 GHz. The look
//! itself holds the lock over the queue's lines (socket: `SOCK_QUEUE_LINES`; pipe: the
//! mutex and `head`/`tail`, `EMPTY_PIPE_LINES`), pulled from the last op's CPU as a stall.
//! The sender's side is the same mechanism: a socket send finding
//! `sk_wmem_alloc >= sk_sndbuf` (6.6 `sock_alloc_send_pskb`: `sk_set_bit(NOSPACE)` (no
//! atomic), `set_bit(SOCK_NOSPACE)`; `sock_wait_for_wmem`: `sk_clear_bit` (no atomic),
//! `set_bit`, `prepare_to_wait` (lock and store); woken: `set_bit`, `prepare_to_wait` again,
//! `finish_wait` (lock): 8; 3.11's unconditional `set_bit`/`clear_bit` of
//! SOCK_ASYNC_NOSPACE make it 10) reads `sk_wmem_alloc`'s line; a pipe write finding the
//! pipe full (5.15 `pipe_write`: `__pipe_lock`, `__pipe_unlock`,
//! `wait_event_interruptible_exclusive(pipe->wr_wait, ...)`, as the read: 7; 3.11's
//! `pipe_wait`: 4) looks under the mutex. A woken task that must sleep again (a 5.6+ pipe
//! writer woken by a read that freed no buffer, finding all 16 taken) pays one more round of
//! its wait loop: a 5.15 pipe's `prepare_to_wait_event` (2), a 3.11 pipe's `pipe_wait`
//! with its `pipe_lock` (4), a socket read's `unix_state_lock` and `prepare_to_wait` (3;
//! 3.11 adds `clear_bit` and `set_bit`: 5), a socket write's `set_bit` and
//! `prepare_to_wait` (3). Each look runs before the block; a message (or room) that arrives during it is found
//! at its end (the kernel's `skb_peek_tail` after `prepare_to_wait`, the wmem test in
//! `sock_wait_for_wmem`, `pipe_readable`/`pipe_writable` in `___wait_event`), and the op
//! goes on without sleeping. Simplified: two eras each (2.6 and 4.17 take the counts of
//! 3.11 and 6.6, whose code they share in these paths); the plain instructions between the locked ones (the checks, the list
//! ops) are not counted, so the figure is a floor; the first look charges the wakeup's
//! part too, even when the op then goes on without sleeping; the op after the wakeup is
//! charged as a whole op (including the dispatch the kernel does not repeat).
//!
//! TRANSFER AND MUTEX: a pipe read or write pulls the pipe's shared cache lines from the CPU
//! of the pipe's previous op (`pipe::Lines`, counted from 5.15 fs/pipe.c), at the profile's
//! core-to-core latency for the pair, under `pipe->mutex`: the 20 senders and the receiver
//! of a pipe take turns, a late one spinning (`pipe` module doc: MUTEX) and paying the
//! contended hand-off's extra line latencies (HAND-OFF); the holder unlocks when its work,
//! at its CPU's SMT speed, is done (HOLDER'S SPEED).
//!
//! SOCKET LINES AND LOCK (`Hackbench::sock_send`, `sock_recv`; counted from 6.6
//! net/unix/af_unix.c `unix_stream_sendmsg` and `unix_stream_read_generic`, net/core/sock.c
//! `sock_alloc_send_pskb`/`sock_wfree`, net/core/skbuff.c, mm/slub.c). Each line is one
//! latency of the profile's core-to-core figure for the pair (the pipe's `C2c`, the same
//! one-way CAS hand-off), 0 on the same CPU; the lines that wait for one another are paid
//! in series (locked ops are not reordered with loads: Intel SDM vol. 3A, 8.2.2; a load
//! whose address comes from another waits for it), independent ones together:
//! - A send: (thread mode only) `fdget` takes a reference on the write end's `struct file`
//!   (`__fget_light` refcounts when the fd table is shared, `files->count > 1`), a line the
//!   group's 20 senders share, from the last sender's CPU; `sock_alloc_send_pskb` reads and
//!   `skb_set_owner_w` adds to the sending socket's `sk_wmem_alloc`, from the CPU of the last
//!   send or `sock_wfree` on it; `alloc_skb` takes two slab objects (the `sk_buff` and its
//!   head) whose free pointers were written where they were freed, by a receiver (one
//!   latency for both; the channel's receiver stands for whichever receiver freed them);
//!   then under `unix_state_lock(other)`, `unix_sk(other)->lock` and `skb_queue_tail`'s
//!   `sk_receive_queue` lock and head, from the queue's last op, and the old tail skb's
//!   `next` when the queue is not empty, from that skb's sender.
//! - A receive: under `unix_state_lock(sk)`, the lock and `skb_peek`'s queue head, from the
//!   queue's last op; then the skb (`len`, `UNIXCB(skb).consumed`) and its data
//!   (`skb_copy_datagram_msg`) from the message's sender, in series; `skb_unlink` writes the
//!   next skb's `prev` (from its sender, when one is queued); `consume_skb` -> `sock_wfree`
//!   subtracts from the sending socket's `sk_wmem_alloc`; and the two objects go back to the
//!   sender CPU's slabs: SLUB's free of an object whose slab is not this CPU's is
//!   `__slab_free`, a `cmpxchg_double` on the slab's `freelist`/`counters`, one latency each
//!   from the message's sender (the slab's owner stands for its last writer).
//! - `unix_state_lock` is a spinlock held over the queue's lines (`pipe::Lines::locked_op`:
//!   a sender or the receiver finding it held spins until it is free); the rest of the op
//!   (its work, the alloc, the copy, the frees) runs outside it. Its hold is line transfers
//!   only, which a busy SMT sibling does not lengthen; the work before it is timed at a
//!   lone thread's speed (the pipe's HOLDER'S SPEED is not applied to sockets: simplified).
//!
//! Simplified: the state lock and the queue's own lock are one lock; `skb_unlink` retaking
//! the queue lock after the copy is not charged again; `sock_def_readable` reads the reader's
//! wait queue without a transfer (a reader that slept wrote it; its wakeup is the wakeup
//! path's cost); the spinlock's hand-off moves the line once.
//!
//! Process and thread mode differ in the exit cost above, the write end's `f_count` line
//! (SOCKET LINES), the task names and the tasks' mms: sched-messaging.c's `create_worker`
//! forks each worker in process mode and `pthread_create`s it in thread mode, all groups'
//! threads in the one main process, so a switch between two of them skips `switch_mm`
//! (`TaskSpec::mm`, `sim::schedule` SWITCH_MM). SIMPLIFIED: a sender woken after waiting for space
//! re-checks and continues inside the same system call (no second entry cost), as the
//! kernel does; the wait costs its locks (EMPTY READ).

use std::collections::VecDeque;

use super::pipe::{
    copy_chain, pipe_op_chain, pipe_wait_locked, Lines, PipeBuf, EMPTY_PIPE_LINES, LOCKED_OP_REF, PIPE_OP_REF,
};
use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::config::values::{HACKBENCH_FDS, HACKBENCH_TASKS_PER_GROUP};
use crate::engine::kernel::Kernel;
use crate::engine::time::Ns;

/// Senders and receivers per group (hackbench's `num_fds`, 20 by default).
pub const FDS: usize = HACKBENCH_FDS;
/// Tasks per group.
pub const TASKS_PER_GROUP: usize = HACKBENCH_TASKS_PER_GROUP;
/// The config's names, kept for this module's readers (`hackbench::Mode`).
pub use crate::engine::config::values::HackbenchMode as Mode;
pub use crate::engine::config::values::Ipc;

/// `net.core.wmem_default`: an AF_UNIX socket's `sk_sndbuf` (`sock_init_data`).
pub const WMEM_DEFAULT: u64 = 212_992;
/// skb overhead on top of the data: `sk_buff` (256 aligned) + `skb_shared_info` (320), estimate.
const SKB_OVERHEAD: u64 = 256 + 320;
/// Pipe buffers (`PIPE_DEF_BUFFERS`) and their page size.
pub use super::pipe::PIPE_BUFFERS;
pub const PAGE_SIZE: u64 = 4096;
/// Kernel work of a socket send and receive together on the reference machine: 3.34 pipe
/// ops, will-it-scale's `unix1` against `pipe1` on one Cascade Lake (module doc: SOCKET
/// SEND AND RECEIVE).
const SOCK_PAIR_REF: Ns = PIPE_OP_REF * 334 / 100;
/// The send's and the receive's shares of the CPU in the LKP hackbench profile, in
/// hundredths of a percent (`vfs_write` less `try_to_wake_up`, `vfs_read` less
/// `schedule_timeout`; module doc: SOCKET SEND AND RECEIVE).
const SEND_SHARE: Ns = 3409;
const RECV_SHARE: Ns = 3721;
/// Kernel work of a socket send / receive on the reference machine: the pair split by the
/// profile's shares.
pub(crate) const SOCK_SEND_REF: Ns = SOCK_PAIR_REF * SEND_SHARE / (SEND_SHARE + RECV_SHARE);
pub(crate) const SOCK_RECV_REF: Ns = SOCK_PAIR_REF * RECV_SHARE / (SEND_SHARE + RECV_SHARE);
/// The locked instructions a wait adds, counted in the release's code (module doc: EMPTY
/// READ): a read that finds its socket or pipe empty, a send that finds the socket's send
/// buffer or the pipe full, and a woken task's next round of its wait loop when it must sleep
/// again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaitLocked {
    pub empty_read: Ns,
    pub full_write: Ns,
    pub read_round: Ns,
    pub write_round: Ns,
}

impl WaitLocked {
    pub(crate) fn of(ipc: Ipc, kernel: Kernel) -> WaitLocked {
        // Sockets: `sk_set_bit`/`sk_clear_bit` skip the SOCKWQ_ASYNC_* bits of a socket
        // without FASYNC (hackbench's) in every release modelled after 3.11 (4.17 on); 3.11
        // and before set and clear them unconditionally. Pipes: `pipe_wait` up to 5.4,
        // `wait_event_interruptible_exclusive` after (the same boundary as `pipe_wake`).
        let fasync_test = kernel >= Kernel::V417;
        match ipc {
            Ipc::Socket if fasync_test => WaitLocked { empty_read: 10, full_write: 8, read_round: 3, write_round: 3 },
            Ipc::Socket => WaitLocked { empty_read: 12, full_write: 10, read_round: 5, write_round: 3 },
            Ipc::Pipe => {
                let (first, round) = pipe_wait_locked(kernel.pipe_wake());
                WaitLocked { empty_read: first, full_write: first, read_round: round, write_round: round }
            }
        }
    }
}
/// Socket (module doc: SOCKET LINES): lines pulled in series under `unix_state_lock`, the
/// lock's own (`unix_sk(sk)->lock`) and `sk_receive_queue`'s (its lock, head and `qlen`).
const SOCK_QUEUE_LINES: u64 = 2;
/// Socket: lines a receive pulls from the message's sender in series, besides the data's
/// (`pipe::copy_chain`): the skb before it and the two slab frees' `cmpxchg_double` after.
const SOCK_RECV_SKB_LINES: u64 = 1 + 2;
/// Copy cost in picoseconds per byte (estimate).
pub(crate) const COPY_PS_PER_BYTE: u64 = 250;
/// A child's exit, reference work (estimates).
const EXIT_PROCESS_REF: Ns = 20_000;
const EXIT_THREAD_REF: Ns = 5_000;

/// An skb's `truesize` for a message of `size` bytes: the data head is a kmalloc of the
/// aligned size plus the shared info, rounded up to a power-of-two size class (estimate).
pub fn skb_truesize(size: u64) -> u64 {
    let head = size.div_ceil(64) * 64 + 320;
    head.next_power_of_two() + (SKB_OVERHEAD - 320)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Child: in poll, waiting for the start byte (where each child begins: module doc: START).
    Poll,
    /// Sender: try the next write. Receiver: try the next read.
    Work,
    /// The op may proceed (after a look that found the socket or pipe empty or full and
    /// prepared to wait, module doc: EMPTY READ): claim the message or the space, else sleep.
    Claim,
    /// Woken from that sleep: look again (the kernel's wait loop), then claim.
    Woken,
    /// The write / read burst ended: make it visible.
    AfterWork,
    /// Child: run the exit path.
    Exiting,
    /// Parent: every ready byte read; take the start time and write the start byte.
    MainStart,
    /// Parent: the start byte's write ended.
    MainAfterStart,
    /// Parent: reap children.
    MainReap,
    Done,
}

/// One receiver's socket (a pipe is a `PipeBuf`).
#[derive(Clone, Debug, Default)]
struct Chan {
    /// Messages written and visible to the reader.
    queued: u64,
    /// Socket: bytes charged to the sending socket (`sk_wmem_alloc`).
    wmem: u64,
    /// Senders waiting for space, in the order they slept.
    blocked: VecDeque<usize>,
    reader_waiting: bool,
    /// Socket: the CPU each queued message was sent on, oldest first (its skb's lines).
    skb_cpu: VecDeque<u32>,
    /// Socket: the receive queue's lines and `unix_state_lock` (module doc: SOCKET LINES).
    queue: Lines,
    /// Socket: where the sending socket's `sk_wmem_alloc` line is.
    wmem_line: Lines,
    /// Socket, thread mode: where the write end's `struct file` (`f_count`) is.
    file_line: Lines,
    /// Socket: the CPU of the receiver's last read (where it freed the last skb).
    rx_cpu: Option<usize>,
}

/// A task's own state, in one record per task (issue 27: four vectors had cost a pointer
/// and a bounds check per field in each round of `next`'s loop), with its `role` worked
/// out once at the start instead of by a division in every call.
#[derive(Clone, Copy, Debug)]
struct TaskState {
    phase: Phase,
    /// In poll() waiting for the start byte (module doc: START).
    polling: bool,
    /// Sender: slept in its current write (`PipeBuf::claim_write`'s `fresh`, `write_done`'s
    /// `waited`).
    waited: bool,
    /// Child: messages sent (sender) or received (receiver).
    count: u64,
    /// Child: `role`'s group and index in it, and whether it sends, kept from the start.
    group: u32,
    index: u32,
    sender: bool,
}

pub struct Hackbench {
    groups: usize,
    loops: u64,
    msg_size: u64,
    mode: Mode,
    ipc: Ipc,
    /// The release's locked instructions of a wait (module doc: EMPTY READ).
    wait_locked: WaitLocked,
    costs: Costs,
    truesize: u64,
    /// `op_cost` of a read (0) and of a write (1), and a pipe op's chain of lines
    /// (`pipe_op_chain`): fixed by the message size and the machine, so computed once (a
    /// division by the machine's speed per op was most of an op's own cost).
    op_ns: [Ns; 2],
    op_lines: u64,
    chans: Vec<Chan>,
    /// Pipe mode: each receiver's pipe, with the era's wake rules.
    pipes: Vec<PipeBuf>,
    /// Pipe mode: where each pipe's shared cache lines are (`pipe::Lines`).
    lines: Vec<Lines>,
    /// Per task (the parent at 0), its state in one record.
    state: Vec<TaskState>,
    exited: usize,
    reaped: usize,
    main_waiting: bool,
    started: bool,
    start: Ns,
    stop: Option<Ns>,
    sent: u64,
    received: u64,
}

impl Hackbench {
    pub fn new(groups: usize, loops: u64, msg_size: u64, mode: Mode, ipc: Ipc, kernel: Kernel, costs: Costs) -> Self {
        let n = 1 + groups * TASKS_PER_GROUP;
        // The run begins at the kick (module doc: START): every child has written its ready
        // byte and sleeps in poll(); the parent has read all the bytes.
        let mut state: Vec<_> = (0..n)
            .map(|t| {
                let (g, i, sender) = if t == 0 { (0, 0, false) } else { Self::role(t) };
                let (group, index) = (g as u32, i as u32);
                TaskState { phase: Phase::Poll, polling: true, waited: false, count: 0, group, index, sender }
            })
            .collect();
        state[0] = TaskState { phase: Phase::MainStart, polling: false, ..state[0] };
        let msg_size = msg_size.clamp(1, PAGE_SIZE);
        let mut h = Hackbench {
            groups,
            loops,
            msg_size,
            mode,
            ipc,
            wait_locked: WaitLocked::of(ipc, kernel),
            costs,
            truesize: skb_truesize(msg_size),
            op_ns: [0; 2],
            op_lines: pipe_op_chain(msg_size),
            chans: vec![Chan::default(); groups * FDS],
            pipes: match ipc {
                Ipc::Pipe => vec![PipeBuf::new(msg_size, false, kernel.pipe_wake()); groups * FDS],
                Ipc::Socket => Vec::new(),
            },
            lines: vec![Lines::mutex(); groups * FDS],
            state,
            exited: 0,
            reaped: 0,
            main_waiting: false,
            started: false,
            start: 0,
            stop: None,
            sent: 0,
            received: 0,
        };
        h.op_ns = [h.op_cost_of(false), h.op_cost_of(true)];
        h
    }

    fn children(&self) -> usize {
        self.groups * TASKS_PER_GROUP
    }

    /// (group, index in group, is a sender) of child task `t` (>= 1).
    fn role(t: usize) -> (usize, usize, bool) {
        let i = t - 1;
        let (g, k) = (i / TASKS_PER_GROUP, i % TASKS_PER_GROUP);
        (g, k % FDS, k >= FDS)
    }

    fn receiver_task(chan: usize) -> usize {
        1 + (chan / FDS) * TASKS_PER_GROUP + chan % FDS
    }

    /// Messages each receiver reads (and each sender writes): `num_fds * loops`.
    fn per_child(&self) -> u64 {
        FDS as u64 * self.loops
    }

    /// Socket: whether a sender may start a send on `c` now (and charge its skb).
    fn claim_space(&mut self, c: usize) -> bool {
        let ch = &mut self.chans[c];
        if ch.wmem >= WMEM_DEFAULT {
            return false;
        }
        ch.wmem += self.truesize;
        true
    }

    /// Socket: the receiver consumed one message of `c` (`consume_skb` -> `sock_wfree`):
    /// uncharge it and wake writers as `unix_write_space` does.
    fn release_space(&mut self, c: usize, fx: &mut Fx) {
        let ch = &mut self.chans[c];
        ch.wmem -= self.truesize;
        // unix_write_space: wake every waiting sender once a quarter of sndbuf is left.
        if ch.wmem << 2 <= WMEM_DEFAULT {
            for w in ch.blocked.drain(..) {
                fx.wakes.push((w, true));
            }
        }
    }

    /// A read or write of channel `c` on `cpu` at `now`: its syscall, and in pipe mode the
    /// spin for `pipe->mutex` and the pipe's shared lines pulled from the CPU of its last op
    /// (`pipe::Lines`). Sockets: `sock_send` / `sock_recv` (module doc: SOCKET LINES).
    fn op_on(&mut self, c: usize, now: Ns, send: bool, fx: &mut Fx) -> Ns {
        match self.ipc {
            Ipc::Pipe => {
                // Under `pipe->mutex` (`pipe::Lines::locked_op`): the work past the syscall's
                // entry; the spin and the transfer are a stall (`Fx::stall`).
                let work = self.op_cost(send) - self.costs.syscall;
                let (ns, stall) =
                    self.lines[c].locked_op(fx.cpu, now, self.costs.syscall, self.op_lines, work, fx.rate, &self.costs);
                fx.stall = stall;
                ns
            }
            Ipc::Socket if send => self.sock_send(c, now, fx),
            Ipc::Socket => self.sock_recv(c, now, fx),
        }
    }

    /// One latency of a line last written on `from` (none: never written), pulled to `to`.
    fn line_from(&self, from: Option<usize>, to: usize) -> Ns {
        from.map_or(0, |f| self.costs.transfer(f, to, 1))
    }

    /// A socket send to channel `c` (module doc: SOCKET LINES): the syscall, the file's,
    /// `sk_wmem_alloc`'s and the slab objects' lines and the work outside the lock, then
    /// `unix_state_lock(other)` over the queue's two lines and the old tail skb's.
    fn sock_send(&mut self, c: usize, now: Ns, fx: &mut Fx) -> Ns {
        let (cpu, costs) = (fx.cpu, &self.costs);
        let thread = self.mode == Mode::Thread;
        let rx = self.chans[c].rx_cpu;
        let objects = self.line_from(rx, cpu);
        let ch = &mut self.chans[c];
        let file = if thread { ch.file_line.touch(cpu, 1, costs) } else { 0 };
        let pre_xfer = file + ch.wmem_line.touch(cpu, 1, costs) + objects;
        let work = self.op_cost(true) - costs.syscall;
        let ch = &mut self.chans[c];
        let tail = ch.skb_cpu.back().map_or(0, |&f| costs.transfer(f as usize, cpu, 1));
        let (ns, held_stall) =
            ch.queue.locked_op(cpu, now, costs.syscall + pre_xfer + work, SOCK_QUEUE_LINES, tail, 1000, costs);
        fx.stall = pre_xfer + held_stall + tail;
        ns
    }

    /// A socket receive from channel `c`, whose oldest message it has claimed (module doc:
    /// SOCKET LINES): the syscall, `unix_state_lock(sk)` over the queue's two lines, then the
    /// skb and its data, the next skb's `prev`, `sk_wmem_alloc` and the two slab frees.
    fn sock_recv(&mut self, c: usize, now: Ns, fx: &mut Fx) -> Ns {
        let (cpu, costs) = (fx.cpu, &self.costs);
        let work = self.op_cost(false) - costs.syscall;
        let msg_lines = SOCK_RECV_SKB_LINES + copy_chain(self.msg_size);
        let ch = &mut self.chans[c];
        let (ns, held_stall) = ch.queue.locked_op(cpu, now, costs.syscall, SOCK_QUEUE_LINES, 0, 1000, costs);
        let from = ch.skb_cpu.pop_front().map(|f| f as usize);
        let next = ch.skb_cpu.front().map_or(0, |&f| costs.transfer(f as usize, cpu, 1));
        let wmem = ch.wmem_line.touch(cpu, 1, costs);
        ch.rx_cpu = Some(cpu);
        let msg = from.map_or(0, |f| costs.transfer(f, cpu, msg_lines));
        let post = msg + next + wmem;
        fx.stall = held_stall + post;
        ns + post + work
    }

    /// Whether `task`'s read (`send` false) or write of channel `c` must wait: nothing
    /// queued, or no room (`sk_wmem_alloc >= sk_sndbuf`; a pipe whose 16 buffers are taken
    /// and, for a new write, whose last page has no room to merge into).
    fn must_wait(&self, c: usize, waited: bool, send: bool) -> bool {
        match (self.ipc, send) {
            (Ipc::Socket, true) => self.chans[c].wmem >= WMEM_DEFAULT,
            (Ipc::Socket, false) => self.chans[c].queued == 0,
            (Ipc::Pipe, true) => self.pipes[c].write_must_wait(!waited),
            (Ipc::Pipe, false) => self.pipes[c].queued() == 0,
        }
    }

    /// A read or write (`send`) of channel `c` that must wait, on `fx.cpu` at `now` (module
    /// doc: EMPTY READ). `first`: the op's first look, under the lock over the queue's lines
    /// (a stall when they come from another CPU or the lock is held) or, for a socket send,
    /// `sk_wmem_alloc`'s line, with the locked instructions of preparing to wait and of the
    /// wakeup; else a woken task's next round of its wait loop. No entry/exit of its own:
    /// the op that follows pays the system call's.
    fn wait_look(&mut self, c: usize, now: Ns, send: bool, first: bool, fx: &mut Fx) -> Ns {
        let (cpu, costs) = (fx.cpu, &self.costs);
        let w = self.wait_locked;
        let locked = match (send, first) {
            (false, true) => w.empty_read,
            (true, true) => w.full_write,
            (false, false) => w.read_round,
            (true, false) => w.write_round,
        };
        let (held, stall) = match (first, self.ipc, send) {
            (false, _, _) => (0, 0),
            (true, Ipc::Pipe, _) => self.lines[c].locked_op(cpu, now, 0, EMPTY_PIPE_LINES, 0, fx.rate, costs),
            (true, Ipc::Socket, false) => self.chans[c].queue.locked_op(cpu, now, 0, SOCK_QUEUE_LINES, 0, 1000, costs),
            (true, Ipc::Socket, true) => {
                let t = self.chans[c].wmem_line.touch(cpu, 1, costs);
                (t, t)
            }
        };
        fx.stall = stall;
        held + costs.work(locked * LOCKED_OP_REF)
    }

    /// A read's or write's (`send`) system call and its work (`op_ns`).
    #[inline]
    fn op_cost(&self, send: bool) -> Ns {
        self.op_ns[usize::from(send)]
    }

    /// `op_cost` computed: the op's reference work and the copy, on this machine.
    fn op_cost_of(&self, send: bool) -> Ns {
        let copy = self.msg_size * COPY_PS_PER_BYTE / 1000;
        let base = match (self.ipc, send) {
            (Ipc::Pipe, _) => PIPE_OP_REF,
            (Ipc::Socket, true) => SOCK_SEND_REF,
            (Ipc::Socket, false) => SOCK_RECV_REF,
        };
        self.costs.syscall(base + copy)
    }

    fn wake_main(&mut self, fx: &mut Fx) {
        if self.main_waiting {
            self.main_waiting = false;
            fx.wakes.push((0, true));
        }
    }

    /// `next` for child `task`.
    fn child_next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        let TaskState { group, index, sender, .. } = self.state[task];
        let (g, i) = (group as usize, index as usize);
        loop {
            match self.state[task].phase {
                Phase::Poll => {
                    if !self.started {
                        self.state[task].polling = true;
                        return Step::Block;
                    }
                    self.state[task].phase = Phase::Work;
                }
                Phase::Work if sender => {
                    if self.state[task].count >= self.per_child() {
                        self.state[task].phase = Phase::Exiting;
                        continue;
                    }
                    self.state[task].phase = Phase::Claim;
                    let c = g * FDS + (self.state[task].count % FDS as u64) as usize;
                    if self.must_wait(c, self.state[task].waited, true) {
                        // The look and the preparation to wait (module doc: EMPTY READ).
                        return Step::Run { ns: self.wait_look(c, now, true, true, fx), sys: true };
                    }
                }
                Phase::Claim if sender => {
                    let c = g * FDS + (self.state[task].count % FDS as u64) as usize;
                    match self.ipc {
                        Ipc::Socket => {
                            if !self.claim_space(c) {
                                self.chans[c].blocked.push_back(task);
                                self.state[task].phase = Phase::Woken;
                                return Step::Block;
                            }
                        }
                        Ipc::Pipe => {
                            if !self.pipes[c].claim_write(task, !self.state[task].waited) {
                                self.state[task].waited = true;
                                self.state[task].phase = Phase::Woken;
                                return Step::Block;
                            }
                        }
                    }
                    self.state[task].phase = Phase::AfterWork;
                    return Step::Run { ns: self.op_on(c, now, true, fx), sys: true };
                }
                Phase::Work => {
                    if self.state[task].count >= self.per_child() {
                        self.state[task].phase = Phase::Exiting;
                        continue;
                    }
                    self.state[task].phase = Phase::Claim;
                    if self.must_wait(g * FDS + i, self.state[task].waited, false) {
                        // The look and the preparation to wait (module doc: EMPTY READ).
                        return Step::Run { ns: self.wait_look(g * FDS + i, now, false, true, fx), sys: true };
                    }
                }
                Phase::Claim => {
                    // Claim the message now so it is read once; none: sleep until a write.
                    let c = g * FDS + i;
                    if self.ipc == Ipc::Pipe {
                        if !self.pipes[c].claim_read() {
                            self.state[task].phase = Phase::Woken;
                            return Step::Block;
                        }
                    } else {
                        let ch = &mut self.chans[c];
                        if ch.queued == 0 {
                            ch.reader_waiting = true;
                            self.state[task].phase = Phase::Woken;
                            return Step::Block;
                        }
                        ch.queued -= 1;
                    }
                    self.state[task].phase = Phase::AfterWork;
                    return Step::Run { ns: self.op_on(c, now, false, fx), sys: true };
                }
                Phase::Woken => {
                    // The wait loop's next round: still nothing to do means another round
                    // of `prepare_to_wait` before the sleep (module doc: EMPTY READ).
                    self.state[task].phase = Phase::Claim;
                    let c = if sender { g * FDS + (self.state[task].count % FDS as u64) as usize } else { g * FDS + i };
                    if self.must_wait(c, self.state[task].waited, sender) {
                        return Step::Run { ns: self.wait_look(c, now, sender, false, fx), sys: true };
                    }
                }
                Phase::AfterWork if sender => {
                    let c = g * FDS + (self.state[task].count % FDS as u64) as usize;
                    if self.ipc == Ipc::Pipe {
                        let waited = std::mem::take(&mut self.state[task].waited);
                        self.pipes[c].write_done(waited, Self::receiver_task(c), fx);
                    } else {
                        let ch = &mut self.chans[c];
                        ch.queued += 1;
                        ch.skb_cpu.push_back(fx.cpu as u32);
                        if std::mem::take(&mut ch.reader_waiting) {
                            fx.wakes.push((Self::receiver_task(c), true));
                        }
                    }
                    self.state[task].count += 1;
                    self.sent += 1;
                    self.state[task].phase = Phase::Work;
                }
                Phase::AfterWork => {
                    match self.ipc {
                        Ipc::Pipe => self.pipes[g * FDS + i].read_done(fx),
                        Ipc::Socket => self.release_space(g * FDS + i, fx),
                    }
                    self.state[task].count += 1;
                    self.received += 1;
                    self.state[task].phase = Phase::Work;
                }
                Phase::Exiting => {
                    self.state[task].phase = Phase::Done;
                    let work = match self.mode {
                        Mode::Process => EXIT_PROCESS_REF,
                        Mode::Thread => EXIT_THREAD_REF,
                    };
                    return Step::Run { ns: self.costs.syscall(work), sys: true };
                }
                Phase::Done => {
                    self.exited += 1;
                    self.wake_main(fx);
                    return Step::Exit;
                }
                _ => return Step::Exit,
            }
        }
    }

    fn main_next(&mut self, now: Ns, fx: &mut Fx) -> Step {
        loop {
            match self.state[0].phase {
                Phase::MainStart => {
                    // gettimeofday(&start), then write(wakefds[1], &dummy, 1).
                    self.start = now;
                    self.state[0].phase = Phase::MainAfterStart;
                    return Step::Run { ns: self.costs.syscall(PIPE_OP_REF), sys: true };
                }
                Phase::MainAfterStart => {
                    self.started = true;
                    // The poll wait queue, newest entry first (module doc: START).
                    for t in (1..self.state.len()).rev() {
                        if std::mem::take(&mut self.state[t].polling) {
                            fx.wakes.push((t, true));
                        }
                    }
                    self.state[0].phase = Phase::MainReap;
                }
                Phase::MainReap => {
                    if self.reaped < self.exited {
                        self.reaped += 1;
                        return Step::Run { ns: self.costs.syscall(PIPE_OP_REF), sys: true };
                    }
                    if self.reaped < self.children() {
                        self.main_waiting = true;
                        return Step::Block;
                    }
                    self.stop = Some(now);
                    self.state[0].phase = Phase::Done;
                }
                _ => return Step::Exit,
            }
        }
    }
}

impl Workload for Hackbench {
    /// sched-messaging.c: the main process forks (or `pthread_create`s) every worker.
    fn parent(&self, task: usize) -> Option<Parent> {
        (task > 0).then_some(Parent::Task(0))
    }

    /// Every child sleeps in `ready()`'s poll() from right after its creation (module
    /// doc: START).
    fn sleeps_at_start(&self, task: usize) -> bool {
        task > 0
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        let kind = match self.mode {
            Mode::Process => "proc",
            Mode::Thread => "thr",
        };
        let mut out = vec![TaskSpec {
            name: "hackbench".into(),
            group: "parent".into(),
            ws_bytes: 16 << 10,
            touch_bytes_per_us: 16 << 10,
            nice: 0,
            core: 0,
            mm: 0,
        }];
        for t in 1..=self.children() {
            let (g, i, sender) = Self::role(t);
            out.push(TaskSpec {
                name: format!("hb-{kind}-{}{}.{}", if sender { "tx" } else { "rx" }, g, i),
                group: if sender { "sender" } else { "receiver" }.into(),
                // A small loop: stack, a message buffer, libc (as the pipe workload).
                ws_bytes: 16 << 10,
                touch_bytes_per_us: 16 << 10,
                nice: 0,
                core: t,
                // sched-messaging.c `create_worker`: process mode forks each worker (a
                // new mm), thread mode `pthread_create`s it in the one main process.
                mm: match self.mode {
                    Mode::Process => t as u32,
                    Mode::Thread => 0,
                },
            });
        }
        out
    }

    fn next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        if task == 0 {
            return self.main_next(now, fx);
        }
        self.child_next(task, now, fx)
    }

    fn done(&self) -> bool {
        self.stop.is_some()
    }

    /// Messages read, of all the run's messages.
    fn progress(&self) -> Option<(u64, u64)> {
        Some((self.received, (self.groups * FDS) as u64 * self.per_child()))
    }

    /// hackbench's "Time:": start to the last child reaped. A run cut short (time limit,
    /// event budget) gives the time since the start byte so far (0 before it), a lower bound.
    fn result(&self, elapsed: Ns) -> Result {
        let end = self.stop.unwrap_or(if self.started { elapsed } else { self.start });
        let t = end.saturating_sub(self.start);
        Result { value: t as f64 / 1e9, unit: "s", higher_is_better: false }
    }
}

impl Hackbench {
    /// Messages written and read so far (for tests).
    pub fn totals(&self) -> (u64, u64) {
        (self.sent, self.received)
    }
    /// Whether sender `t` is waiting for space on some receiver's buffer (for tests).
    pub fn sender_blocked(&self, t: usize) -> bool {
        self.chans.iter().any(|c| c.blocked.contains(&t)) || self.pipes.iter().any(|p| p.is_blocked(t))
    }
    /// Messages and socket bytes queued at receiver channel `c` (for tests).
    pub fn queued(&self, c: usize) -> (u64, u64) {
        match self.ipc {
            Ipc::Pipe => (self.pipes[c].queued(), 0),
            Ipc::Socket => (self.chans[c].queued, self.chans[c].wmem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Config;

    fn bench(groups: usize, loops: u64, ipc: Ipc) -> Hackbench {
        let costs = Costs::new(Config::default().profile());
        Hackbench::new(groups, loops, 100, Mode::Process, ipc, Kernel::V66, costs)
    }

    /// Each child's record carries its `role` from the start (`next` reads it there, not
    /// by dividing the task number), and starts in poll with nothing sent.
    #[test]
    fn each_child_s_record_holds_its_role() {
        let h = bench(7, 10, Ipc::Pipe);
        assert_eq!(h.state.len(), 1 + 7 * TASKS_PER_GROUP);
        assert_eq!(h.state[0].phase, Phase::MainStart);
        for (t, st) in h.state.iter().enumerate().skip(1) {
            assert_eq!((st.group as usize, st.index as usize, st.sender), Hackbench::role(t), "task {t}");
            assert!(st.polling && !st.waited && st.count == 0 && st.phase == Phase::Poll);
        }
    }

    /// Runs task `t`'s steps until it blocks or exits, applying nothing; returns the wakes.
    fn drive(h: &mut Hackbench, t: usize) -> (Step, Vec<(usize, bool)>) {
        let mut fx = Fx::default();
        let mut wakes = Vec::new();
        loop {
            let s = h.next(t, 0, &mut fx);
            wakes.append(&mut fx.wakes);
            match s {
                Step::Run { .. } => continue,
                other => return (other, wakes),
            }
        }
    }

    fn start_all(h: &mut Hackbench) {
        let n = 1 + h.children();
        for t in 1..n {
            assert_eq!(drive(h, t).0, Step::Block, "child {t} waits in poll");
        }
        let (_, wakes) = drive(h, 0);
        assert_eq!(wakes.len(), n - 1, "one write of the wakeup pipe wakes every child");
        assert!(wakes.iter().all(|w| w.1), "sync wakeups");
        let order: Vec<usize> = wakes.iter().map(|w| w.0).collect();
        assert_eq!(order, (1..n).rev().collect::<Vec<_>>(), "the poll wait queue, newest entry first");
    }

    #[test]
    fn a_socket_sender_blocks_when_the_send_buffer_is_full_and_a_drain_to_a_quarter_wakes_it() {
        let mut h = bench(1, 1000, Ipc::Socket);
        start_all(&mut h);
        // Sender 0 (task 21) writes to receivers 0..19 in turn; the receivers never read.
        let (s, _) = drive(&mut h, 21);
        assert_eq!(s, Step::Block);
        assert!(h.sender_blocked(21));
        let cap = WMEM_DEFAULT.div_ceil(h.truesize);
        let (q, wmem) = h.queued(0);
        assert_eq!(q, cap, "sends proceed while wmem < sndbuf: {cap} skbs of {} bytes", h.truesize);
        assert!(wmem >= WMEM_DEFAULT);
        // Receiver 0 (task 1) drains: no wakeup until wmem is a quarter of sndbuf.
        let mut fx = Fx::default();
        while fx.wakes.is_empty() {
            assert!(matches!(h.next(1, 0, &mut fx), Step::Run { .. }), "receiver stopped before waking the sender");
        }
        let drained = h.totals().1;
        assert_eq!(fx.wakes, vec![(21, true)]);
        assert!(h.queued(0).1 << 2 <= WMEM_DEFAULT && (h.queued(0).1 + h.truesize) << 2 > WMEM_DEFAULT);
        assert!(drained > cap / 2);
        assert!(!h.sender_blocked(21));
    }

    fn bench_on(kernel: Kernel, ipc: Ipc) -> Hackbench {
        let costs = Costs::new(Config::default().profile());
        Hackbench::new(1, 1000, 100, Mode::Process, ipc, kernel, costs)
    }

    /// Receiver 0 (task 1) reads until some writer is woken: (reads done, wakes).
    fn read_until_a_wake(h: &mut Hackbench) -> (u64, Vec<(usize, bool)>) {
        let before = h.totals().1;
        let mut fx = Fx::default();
        while fx.wakes.is_empty() {
            assert!(matches!(h.next(1, 0, &mut fx), Step::Run { .. }), "the receiver stopped before waking a writer");
        }
        (h.totals().1 - before, fx.wakes)
    }

    #[test]
    fn from_5_6_every_read_of_a_full_pipe_wakes_one_writer_who_sleeps_again_if_it_is_still_full() {
        // 5.15 pipe_read: `was_full` -> wake_up_interruptible_sync_poll(&pipe->wr_wait), an
        // exclusive wait: one writer, on the FIRST read, though that read frees no page.
        let mut h = bench_on(Kernel::V515, Ipc::Pipe);
        start_all(&mut h);
        assert_eq!(drive(&mut h, 21).0, Step::Block);
        assert_eq!(drive(&mut h, 22).0, Step::Block);
        assert_eq!(h.queued(0).0, 16 * (PAGE_SIZE / 100), "16 pages of 40 merged 100-byte writes");
        let (reads, wakes) = read_until_a_wake(&mut h);
        assert_eq!((reads, wakes), (1, vec![(21, true)]), "one read of a full pipe, one writer");
        assert!(h.sender_blocked(22));
        // Writer 21 runs: all 16 buffers are still taken, so it sleeps again, behind 22.
        let (step, wakes) = drive(&mut h, 21);
        assert_eq!((step, wakes.len()), (Step::Block, 0));
        let (reads, wakes) = read_until_a_wake(&mut h);
        assert_eq!((reads, wakes), (1, vec![(22, true)]), "the next read wakes the next writer in line");
    }

    #[test]
    fn up_to_5_4_a_released_buffer_wakes_every_writer_and_other_reads_wake_none() {
        // 3.11 pipe_read: `do_wakeup` only when a buffer is read empty and released; the
        // one queue `pipe->wait` is non-exclusive: both sleeping writers wake.
        let mut h = bench_on(Kernel::V311, Ipc::Pipe);
        start_all(&mut h);
        assert_eq!(drive(&mut h, 21).0, Step::Block);
        assert_eq!(drive(&mut h, 22).0, Step::Block);
        let (reads, wakes) = read_until_a_wake(&mut h);
        assert_eq!(reads, PAGE_SIZE / 100, "the read that empties the first page");
        assert_eq!(wakes, vec![(21, true), (22, true)]);
        // Writer 21 takes the free buffer; 22, woken with it, finds all 16 taken and sleeps
        // again. (Its next message, to receiver 1, finds that pipe full too.)
        let (sent, (step, woke)) = (h.totals().0, drive(&mut h, 21));
        assert_eq!((h.totals().0 - sent, step, woke), (1, Step::Block, vec![]), "writer 21 got the buffer");
        assert_eq!(drive(&mut h, 22).0, Step::Block, "22 finds the 16 buffers taken");
        assert!(h.sender_blocked(22));
    }

    #[test]
    fn pipe_hackbench_completes_under_every_wake_rule() {
        // A read is a burst here while writers run (the kernel holds pipe->mutex): testing
        // `was_full` at the read's start lost the wakeup of a writer that slept during the
        // read, and 8 groups x 400 loops on 5.15 hung until the time limit.
        for kernel in ["3.11", "5.15"] {
            let mut c = Config::default();
            for (k, v) in [("workload", "hackbench"), ("ipc", "pipe"), ("groups", "8"), ("loops", "400")] {
                c.set(k, v).unwrap();
            }
            c.set("cores", "40").unwrap();
            c.set("kernel", kernel).unwrap();
            let m = crate::engine::run(&c, None).unwrap().metrics;
            assert_eq!(m.stop_reason, Some(crate::engine::metrics::StopReason::Completed), "{kernel}");
        }
    }

    /// One group on cascadelake-2s (CPUs 0-19 the first socket's cores: 47 ns apart).
    fn clx(mode: Mode) -> Hackbench {
        let costs = Costs::new(crate::engine::profile::profile("cascadelake-2s").unwrap());
        let mut h = Hackbench::new(1, 1000, 100, mode, Ipc::Socket, Kernel::V66, costs);
        start_all(&mut h);
        h
    }

    /// Task `t`'s next step on `cpu` at `now`: (burst, stall) of its Run.
    fn op(h: &mut Hackbench, t: usize, cpu: usize, now: Ns) -> (Ns, Ns) {
        let mut fx = Fx { cpu, ..Fx::default() };
        match h.next(t, now, &mut fx) {
            Step::Run { ns, .. } => (ns, fx.stall),
            s => panic!("task {t}: {s:?}"),
        }
    }

    #[test]
    fn an_ops_cost_is_its_reference_work_and_copy_on_this_machine_for_either_ipc() {
        // `op_cost` reads what `new` computed once: the syscall plus the op's reference work
        // and the message's copy at the machine's speed; a pipe op pulls `pipe_op_chain` lines.
        for name in ["cascadelake-2s", "zen3-2s", "core2duo"] {
            let costs = Costs::new(crate::engine::profile::profile(name).unwrap());
            for (ipc, msg) in [(Ipc::Pipe, 100), (Ipc::Pipe, 4096), (Ipc::Socket, 100), (Ipc::Socket, 1)] {
                let h = Hackbench::new(1, 10, msg, Mode::Process, ipc, Kernel::V66, costs.clone());
                let copy = msg * COPY_PS_PER_BYTE / 1000;
                let (send_ref, recv_ref) = match ipc {
                    Ipc::Pipe => (PIPE_OP_REF, PIPE_OP_REF),
                    Ipc::Socket => (SOCK_SEND_REF, SOCK_RECV_REF),
                };
                assert_eq!(h.op_cost(true), costs.syscall(send_ref + copy), "{name} {ipc:?} {msg}: write");
                assert_eq!(h.op_cost(false), costs.syscall(recv_ref + copy), "{name} {ipc:?} {msg}: read");
                assert_eq!(h.op_lines, pipe_op_chain(msg));
            }
        }
    }

    #[test]
    fn a_socket_receive_pulls_the_queue_the_skb_its_data_wmem_and_the_slab_frees_from_other_cpus() {
        let mut h = clx(Mode::Process);
        let (send, recv) = (h.op_cost(true), h.op_cost(false));
        // Sender 0 (task 21) writes receiver 0's first message on CPU 1: nothing was written
        // before, so nothing moves.
        assert_eq!(op(&mut h, 21, 1, 0), (send, 0));
        op(&mut h, 21, 1, 0); // the message is queued; the next send goes to receiver 1
                              // Receiver 0 (task 1) reads it on CPU 2: the lock and queue head (2), the skb and its
                              // 2 data lines (one latency together) and the two frees (3), sk_wmem_alloc (1).
        let lines = 2 + (1 + 1 + 2) + 1;
        assert_eq!(op(&mut h, 1, 2, 1_000_000), (recv + lines * 47, lines * 47));
        // On one CPU every line is where the op needs it.
        let mut h = clx(Mode::Process);
        op(&mut h, 21, 2, 0);
        op(&mut h, 21, 2, 0);
        assert_eq!(op(&mut h, 1, 2, 1_000_000), (recv, 0));
    }

    #[test]
    fn a_socket_send_pulls_wmem_the_freed_objects_and_the_queue_and_threads_also_the_file() {
        for (mode, file) in [(Mode::Process, 0), (Mode::Thread, 1)] {
            let mut h = clx(mode);
            let send = h.op_cost(true);
            op(&mut h, 21, 1, 0);
            op(&mut h, 21, 1, 0);
            op(&mut h, 1, 2, 1_000_000); // receiver 0 reads and frees on CPU 2
                                         // Sender 1 (task 22) writes to receiver 0 on CPU 3: sk_wmem_alloc and the freed
                                         // objects (from CPU 2), the lock and queue head (2, from CPU 2), and in thread mode
                                         // the write end's f_count (from sender 0's CPU 1). The queue is empty: no tail skb.
            let lines = file + 1 + 1 + 2;
            assert_eq!(op(&mut h, 22, 3, 2_000_000), (send + lines * 47, lines * 47), "{mode:?}");
            // Queued behind it, sender 2 (task 23) on CPU 4 also writes the tail skb's `next`.
            op(&mut h, 22, 3, 2_000_000);
            let lines = file + 1 + 1 + 2 + 1;
            assert_eq!(op(&mut h, 23, 4, 3_000_000), (send + lines * 47, lines * 47), "{mode:?}");
        }
    }

    #[test]
    fn a_socket_op_finding_unix_state_lock_held_spins_until_it_is_free() {
        // Senders 0 and 1 write receiver 0's socket at the same time on CPUs 1 and 3, after a
        // read on CPU 2: both reach the lock together; the second spins through the first's
        // hold (the queue's 2 lines from CPU 2).
        let at = |gap: Ns| {
            let mut h = clx(Mode::Process);
            op(&mut h, 21, 1, 0);
            op(&mut h, 21, 1, 0);
            op(&mut h, 1, 2, 1_000_000);
            op(&mut h, 22, 1, 2_000_000);
            op(&mut h, 23, 3, 2_000_000 + gap)
        };
        let (alone, together) = (at(1_000_000), at(0));
        assert_eq!(together.0 - alone.0, 2 * 47, "the spin: the holder's 2 lines");
        assert_eq!(together.1 - alone.1, 2 * 47, "a spin is a stall");
    }

    #[test]
    fn a_socket_receive_costs_1_09_sends_as_the_lkp_profile_splits_them() {
        // The LKP hackbench profile (module doc: SOCKET SEND AND RECEIVE): send 34.09% of
        // the cycles, receive 37.21%; the pair 3.34 pipe ops (LKP's unix1 against pipe1) =
        // 1,563 ns, so 747.3 and 815.6.
        assert_eq!(SOCK_PAIR_REF, 1_563);
        assert_eq!((SOCK_SEND_REF, SOCK_RECV_REF), (747, 815));
        let h = clx(Mode::Thread);
        let (send, recv) = (h.op_cost(true), h.op_cost(false));
        let copy = h.costs.work(100 * COPY_PS_PER_BYTE / 1000);
        assert_eq!(send, h.costs.syscall + h.costs.work(747 + 25));
        assert_eq!(recv, h.costs.syscall + h.costs.work(815 + 25));
        assert!(recv > send && copy > 0, "the receive side is the dearer one");
    }

    /// Receiver 0 (task 1) on `cpu` at `now`: its next step and that step's stall.
    fn rx_step(h: &mut Hackbench, cpu: usize, now: Ns) -> (Step, Ns) {
        let mut fx = Fx { cpu, ..Fx::default() };
        let s = h.next(1, now, &mut fx);
        (s, fx.stall)
    }

    #[test]
    fn a_read_that_finds_its_socket_or_pipe_empty_pays_its_locked_instructions_before_it_sleeps() {
        // 6.6 socket: 10 locked instructions of 8 ns reference work (module doc: EMPTY READ),
        // then the block; before, the receiver blocked in 0 ns.
        for (ipc, locked) in [(Ipc::Socket, 10), (Ipc::Pipe, 7)] {
            let mut h = bench(1, 10, ipc);
            start_all(&mut h);
            let want = h.costs.work(locked * 8);
            assert_eq!(rx_step(&mut h, 0, 0), (Step::Run { ns: want, sys: true }, 0), "{ipc:?}");
            assert!(want > 0);
            assert_eq!(rx_step(&mut h, 0, want).0, Step::Block, "{ipc:?}: still empty: it sleeps");
            // A send wakes it, and the read follows without a second look.
            let (_, wakes) = drive(&mut h, 21);
            assert!(wakes.contains(&(1, true)), "{ipc:?}: the first message wakes the reader");
            assert!(matches!(rx_step(&mut h, 0, 10_000).0, Step::Run { .. }));
            assert_eq!(h.totals().1, 0, "{ipc:?}: the read is under way");
        }
    }

    #[test]
    fn the_wait_s_locked_instructions_are_the_release_s() {
        // Counted in each release's code (module doc: EMPTY READ). 3.11 sets and clears the
        // SOCK_ASYNC_* bits on every socket wait (2 more for a read and a send, 2 more in a
        // read's round); from 4.4/4.5 `sk_set_bit` skips them without FASYNC. 3.11's pipe
        // waits in `pipe_wait` under its loop's mutex (4 a wait and a round); 5.15 in
        // `wait_event_interruptible_exclusive` after dropping it (7, and 2 a round).
        let of = |ipc, k| {
            let w = WaitLocked::of(ipc, k);
            (w.empty_read, w.full_write, w.read_round, w.write_round)
        };
        assert_eq!(of(Ipc::Socket, Kernel::V311), (12, 10, 5, 3));
        assert_eq!(of(Ipc::Socket, Kernel::V66), (10, 8, 3, 3));
        assert_eq!(of(Ipc::Pipe, Kernel::V311), (4, 4, 4, 4));
        assert_eq!(of(Ipc::Pipe, Kernel::V515), (7, 7, 2, 2));
        // And the workload charges them: a 3.11 receiver's look before it sleeps.
        for (ipc, k, locked) in [(Ipc::Socket, Kernel::V311, 12), (Ipc::Pipe, Kernel::V311, 4)] {
            let mut h = bench_on(k, ipc);
            start_all(&mut h);
            assert_eq!(rx_step(&mut h, 0, 0), (Step::Run { ns: h.costs.work(locked * 8), sys: true }, 0), "{ipc:?}");
        }
    }

    /// Task `t`'s steps on CPU 0 until it blocks: the last Run's burst before the block.
    fn last_burst_before_block(h: &mut Hackbench, t: usize) -> Option<Ns> {
        let mut last = None;
        for _ in 0..100_000 {
            let mut fx = Fx::default();
            match h.next(t, 0, &mut fx) {
                Step::Run { ns, .. } => last = Some(ns),
                Step::Block => return last,
                s => panic!("task {t}: {s:?}"),
            }
        }
        panic!("task {t} never blocked")
    }

    #[test]
    fn a_send_that_finds_the_socket_full_pays_its_locked_instructions_before_it_sleeps() {
        // 6.6 `sock_alloc_send_pskb` -> `sock_wait_for_wmem`: 8 locked instructions of 8 ns
        // (module doc: EMPTY READ); before, the sender blocked in 0 ns.
        let mut h = bench(1, 1000, Ipc::Socket);
        start_all(&mut h);
        let look = last_burst_before_block(&mut h, 21);
        assert_eq!(look, Some(h.costs.work(8 * 8)));
        assert!(h.sender_blocked(21));
        // The receiver drains to a quarter and wakes it: it sends at once, no second look.
        let mut fx = Fx::default();
        while fx.wakes.is_empty() {
            assert!(matches!(h.next(1, 0, &mut fx), Step::Run { .. }));
        }
        let mut fx = Fx::default();
        assert_eq!(h.next(21, 0, &mut fx), Step::Run { ns: h.op_cost(true), sys: true });
    }

    #[test]
    fn a_woken_writer_that_finds_the_pipe_full_again_pays_a_round_of_its_wait_loop() {
        // 5.15: a read of a full pipe wakes one writer, which finds all 16 buffers taken and
        // goes round `___wait_event` again: `prepare_to_wait_event`'s lock and store.
        let mut h = bench_on(Kernel::V515, Ipc::Pipe);
        start_all(&mut h);
        assert_eq!(last_burst_before_block(&mut h, 21), Some(h.costs.work(7 * 8)), "the first look");
        let (reads, wakes) = read_until_a_wake(&mut h);
        assert_eq!((reads, wakes), (1, vec![(21, true)]));
        assert_eq!(last_burst_before_block(&mut h, 21), Some(h.costs.work(2 * 8)), "one more round");
        assert!(h.sender_blocked(21));
    }

    #[test]
    fn a_message_sent_during_the_empty_read_is_found_at_its_end_without_a_sleep() {
        // The kernel looks again after `prepare_to_wait` (`skb_peek_tail` != last): no lost
        // wakeup and no sleep.
        for ipc in [Ipc::Socket, Ipc::Pipe] {
            let mut h = bench(1, 10, ipc);
            start_all(&mut h);
            assert!(matches!(rx_step(&mut h, 0, 0).0, Step::Run { .. }));
            // Sender 0 (task 21) writes receiver 0's message meanwhile: nobody to wake yet.
            let mut fx = Fx { cpu: 1, ..Fx::default() };
            assert!(matches!(h.next(21, 0, &mut fx), Step::Run { .. }));
            assert!(matches!(h.next(21, 0, &mut fx), Step::Run { .. }), "the next send begins");
            assert!(!fx.wakes.contains(&(1, true)), "{ipc:?}: the reader is not asleep");
            assert!(matches!(rx_step(&mut h, 0, 50).0, Step::Run { .. }), "{ipc:?}: it reads");
            assert!(matches!(rx_step(&mut h, 0, 2_000).0, Step::Run { .. }), "{ipc:?}: read done, next look");
            assert_eq!(h.totals().1, 1, "{ipc:?}");
        }
    }

    #[test]
    fn an_empty_socket_read_on_another_cpu_pulls_the_queue_s_lines_under_the_lock() {
        // Receiver 0 reads on CPU 2 (the queue's lines go there), then looks on CPU 3 and
        // finds nothing: the lock and queue head, 2 lines at 47 ns, are a stall.
        let mut h = clx(Mode::Process);
        op(&mut h, 21, 1, 0);
        op(&mut h, 21, 1, 0);
        op(&mut h, 1, 2, 1_000_000);
        let locked = h.costs.work(10 * 8);
        let mut fx = Fx { cpu: 3, ..Fx::default() };
        let s = h.next(1, 1_010_000, &mut fx);
        assert_eq!((s, fx.stall), (Step::Run { ns: 2 * 47 + locked, sys: true }, 2 * 47));
    }

    #[test]
    fn skb_truesize_is_a_kmalloc_class_plus_the_sk_buff() {
        assert_eq!(skb_truesize(100), 512 + 256);
        assert_eq!(skb_truesize(1), 512 + 256);
        assert_eq!(skb_truesize(4096), 8192 + 256);
    }
}
