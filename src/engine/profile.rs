//! Hardware profiles: real CPUs' C-state tables, their idle driver, and the costs the engine charges on them.
//!
//! Each constant names its source. Where no public figure exists for a cost on a given
//! machine, the value is an estimate scaled from the nearest sourced one and says so.
//! CPU speed is a single factor that scales workload CPU work (not costs, which are given
//! per machine).
//!
//! Topology ([`Topology`]): each profile gives its packages, LLCs per package, cores per
//! LLC and hardware threads per core as the real machine's `lscpu` and
//! `/sys/devices/system/cpu/cpuN/topology/` show them. The config's `cores` counts CPUs as
//! the kernel does (hardware threads), and a config of N CPUs runs CPUs 0..N-1 of the
//! kernel's numbering, as `maxcpus=N` brings them up: on x86 the firmware lists every
//! core's first thread before any second thread (MADT order), so Linux numbers the first
//! threads 0..C-1 package by package and their siblings C..2C-1 (`lscpu -e`: cpu N and
//! N + C share a core; e.g. 2 x Xeon Gold 6248: node0 CPUs 0-19,40-59). So a config with
//! at most one CPU per physical core has no siblings, and `cores` = the physical cores is
//! the pre-SMT model exactly. CPUs past the machine's threads (a config larger than the
//! machine) repeat the machine as further packages. NUMA nodes are one per package (Intel
//! without sub-NUMA clustering, EPYC at its default NPS1); nothing reads them yet.
//!
//! SMT ([`Topology::smt_yield_permille`]): two busy siblings share one core's throughput,
//! each running at yield / 2 of a lone thread's speed (`sim::schedule`, SMT).
//!
//! Transfer ([`C2c`]): the latency of moving one cache line between two CPUs, by how far
//! apart they are (siblings, same LLC, same package, other package), from published
//! core-to-core latency measurements (a compare-and-swap ping-pong between two pinned
//! threads): what a pipe's or a wakeup's shared lines cost when they were last written on
//! another CPU (`workload::pipe::Lines`).
//!
//! Context switch ([`Profile::ctx_switch`]): the direct cost of a switch between two
//! processes, the kind lmbench `lat_ctx` and a pipe ping-pong of processes measure. Its
//! `switch_mm` TLB part ([`SWITCH_MM_TLB_PERMILLE`], Lutomirski's PCID measurement) is paid
//! only by a switch to another mm whose TLB entries the CPU does not hold ([`TlbTags`],
//! `sim::schedule::LoadedMm`); threads of one process, and a task coming back after the
//! idle task borrowed its mm, pay [`Profile::switch_common`]. Where each profile's figure
//! comes from: core2duo's 3.8 us is Li, Ding, Shen 2007 (located, unverified; q6600 the same
//! core); x5675's 1.2 us is an ASSUMPTION (see there); skylake-sp's is x5675's scaled by
//! speed, and every later x86 profile's is skylake-sp's scaled by clock (and IPC where said);
//! rpi5's is skylake-sp's taken as is (ASSUMPTION). So every profile from x5675 on descends
//! from one unsourced figure; the one independent anchor read is Lutomirski's (a cross-process
//! switch of ~0.9-1 us on a 2016 Skylake laptop, x5675's note), which agrees with skylake-sp's 900 ns,
//! and Sigoure's pinned futex ping-pong (2010, 2.0-2.83 GHz Xeons, x5675's note) bounds
//! x5675's at ~0.65-1.7 us, read through a summary only. No lmbench `lat_ctx` or
//! `perf bench sched pipe` figure for a Westmere, Skylake-SP, Cascade Lake or Zen 3 was found
//! (three searches, x5675's note).
//!
//! System call ([`Profile::syscall`]): the entry and exit of one call. core2duo's, q6600's and
//! x5675's are Sigoure's measured `gettid` loop (2010) on the same cores, scaled by clock;
//! cascadelake-2s's is the entry/exit share of LKP's will-it-scale `pipe1` profile on a
//! Cascade Lake (`workload::pipe::PIPE_OP_REF`); skylake-sp's and every later profile's are
//! still the old estimate chain (skylake-sp's note).
//!
//! Idle: each profile names the cpuidle driver Linux binds on it ([`IdleDriver`]) and how
//! each state is entered ([`IdleEntry`]: MWAIT, HLT or an ACPI I/O-port read), which decides
//! per kernel era whether the idle task polls (`Kernel::idle_polls`), and what is left when
//! the firmware's C-states are disabled (`cstates=off`, [`BiosOff`]).
//!
//! Exit latency, declared vs paid: cpuidle's `exit_latency` is a worst case that, for a
//! state whose MWAIT hint asks for a package C-state, includes the package's exit. A
//! [`CState`] with a sourced core part (`core_exit`: Comet Lake's from intel_idle's
//! `skl_cstates`, Zen 3's C2 from gVisor's measured EPYC exits) pays the package part only when the whole package idled that deep
//! (`sim::idle_path::Packages`); every other state charges its declared figure in full,
//! which is still a worst case (teo's `teo_update` deducts half of it as the typical delay).
//!
//! Cache flushes of deep C-states are not modelled: a core C3/C6 loses the core's private
//! L1/L2, not the shared last-level cache, and the engine's one cache level is that LLC.
//! Charging a refill of the private caches would need a private-cache size and an
//! LLC-to-L2 refill bandwidth per profile, which the profiles do not have (their refill
//! bandwidth is the DRAM-bound one). The old `flushes_cache` flag was never read; it is gone.
//! The same holds for a switch's private-cache refill (what other tasks evicted from the
//! L1/L2 since a task last ran on a CPU): tried for hackbench as an experiment and not
//! built, since with its declared working set it costs next to nothing against a
//! 512 KB-1 MB L2, and no profile has a sourced L3-hit latency yet (BENCHMARKS.md, "A
//! switch's private-cache cost").
//!
//! Over 800 lines: every machine's table (topology, C-states, costs, latencies), each figure
//! beside its source, kept side by side so two machines can be compared in one read.

use super::time::{Ns, US};

/// How a CPU tags TLB entries with an address space, which decides what a switch to
/// another mm keeps (SWITCH_MM in the module doc; `sim::schedule::LoadedMm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlbTags {
    /// No tags: every CR3 write drops the non-global TLB (Core 2 has no PCID).
    Untagged,
    /// x86 PCID (CPUID.01H:ECX.PCID): Intel's "since 2010" (Westmere) and AMD's from Zen 3
    /// (Phoronix, "AMD Programmer Manual Update Points To PCID Support", 29 Apr 2020, read
    /// from AMD's updated Programmer's Reference Manual; no 7763's cpuinfo was read). Linux
    /// tags entries with it only from 4.14 (`Kernel::x86_pcid_asids`); before, as `Untagged`.
    Pcid,
    /// arm64 ASIDs in TTBR0: tagged in every era (arch/arm64/mm/context.c).
    Asid,
}

/// Of a process switch's `ctx_switch`, the permille that is `switch_mm`'s TLB part: what a
/// switch to another mm pays when the TLB holds nothing of it. Andy Lutomirski, "[RFC 00/13]
/// x86/mm: PCID and INVPCID" (LKML, 8 Jan 2016, Message-ID
/// <cover.1452294700.git.luto@kernel.org>): keeping the TLB across switches with PCID "seems
/// to save around 100ns on cross-process context switches for me ... at best, a little over
/// a 10% speedup. Most of the time is spent in the scheduler, not in arch code" (his Skylake
/// laptop). So 100 permille of each profile's own process switch (simplified: the fraction
/// measured on one Skylake is carried to every CPU; the CR3 write itself, which a same-mm
/// switch also skips, has no figure here and stays in the common part).
pub const SWITCH_MM_TLB_PERMILLE: u64 = 100;

/// How the idle driver enters a state (cpuidle's `enter` routine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleEntry {
    /// `MONITOR`/`MWAIT` on the thread flags (intel_idle; acpi_idle's FFH states).
    Mwait,
    /// `HLT` (acpi_idle's "ACPI HLT" C1, `default_idle`).
    Hlt,
    /// An ACPI `P_LVLx` I/O-port read (acpi_idle's SYSTEMIO states).
    Io,
    /// Arm's `WFI` (`cpu_do_idle`): clock-gated, woken by an interrupt; no polling flag.
    Wfi,
}

/// One idle state as cpuidle describes it (`struct cpuidle_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CState {
    pub name: &'static str,
    /// Worst-case time from the wakeup signal until the core executes again (what cpuidle
    /// declares and the governors read).
    pub exit_latency: Ns,
    /// The core's own part of `exit_latency`: what a wakeup pays when the package did not
    /// follow the core down. For a state whose MWAIT hint asks for a package C-state the
    /// rest is the package's exit, paid only when every core of the package idled at least
    /// this deep (`sim::idle_path::leave_idle`). Equal to `exit_latency` where no core
    /// figure is sourced (the whole declared worst case is charged).
    pub core_exit: Ns,
    /// Shortest idle for which entering the state saves energy; governors use it.
    pub target_residency: Ns,
    /// How the driver enters it.
    pub entry: IdleEntry,
    /// intel_idle flags it CPUIDLE_FLAG_TLB_FLUSHED (the state loses the TLB), and before
    /// 4.14 calls `leave_mm` on entering it (`Kernel::idle_leaves_mm`). False where the
    /// driver's table was not read for it.
    pub tlb_flushed: bool,
}

/// The cpuidle driver that binds on a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleDriverKind {
    /// drivers/idle/intel_idle.c: its own per-model table, filtered by CPUID leaf 5.
    IntelIdle,
    /// drivers/acpi/processor_idle.c: the states the firmware's `_CST` lists.
    AcpiIdle,
    /// No cpuidle driver registers at all (an Arm board whose device tree describes no
    /// `arm,idle-state`): `default_idle_call` runs the table's first state, no governor.
    NoDriver,
}

/// What is left of the idle states when the BIOS disables C-states (`cstates=off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BiosOff {
    /// The driver keeps its whole table (it does not read the firmware), but the BIOS's
    /// package C-state limit (MSR_PKG_CST_CONFIG_CONTROL) makes the hardware demote every
    /// request to this state: the governor still picks among all states, the core wakes
    /// with this state's exit latency and entry.
    Demote { to: &'static str },
    /// No cpuidle driver registers: without `_CST` acpi_idle only has the default C1
    /// ("ACPI HLT", `acpi_processor_get_power_info_default`), and it registers a cpuidle
    /// driver only when a C2 or deeper state exists (`pr->flags.power`). The kernel then
    /// idles in `default_idle` (HLT) with no governor, in the table's first state.
    DefaultIdle,
}

/// Which idle driver a profile runs under, and what `cstates=off` leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleDriver {
    pub kind: IdleDriverKind,
    pub bios_off: BiosOff,
    /// Where the choice is an assumption, and why it was made.
    pub note: &'static str,
}

/// A machine the engine can simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Name used in configs and URLs (`x5675`).
    pub name: &'static str,
    /// What a person calls it.
    pub title: &'static str,
    /// Packages, LLCs, cores and hardware threads, as the machine's `lscpu` shows them.
    pub topo: Topology,
    /// Cache-line transfer latencies between CPUs, by distance (core-to-core latency).
    pub c2c: C2c,
    /// Size of that cache in bytes.
    pub llc_bytes: u64,
    /// Bytes per microsecond a task refills into cache after losing it (memory bandwidth
    /// seen by one core under cache misses).
    pub refill_bytes_per_us: u64,
    /// Idle states beyond POLL, shallowest first.
    pub cstates: &'static [CState],
    /// The cpuidle driver and what BIOS-disabled C-states leave.
    pub idle_driver: IdleDriver,
    /// Direct cost of a context switch between two processes (`__schedule` +
    /// `context_switch`: `switch_mm` and `switch_to`), without cache effects. A switch that
    /// keeps the mm pays `switch_common()` only (SWITCH_MM below).
    pub ctx_switch: Ns,
    /// How the CPU tags TLB entries by address space (what a switch to another mm keeps).
    pub tlb: TlbTags,
    /// Entering and leaving the kernel for one system call.
    pub syscall: Ns,
    /// Work of `try_to_wake_up` on the waker (enqueue, preemption check).
    pub ttwu: Ns,
    /// One clock-event device reprogram (`clockevents_program_event`).
    pub reprogram: Ns,
    /// Sending a reschedule IPI (ICR write).
    pub ipi_send: Ns,
    /// From the send until the target core takes the interrupt.
    pub ipi_latency: Ns,
    /// Handling the IPI on the target (`scheduler_ipi`, irq entry/exit).
    pub ipi_receive: Ns,
    /// The periodic tick's handler (`tick_sched_timer` + `scheduler_tick`).
    pub tick_handler: Ns,
    /// Relative CPU speed, per mille of a 2.4 GHz Core 2 (2007): scales workload CPU work.
    pub speed_permille: u64,
}

/// A machine's CPU topology, as `lscpu` and `/sys/devices/system/cpu/cpuN/topology/` show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Topology {
    /// Sockets (`physical_package_id`).
    pub packages: u32,
    /// Last-level caches per package (`cache/index3/shared_cpu_list`; Zen 3: its CCXs).
    pub llcs_per_package: u32,
    /// Physical cores sharing one LLC.
    pub cores_per_llc: u32,
    /// Hardware threads per core (`thread_siblings_list`): 2 with SMT, else 1.
    pub threads_per_core: u32,
    /// Two busy siblings together do this many permille of one lone thread's work (a
    /// measured SMT throughput gain, cited per profile); 1000 without SMT.
    pub smt_yield_permille: u64,
}

/// Where a CPU sits (`Topology::place`): ids unique over the whole machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Physical core.
    pub core: u32,
    /// Which hardware thread of its core (0: the first, numbered below every second thread).
    pub thread: u32,
    pub llc: u32,
    pub package: u32,
}

impl Place {
    /// How far this CPU is from another CPU placed at `other` (`Topology::distance` of two
    /// different CPUs).
    #[inline]
    pub fn distance_to(&self, other: &Place) -> Distance {
        if self.core == other.core {
            Distance::Sibling
        } else if self.llc == other.llc {
            Distance::Llc
        } else if self.package == other.package {
            Distance::Package
        } else {
            Distance::Remote
        }
    }
}

/// How far apart two CPUs are, nearest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Distance {
    Same,
    Sibling,
    Llc,
    Package,
    Remote,
}

impl Topology {
    /// Physical cores of the machine.
    pub const fn cores(&self) -> u32 {
        self.packages * self.llcs_per_package * self.cores_per_llc
    }

    /// Hardware threads: the CPUs Linux counts (the default for the config's `cores`).
    pub const fn cpus(&self) -> u32 {
        self.cores() * self.threads_per_core
    }

    /// Where CPU `cpu` sits, as Linux numbers CPUs (module doc: first threads 0..C-1,
    /// package by package, then their siblings). CPUs past the machine repeat it.
    pub fn place(&self, cpu: u32) -> Place {
        let (cores, cpus) = (self.cores().max(1), self.cpus().max(1));
        let (rep, c) = (cpu / cpus, cpu % cpus);
        let core = c % cores + rep * cores;
        let cores_per_package = (self.llcs_per_package * self.cores_per_llc).max(1);
        Place { core, thread: c / cores, llc: core / self.cores_per_llc.max(1), package: core / cores_per_package }
    }

    /// The other hardware thread of `cpu`'s core (SMT2; None without SMT).
    pub fn sibling(&self, cpu: u32) -> Option<u32> {
        if self.threads_per_core != 2 {
            return None;
        }
        let cpus = self.cpus().max(1);
        let (rep, c) = (cpu / cpus, cpu % cpus);
        Some(rep * cpus + (c + self.cores()) % cpus)
    }

    /// How far apart CPUs `a` and `b` are.
    pub fn distance(&self, a: u32, b: u32) -> Distance {
        if a == b {
            return Distance::Same;
        }
        self.place(a).distance_to(&self.place(b))
    }

    /// `place` of every CPU of the machine, in CPU order: a table for the hot paths that
    /// ask for distances per event (`place` divides four times).
    pub fn places(&self) -> Vec<Place> {
        (0..self.cpus()).map(|c| self.place(c)).collect()
    }

    /// `distance` read from a table of `place`s (`places`, or one per simulated CPU): two
    /// loads for the hot paths (`workload::Costs::transfer`, `Sim::transfer`); a CPU past
    /// the table's end (a config larger than the machine) is placed as `distance` does.
    #[inline]
    pub fn distance_in(&self, places: &[Place], a: usize, b: usize) -> Distance {
        if a == b {
            return Distance::Same;
        }
        match (places.get(a), places.get(b)) {
            (Some(x), Some(y)) => x.distance_to(y),
            _ => self.distance(a as u32, b as u32),
        }
    }

    /// `lscpu`'s summary: "2 sockets x 20 cores x 2 threads = 80 CPUs, 1 LLC per socket".
    pub fn describe(&self) -> String {
        let llc = if self.llcs_per_package == 1 {
            "1 LLC per socket".to_string()
        } else {
            format!("{} LLCs of {} cores per socket", self.llcs_per_package, self.cores_per_llc)
        };
        format!(
            "{} socket{} x {} cores x {} thread{} = {} CPUs, {llc}",
            self.packages,
            if self.packages == 1 { "" } else { "s" },
            self.llcs_per_package * self.cores_per_llc,
            self.threads_per_core,
            if self.threads_per_core == 1 { "" } else { "s" },
            self.cpus()
        )
    }
}

/// Latency of one cache line moving between two CPUs (`Distance`), in ns: the median of a
/// compare-and-swap ping-pong between two pinned threads, as core-to-core latency tools
/// measure it. The profile cites where each figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct C2c {
    pub sibling: Ns,
    pub llc: Ns,
    pub package: Ns,
    pub remote: Ns,
}

impl C2c {
    /// The latency of one line's transfer over `d` (0 on the same CPU).
    pub const fn at(&self, d: Distance) -> Ns {
        match d {
            Distance::Same => 0,
            Distance::Sibling => self.sibling,
            Distance::Llc => self.llc,
            Distance::Package => self.package,
            Distance::Remote => self.remote,
        }
    }
}

const fn topo(packages: u32, llcs_per_package: u32, cores_per_llc: u32, threads_per_core: u32, smt: u64) -> Topology {
    Topology { packages, llcs_per_package, cores_per_llc, threads_per_core, smt_yield_permille: smt }
}

// Core-to-core latencies: nviennot/core-to-core-latency, README (MIT; read in the stored
// copy at 0dddf509), medians of a CAS ping-pong between two pinned threads. Cascade Lake
// (Xeon Platinum 8275CL, AWS c5.metal): 47 ns within a socket, 134 ns across sockets,
// 7.6 ns between hyper-threads; Xeon Gold 6242 (Cascade Lake): 48 / 136 / 7.4 ns. Ice Lake
// (Xeon Platinum 8375C, c6i.metal): 51 / 108 / 8.1 ns. Milan (EPYC 7R13, c6a.metal): 23 ns
// within a CCX ("6 groups of 8 in which latency is excellent"), ~107 ns across CCXs of one
// socket, 197 ns across sockets, 9.8 ns between SMT threads. Skylake client (i7-6700K): 20 ns,
// 6.9 ns SMT; Comet Lake (i5-10310U): 21 ns, 7.3 ns SMT; Broadwell-EP (E5-2695 v4): 44 ns
// within, 118 ns across sockets. The same kind of measurement as chipsandcheese's "Core to
// Core Latency Data on Large Systems" (2023) and Anandtech's bounce test; those pages were
// located, but their figures were not in the stored excerpts. A line's transfer is charged
// this one-way figure once per line (simplified: a CAS round trip moves the line twice, and
// independent lines of one copy could overlap; see `workload::pipe::Lines`).
const C2C_CLX: C2c = C2c { sibling: 8, llc: 47, package: 47, remote: 134 };
const C2C_ICX: C2c = C2c { sibling: 8, llc: 51, package: 51, remote: 108 };
const C2C_MILAN: C2c = C2c { sibling: 10, llc: 23, package: 107, remote: 197 };
const C2C_SKL_CLIENT: C2c = C2c { sibling: 7, llc: 21, package: 21, remote: 21 };
// Westmere-EP (x5675): the same tool's table for 2 x Xeon X5650 (results/"Dual Intel(R)
// Xeon(R) CPU X5650 @ 2.67GHz.csv", added in 47795f2, Sep 2022, when the tool already printed
// round-trip-time / 2): medians over the core pairs, 37.2 ns within a socket (36.1-38.2),
// 73.7 ns across (68.4-79.7), 7.1 ns between hyper-threads. The X5650 is the X5675's die
// (6-core 32 nm Westmere-EP, 12 MB L3) at 2.67 GHz against 3.06: used unscaled (simplified).
const C2C_WSM: C2c = C2c { sibling: 7, llc: 37, package: 37, remote: 74 };
// Core 2: no measurement of it in the material read. ASSUMPTION: a Core 2's shared L2
// hand-off is taken as the Skylake client's 21 ns, and its FSB crossing (q6600's two dies)
// as Broadwell-EP's socket crossing, 118 ns.
const C2C_CORE2: C2c = C2c { sibling: 7, llc: 21, package: 118, remote: 118 };
// Cortex-A76 cluster (rpi5): no measurement read. ASSUMPTION: the Skylake client's 21 ns
// (one shared L3 on one die; Graviton2's Neoverse N1, the A76's server sibling, measures
// 47 ns across a 64-core mesh, a larger machine).
const C2C_A76: C2c = C2c { sibling: 7, llc: 21, package: 21, remote: 21 };

// SMT yield. Intel: Marr et al., "Hyper-Threading Technology Architecture and
// Microarchitecture", Intel Technology Journal 6(1), Feb 2002: "performance gains of up to
// 30% on common server application benchmarks": 1.30, an upper figure of Intel's own. AMD
// Zen 3: ASSUMPTION, the same 1.30 (Anandtech's "Investigating Performance of
// Multi-Threading on Zen 3 and AMD Ryzen 5000", Dec 2020, measures it per test on a 5950X;
// its summary figure was not in the stored copy).
const SMT_INTEL: u64 = 1_300;
const SMT_ZEN3: u64 = 1_300;

const fn st(name: &'static str, exit_us: u64, residency_us: u64, entry: IdleEntry) -> CState {
    CState {
        name,
        exit_latency: exit_us * US,
        target_residency: residency_us * US,
        core_exit: exit_us * US,
        entry,
        tlb_flushed: false,
    }
}

/// `s` flagged CPUIDLE_FLAG_TLB_FLUSHED in intel_idle's table.
const fn flushed(s: CState) -> CState {
    CState { tlb_flushed: true, ..s }
}

/// A package state: `st` whose core part of the exit latency is `core_us`.
const fn pkg(name: &'static str, exit_us: u64, residency_us: u64, core_us: u64, entry: IdleEntry) -> CState {
    CState { core_exit: core_us * US, ..st(name, exit_us, residency_us, entry) }
}

use IdleEntry::{Io, Mwait, Wfi};

// Core 2 exposed C-states through ACPI _CST. Latencies are the values commonly reported by
// Core 2 desktop BIOSes (C1 1 us, C2 20 us, C3 85 us class); target residency follows the
// acpi_idle rule in kernel-mechanisms.md: equal to the latency for C1-type states and 3x
// the latency for deeper ones. Entry: C1 as FFH (MWAIT) — acpi_processor_evaluate_cst:
// "In the majority of cases _CST describes C1 as a FIXED_HARDWARE C-state" — and C2/C3 as
// P_LVL2/P_LVL3 I/O-port reads (assumption: no _CST of these boards was read).
const CORE2_ACPI: &[CState] = &[st("C1", 1, 1, Mwait), st("C2", 20, 60, Io), st("C3", 85, 255, Io)];
// drivers/idle/intel_idle.c, nehalem_cstates (also used for Westmere); every state is MWAIT;
// C3-NHM and C6-NHM carry CPUIDLE_FLAG_TLB_FLUSHED (3.x and 4.x tables read).
// C1 is C1, not C1E: `idle_cpu_nehalem` sets `disable_promotion_to_c1e`, so the driver's
// init clears the hardware's C1E promotion (MSR_IA32_POWER_CTL bit 1,
// `c1e_promotion_disable`, on every CPU) whatever the BIOS set, and clears the C1/C3
// auto-demotion bits of MSR_PKG_CST_CONFIG_CONTROL (`auto_demotion_disable`). Read in the
// 3.10/3.11 text (`intel_idle` MWAITs after `if (!need_resched()) __monitor(...)`, before
// ea8117478918's `current_set_polling_and_test`; CPUIDLE_FLAG_TIME_VALID; Haswell ids up
// to 0x46), and the same in 3.12/3.13. So while intel_idle binds, a BIOS switch that also
// turns C1E off changes no C1 wakeup.
const NEHALEM: &[CState] = &[
    st("C1", 3, 6, Mwait),
    st("C1E", 10, 20, Mwait),
    flushed(st("C3", 20, 80, Mwait)),
    flushed(st("C6", 200, 800, Mwait)),
];
// drivers/idle/intel_idle.c, skx_cstates.
const SKX: &[CState] = &[st("C1", 2, 2, Mwait), st("C1E", 10, 20, Mwait), st("C6", 133, 600, Mwait)];
// drivers/idle/intel_idle.c, spr_cstates.
const SPR: &[CState] = &[st("C1", 1, 1, Mwait), st("C1E", 2, 4, Mwait), st("C6", 290, 800, Mwait)];

// drivers/idle/intel_idle.c, icx_cstates (Ice Lake-SP, ICELAKE_X -> idle_cpu_icx; read in a
// 5.15.135 tree): C1 1/1, C1E 4/4, C6 170/600 us.
const ICX: &[CState] = &[st("C1", 1, 1, Mwait), st("C1E", 4, 4, Mwait), st("C6", 170, 600, Mwait)];
// AMD EPYC (Zen 3) under acpi_idle: the firmware's _CST, C1 as FFH (MWAIT 0x0) and C2 as an
// I/O-port read of the FCH's P_LVL2 (ACPI IOPORT 0x814), with target residency = latency x
// `latency_factor` (2; drivers/acpi/processor_idle.c, acpi_processor_setup_cstates, 5.15).
// The latencies are firmware values: public cpupower dumps of EPYC machines show C2 at 30,
// 100 and 400 us; none of them names an EPYC 7763. Chosen (an assumption): the one dump that
// also shows residencies, C1 1/2 us and C2 400/800 us.
//
// Core and package parts (declared vs paid, issue 27). The I/O-port read of C2 puts the core
// in CC6; the package (socket) reaches its own C6 only when every core of it is there. What
// a core pays leaving CC6 while its package stays up was measured by gVisor's maintainers
// (google/gvisor pull request 14526, "Cap host CPU deep idle states for GPU sandboxes on
// impacted CPUs", merged 2026-08: "AMD EPYC's deepest state measures ~5-15us, despite
// similar advertised latencies", against ~150-230 us for Sapphire/Emerald/Granite Rapids'
// C6). The core part is the top of that range, 15 us: a measured worst case of the same
// family, not an EPYC 7763 figure; the declared 400 us stays the governor's figure and is
// paid when the whole package idled (`sim::idle_path::Packages`).
const ZEN_ACPI: &[CState] = &[st("C1", 1, 2, Mwait), pkg("C2", 400, 800, 15, Io)];

// Comet Lake desktop (i5-10600K, family 6 model 0xA5) is not in intel_idle's intel_idle_ids,
// so from 5.6 intel_idle builds its table from the firmware's _CST for an unrecognised model
// with MWAIT (drivers/idle/intel_idle.c, intel_idle_acpi_cst_extract and
// intel_idle_init_cdata_acpi; Documentation/admin-guide/pm/intel_idle.rst, "Enumeration of
// Idle States"), naming each state "C<n>_ACPI" and entering every one with MWAIT (the _CST
// entries are FFH with MWAIT hints, as the posted "MWAIT 0x.." descriptions show). The table is
// exactly the one Doug Smythies posted for his i5-10600K (validation-corpus.md section 3):
// C1_ACPI (MWAIT 0x0) 1/1 us, C2_ACPI (MWAIT 0x30) 120/360 us, C3_ACPI (MWAIT 0x60)
// 1034/3102 us, exit latency / target residency.
//
// Core and package parts (declared vs paid). An MWAIT hint's top nibble is the C-state
// asked for, minus one (intel_idle.c: "0x00 means MWAIT(C1), 0x10 means MWAIT(C2)"), so
// 0x30 asks for C7 and 0x60 for C10. Comet Lake is the Skylake core; intel_idle's native
// table for it, `skl_cstates` (drivers/idle/intel_idle.c, read in a 6.x tree), lists the
// core states C1 0x00 (2 us), C1E 0x01 (10), C3 0x10 (70), C6 0x20 (85) and then C7s 0x33
// (124), C8 0x40 (200), C9 0x50 (480), C10 0x60 (890): past C6 a deeper hint deepens only
// the package (a core does not go below its C6/C7 power-gated state), which every core of
// the package must reach first. So the core part of C2_ACPI and C3_ACPI is taken as
// `skl_cstates`' C6 exit latency, 85 us: a declared worst case of the same core, not a
// measurement; the rest (35 and 949 us) is the package's exit. C1_ACPI (0x00) is a core state.
//
// Measured CC6 exit, searched for (issue 27, exit-s23, 2026-12-06) and not found for a
// Skylake-family client core, so the declared 85 us stays (it is the worst case: Len Brown's
// "mwait_idle: Skylake Client Support", Linux 493f133f4775, read in Xen's port of it, gives
// skl_cstates "updated worst-case latency"). Queries (search tool, corpora pages, docs,
// code, issues): "wult C6 exit latency Skylake client", "wult CC6 ... Kaby Lake Coffee
// Lake", "intel_idle C6 exit latency measured wult", "i7-6700K C6 wake-up latency", "Doug
// Smythies i5-10600K exit latency", "Skylake-SP C-state wake-up latency", and the exact
// strings "measured with wult", "CC6 exit latency", "C6 exit latency was measured". What
// they held:
// - intel_idle "Adjust the SKX C6 parameters if PC6 is disabled" (Chen Yu, 2021): CC6 with the
//   package up 92 us on SKX, 96 on CLX, 89 on CPX, by wult via NIC, the 99.99th percentile:
//   a server part's tail, not a typical client exit.
// - wult's "How it works" page: Xeon E5-2697 v2 (Ivy Bridge server) C6 median 73.8 us (NIC)
//   and 17.6 us (timer, with C-state pre-wake): another core and a server part.
// - Smejkal et al., "Sleep Well" (BDCAT 2023) measured an i7-6700K's idle-state latencies;
//   only the abstract is stored, no figure.
// - Schöne, Molka, Werner (CSRD 2015, pre-Skylake parts) and Schöne et al. on Skylake-SP
//   (arXiv 1905.12468): abstracts only, and not client parts. gVisor PR 14526: Xeon server
//   C6 ~150-230 us, no client Intel figure.
// - Doug Smythies' linux-pm posts on this i5-10600K: idle-state usage and power, no exit
//   latency measurement.
const CML_ACPI: &[CState] =
    &[st("C1_ACPI", 1, 1, Mwait), pkg("C2_ACPI", 120, 360, 85, Mwait), pkg("C3_ACPI", 1034, 3102, 85, Mwait)];

// Core 2 is never supported by intel_idle (not in intel_idle_ids; "intel_idle: does not run
// on family 6 model 23", unix.stackexchange 454896), so acpi_idle binds. With C-states off
// the BIOS publishes no _CST and acpi_idle falls back to acpi_processor_get_power_info_default:
// C1 only ("ACPI HLT"), too little for acpi_idle to register a cpuidle driver, so
// `default_idle` (HLT) runs without a governor.
const CORE2_DRIVER: IdleDriver = IdleDriver {
    kind: IdleDriverKind::AcpiIdle,
    bios_off: BiosOff::DefaultIdle,
    note: "acpi_idle; assumed: BIOS C-states off removes _CST, so no cpuidle driver: default_idle (HLT, C1)",
};
// intel_idle on Westmere-EP (model 0x2c -> idle_cpu_nehalem). In 3.11 it loads iff MWAIT and
// CPUID.5 substates are present and never reads _CST (r2 A7). Which of the two BIOS
// behaviours the seed's X5675 had is not verified: (a) the BIOS only sets the package
// C-state limit (MSR 0xE2) and leaves CPUID.5 alone, so intel_idle registers C1..C6 and the
// hardware demotes deeper requests to C1; (b) the BIOS disables MONITOR/MWAIT, intel_idle
// does not load, and HLT via acpi_idle/default_idle is used. Chosen: (a), because intel_idle
// ignores the BIOS C-state setting except through CPUID, "C-states disabled" on these boards
// is the package C-state limit, and disabling MONITOR/MWAIT is a separate setup option.
// Under 3.11 both choices send the IPI and wake in about C1's latency; under 4.17+ they
// differ (MWAIT polls, HLT does not). The same choice is used for Skylake-SP and Sapphire
// Rapids; there, from ~5.6 ("intel_idle: Use ACPI _CST on server systems", `use_acpi`),
// intel_idle marks the states _CST does not list CPUIDLE_FLAG_OFF when a _CST exists, so
// a BIOS that keeps a C1-only _CST would hide C1E/C6 from the governor instead: the wakeup
// cost (C1's exit latency, MWAIT) is the same, the governor's view is not (not modelled).
const INTEL_IDLE_DEMOTE: IdleDriver = IdleDriver {
    kind: IdleDriverKind::IntelIdle,
    bios_off: BiosOff::Demote { to: "C1" },
    note: "intel_idle; assumed: BIOS C-states off = package C-state limit, MWAIT kept, every request demoted to C1",
};

// intel_idle from _CST on Comet Lake (above). With C-states off in the BIOS the same
// assumption as INTEL_IDLE_DEMOTE: the package C-state limit demotes every request to C1.
// Before 5.6 intel_idle did not load on this model and acpi_idle would bind the same _CST
// states (not modelled: the profile always names intel_idle).
const INTEL_IDLE_CST_DEMOTE: IdleDriver = IdleDriver {
    kind: IdleDriverKind::IntelIdle,
    bios_off: BiosOff::Demote { to: "C1_ACPI" },
    note: "intel_idle from _CST (model not in intel_idle_ids, 5.6+); assumed: BIOS C-states off = package C-state limit, every request demoted to C1_ACPI",
};

// acpi_idle on EPYC: acpi_idle binds (intel_idle does not run on AMD). With C-states off in
// the BIOS, assumed: _CST then lists C1 only, so acpi_idle registers no cpuidle driver
// (C1 alone, `pr->flags.power`), as on Core 2: default_idle runs, which on these CPUs is
// MWAIT-less HLT only if the kernel picks it; modelled as the table's first state.
const ACPI_IDLE_ZEN: IdleDriver = IdleDriver {
    kind: IdleDriverKind::AcpiIdle,
    bios_off: BiosOff::DefaultIdle,
    note: "acpi_idle from _CST (C1 FFH MWAIT, C2 I/O port); assumed: BIOS C-states off leaves only C1, so no cpuidle driver: default_idle",
};

// Raspberry Pi 5 (BCM2712) under mainline: arch/arm64/boot/dts/broadcom/bcm2712.dtsi (read
// in a current torvalds/linux tree) gives the four Cortex-A76 `enable-method = "psci"` and a
// PSCI 1.0 node but no `cpu-idle-states` and no `idle-states` node. cpuidle-psci builds its
// table from `arm,idle-state` nodes (`dt_init_idle_driver`; its state 0 is "WFI", exit
// latency 1 us, target residency 1 us, drivers/cpuidle/cpuidle-psci.c), so with none it
// registers no driver and the idle loop runs `default_idle_call` -> `cpu_do_idle`: WFI
// only, no governor (the -ENODEV path of `psci_idle_init_cpu` was not read line by line).
// WFI is given cpuidle's own 1/1 us.
const BCM2712_MAINLINE: &[CState] = &[st("WFI", 1, 1, Wfi)];
const NO_CPUIDLE_DRIVER: IdleDriver = IdleDriver {
    kind: IdleDriverKind::NoDriver,
    bios_off: BiosOff::DefaultIdle,
    note: "mainline bcm2712.dtsi describes no arm,idle-state: no cpuidle driver, WFI via default_idle_call",
};

/// Every profile, in the order the UI lists them.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "core2duo",
        title: "Core 2 Duo E6600 (2007 desktop, 2 cores)",
        // Core 2 Duo E6600: one die, 2 cores sharing the 4 MB L2, no Hyper-Threading (Intel E6600 datasheet).
        topo: topo(1, 1, 2, 1, 1_000),
        c2c: C2C_CORE2,
        llc_bytes: 4 << 20, // 4 MB shared L2 (Intel E6600 datasheet)
        // Hexus Core 2 Duo launch review (ScienceMark 2.0): streaming bandwidth "sub-6GiB/s"
        // through the 8.5 GB/s FSB (https://www.hexus.net/tech/reviews/cpu/6184-intel-conroe-
        // core-2-duoextreme-processors/?page=4). Estimate: a refill is demand misses, about a
        // third of streaming: ~2 GB/s.
        refill_bytes_per_us: 2_000,
        cstates: CORE2_ACPI,
        idle_driver: CORE2_DRIVER,
        // Li, Ding, Shen, "Quantifying the Cost of Context Switch", ExpCS 2007
        // (http://www.cs.rochester.edu/u/cli/research/switch.htm): direct cost 3.8 us as quoted
        // by kernel-mechanisms.md; the paper's testbed CPU and the figure were not read in the
        // stored copy (r3-calibration.md), so this is a located, unverified figure.
        ctx_switch: 3_800,
        tlb: TlbTags::Untagged, // Core 2 predates PCID (Intel's from 2010: TlbTags::Pcid)
        // Benoit Sigoure, "How long does it take to make a context switch?" (blog.tsunanet.net,
        // Nov 2010; its figures read in a stored translation of the post and its code in
        // tsuna/contextswitch, timesyscall.c: 10 M `syscall(SYS_gettid)`, whose body is
        // trivial, so the time is the entry and exit): "Intel 5150: 105ns/syscall" (Woodcrest,
        // the E6600's Core microarchitecture, 2.67 GHz, Ubuntu 2.6.28). Scaled by clock to
        // 2.4 GHz: 105 x 2.67 / 2.4 = 117 ns. (It was 250, an estimate of ~600 cycles.)
        syscall: 117,
        ttwu: 600, // estimate: enqueue + preemption check, ~1500 cycles at 2.4 GHz
        // kernel-mechanisms.md: a lapic timer write is "about 1 us class" (not a primary source).
        reprogram: US,
        ipi_send: 300,         // estimate: xAPIC ICR write (MMIO) + smp_send_reschedule, ~700 cycles
        ipi_latency: 500,      // estimate: delivery over the FSB; no measured figure found
        ipi_receive: 700,      // estimate: irq entry/exit + scheduler_ipi, ~1700 cycles
        tick_handler: 1_500,   // estimate: tick_sched_timer + scheduler_tick, ~3600 cycles
        speed_permille: 1_000, // the reference: 2.4 GHz Core 2 (Intel E6600 datasheet clock)
    },
    Profile {
        name: "q6600",
        title: "Core 2 Quad Q6600 (2007 SMP desktop, 4 cores)",
        // Core 2 Quad Q6600: two dual-core dies in one package, each die's 2 cores sharing
        // its 4 MB L2, no Hyper-Threading (Intel Q6600 datasheet): 2 LLCs per socket, a
        // crossing between them over the FSB. ASSUMPTION: Linux numbers each die's cores
        // consecutively (cpu 0,1 and 2,3 share an L2); the APIC order of these boards was not read.
        topo: topo(1, 2, 2, 1, 1_000),
        c2c: C2C_CORE2,
        llc_bytes: 4 << 20, // 2 x 4 MB L2, each shared by a pair of cores (Intel Q6600 datasheet)
        refill_bytes_per_us: 2_000, // as core2duo: same memory system class
        cstates: CORE2_ACPI,
        idle_driver: CORE2_DRIVER,
        // Same core and clock as core2duo: every cost as there (same sources and estimates).
        ctx_switch: 3_800,
        tlb: TlbTags::Untagged, // Core 2 predates PCID (Intel's from 2010: TlbTags::Pcid)
        syscall: 117,           // core2duo's: Sigoure's Intel 5150 (Core) gettid, 105 ns at 2.67 GHz
        ttwu: 600,
        reprogram: US,
        ipi_send: 300,
        ipi_latency: 500,
        ipi_receive: 700,
        tick_handler: 1_500,
        speed_permille: 1_000, // 2.4 GHz Core 2, the reference
    },
    Profile {
        name: "x5675",
        title: "2 x Xeon X5675 (Westmere-EP 2011, 12 cores, 24 threads)",
        // 2 x Xeon X5675: 6 cores and 12 threads per socket, 12 MB L3 per socket (Intel X5675
        // datasheet): 24 CPUs; the seeds run 12 or fewer, the first threads only.
        topo: topo(2, 1, 6, 2, SMT_INTEL),
        c2c: C2C_WSM,
        llc_bytes: 12 << 20, // 12 MB L3 per socket (Intel X5675 datasheet)
        // estimate: 3 DDR3-1333 channels (Intel X5675 datasheet) against core2duo's 2 GB/s
        // from an FSB: an integrated controller, about 3x one core's miss-bound share.
        refill_bytes_per_us: 6_000,
        cstates: NEHALEM,
        idle_driver: INTEL_IDLE_DEMOTE,
        // ASSUMPTION (issue 27 f): no independent measurement read. The figure was argued from
        // a same-CPU pipe round trip of ~4-5 us on this class = 2 switches + 4 syscalls,
        // which is seed 3's own workload (the row that judges it), so it carries no source.
        // Searched for one: lmbench lat_ctx and `perf bench sched pipe` figures for Westmere
        // were not found in the stored material; Benoit Sigoure's "How long does it take to
        // make a context switch?" (blog.tsunanet.net, Nov 2010, a futex ping-pong on a
        // Westmere L5630 and a Nehalem X5550) was located but its figures were not in the
        // stored copy. Clock-scaling core2duo's 3.8 us would give ~3.0 us (r3-calibration.md).
        // Searched again (issue 27, acc27d): no lmbench lat_ctx or `perf bench sched pipe`
        // figure for an X5600/X5500-class CPU in the stored pages, LKML or code; the blog's
        // figures are still not in the stored copy (only its CPU list). A cross-check from
        // another class, not a source: Lutomirski's PCID cover letter (SWITCH_MM_TLB_PERMILLE)
        // puts a cross-process switch on a 2016 Skylake laptop at ~0.9-1 us (100 ns is "a
        // little over 10%"); scaled by speed_permille (Skylake-class 2000 vs 1500 here) that
        // is ~1.2-1.3 us, the same class as this figure. Kept, and still an ASSUMPTION.
        // Searched a third time (issue 27, cost27): the stored pages, LKML and code corpora
        // for lmbench `lat_ctx`/`lat_pipe`, `perf bench sched pipe`, Ingo Molnar's
        // `pipe-test` and will-it-scale `context_switch1` on X5650/X5670/X5675/X5680/L5640/
        // E5620-class Xeons: none found (LKP's Westmere hosts, lkp-ws02 and lkp-wsx01, appear
        // only in dd-write and tlbflush tables). Sigoure's post (syscall above) was read this
        // time in a stored translation that stops before its pinned table: its unpinned
        // futex ping-pong is "Intel L5630: ~3000ns/context switch", which includes two futex
        // calls a switch and a cross-CPU wakeup, an upper bound only; a stored summary of the
        // post gives the pinned figures as "~1,100-1,900 ns" a switch over all his CPUs
        // (2.0-2.83 GHz; the E5440 quoted: "~1300ns/process context switch"), each with 1.5
        // system calls in it (timectxsw.c: 6 calls a 4 counted switches). Scaled to 3.07 GHz
        // (which chip gave which end is not in the summary) and less 1.5 x 40 ns, that is
        // ~0.65-1.7 us: a bound this figure is inside, not a source for it.
        ctx_switch: 1_200,
        tlb: TlbTags::Pcid, // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        // Sigoure (core2duo's syscall): "Intel L5630: 58ns/syscall" (gettid; Westmere-EP,
        // the X5675's core, at 2.13 GHz; an Ubuntu kernel of his 2.6.24-3.4 range). Scaled
        // by clock to 3.07 GHz: 58 x 2.13 / 3.07 = 40 ns. Not seed 3's row: another machine
        // and benchmark. (It was 150, core2duo's 250 ns estimate scaled by clock.)
        syscall: 40,
        ttwu: 300, // estimate: core2duo's 600 ns scaled by clock and IPC (speed_permille)
        // Westmere has no TSC-deadline mode: the lapic one-shot write as on Core 2. Estimate:
        // core2duo's 1 us (kernel-mechanisms.md) scaled by clock, 2.4/3.07 GHz. (It was 1 us,
        // justified by seed 3's own arithmetic, which that row judges.)
        reprogram: 800,
        ipi_send: 200,     // estimate: core2duo's 300 ns scaled by clock
        ipi_latency: 400,  // estimate: core2duo's 500 ns scaled by clock (QPI/on-die delivery)
        ipi_receive: 400,  // estimate: core2duo's 700 ns scaled by speed_permille
        tick_handler: 800, // estimate: core2duo's 1.5 us scaled by speed_permille
        // 3.07 GHz (Intel X5675 datasheet) vs 2.4 GHz Core 2: clock ratio 1.28, times an
        // estimated ~1.17 IPC gain for Nehalem/Westmere over Core 2 (estimate, no source read).
        speed_permille: 1_500,
    },
    Profile {
        name: "skylake-sp",
        title: "Xeon Gold 6148 (Skylake-SP 2017, 20 cores, 40 threads)",
        // Xeon Gold 6148: 20 cores, 40 threads, one L3 (Intel 6148 datasheet). Transfer: the
        // Cascade Lake figures (the same Skylake-SP die and mesh).
        topo: topo(1, 1, 20, 2, SMT_INTEL),
        c2c: C2C_CLX,
        llc_bytes: 27_500 << 10,     // 27.5 MB L3 (Intel 6148 datasheet)
        refill_bytes_per_us: 10_000, // estimate: 6 DDR4-2666 channels (Intel 6148 datasheet), x5675 scaled
        cstates: SKX,
        idle_driver: INTEL_IDLE_DEMOTE,
        ctx_switch: 900,    // estimate: x5675's 1.2 us scaled by speed_permille (1.5/2.0)
        tlb: TlbTags::Pcid, // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        // estimate (before mitigations): x5675's old 150 ns estimate scaled. Kept although the
        // same core's sourced figure (cascadelake-2s, 67 ns at 2.5 GHz: ~70 here) is lower:
        // every later profile's syscall descends from this one, and re-anchoring them is a
        // change of its own (BENCHMARKS.md, issue 27 cost27).
        syscall: 120,
        ttwu: 250,             // estimate: x5675's 300 ns scaled
        reprogram: 300,        // estimate: TSC-deadline timer (one WRMSR to IA32_TSC_DEADLINE) + clockevents
        ipi_send: 150,         // estimate: x2APIC ICR write is an MSR write; x5675's 200 ns scaled
        ipi_latency: 300,      // estimate: x5675's 400 ns scaled (mesh delivery)
        ipi_receive: 300,      // estimate: x5675's 400 ns scaled
        tick_handler: 500,     // estimate: x5675's 800 ns scaled
        speed_permille: 2_000, // estimate: 2.4 GHz base / 3.7 GHz turbo (Intel 6148 datasheet) with Skylake IPC
    },
    Profile {
        name: "sapphire-rapids",
        title: "Xeon Platinum 8480+ (Sapphire Rapids 2023, 56 cores, 112 threads)",
        // Xeon Platinum 8480+: 56 cores, 112 threads, one L3 over its four tiles (Intel 8480+
        // datasheet; sub-NUMA clustering off). Transfer: ASSUMPTION, Ice Lake-SP's figures
        // (no Sapphire Rapids figure in the material read; its tiles cross EMIB bridges).
        topo: topo(1, 1, 56, 2, SMT_INTEL),
        c2c: C2C_ICX,
        llc_bytes: 105 << 20,        // 105 MB L3 (Intel 8480+ datasheet)
        refill_bytes_per_us: 12_000, // estimate: 8 DDR5-4800 channels (Intel 8480+ datasheet), skylake-sp scaled
        cstates: SPR,
        idle_driver: INTEL_IDLE_DEMOTE,
        // estimate: skylake-sp's 900 ns x 2000/2400 (speed_permille) is 750; 800 was set, the gap unexplained
        ctx_switch: 800,
        tlb: TlbTags::Pcid,    // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        syscall: 100,          // estimate: skylake-sp's 120 ns scaled (no mitigations modelled)
        ttwu: 200,             // estimate: skylake-sp's 250 ns scaled
        reprogram: 200,        // estimate: TSC-deadline timer, skylake-sp's 300 ns scaled
        ipi_send: 120,         // estimate: skylake-sp's 150 ns scaled
        ipi_latency: 250,      // estimate: skylake-sp's 300 ns scaled
        ipi_receive: 250,      // estimate: skylake-sp's 300 ns scaled
        tick_handler: 400,     // estimate: skylake-sp's 500 ns scaled
        speed_permille: 2_400, // estimate: 2.0 GHz base / 3.8 GHz turbo (Intel 8480+ datasheet), Golden Cove IPC
    },
    Profile {
        name: "cascadelake-2s",
        title: "2 x Xeon Gold 6248 (Cascade Lake 2019, 40 cores, 80 threads)",
        // 2 x 20 cores x 2 threads = 80 CPUs, one L3 per socket (Intel 6248 specifications).
        topo: topo(2, 1, 20, 2, SMT_INTEL),
        c2c: C2C_CLX,
        llc_bytes: 27_500 << 10, // 27.5 MB L3 per socket (Intel Xeon Gold 6248 specifications)
        // estimate: 6 DDR4-2933 channels per socket (Intel 6248 specifications): skylake-sp's
        // 10 GB/s (6 x DDR4-2666) scaled by the transfer rate.
        refill_bytes_per_us: 11_000,
        // Cascade Lake-SP is model 0x55, SKYLAKE_X: intel_idle's skx_cstates (5.15 tree).
        cstates: SKX,
        idle_driver: INTEL_IDLE_DEMOTE,
        // Costs: estimates, skylake-sp's scaled by base clock (2.4 / 2.5 GHz, Intel specifications);
        // the same Skylake core.
        ctx_switch: 860,    // estimate: skylake-sp's 900 ns x 2.4/2.5
        tlb: TlbTags::Pcid, // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        // The entry and exit measured in the will-it-scale `pipe1` profile that sources
        // `workload::pipe::PIPE_OP_REF` (2 x Xeon Platinum 9242, Cascade Lake, v5.8-rc3, every
        // hardware thread busy): 21.47% of 956.4 ns a write and read, 102.7 ns a call
        // (`unix1` in the same report: 106.5 ns); a lone thread at the engine's SMT rule
        // (650 permille beside a busy sibling): 102.7 x 0.65 = 67 ns. The 9242 is taken as the
        // 6248 unscaled (the same core). (It was 115, skylake-sp's 120 ns estimate scaled.)
        syscall: 67,
        ttwu: 240,             // estimate: skylake-sp's 250 ns x 2.4/2.5
        reprogram: 290,        // estimate: TSC-deadline timer, skylake-sp's 300 ns x 2.4/2.5
        ipi_send: 145,         // estimate: skylake-sp's 150 ns x 2.4/2.5
        ipi_latency: 290,      // estimate: skylake-sp's 300 ns x 2.4/2.5 (mesh; cross-socket UPI not separated)
        ipi_receive: 290,      // estimate: skylake-sp's 300 ns x 2.4/2.5
        tick_handler: 480,     // estimate: skylake-sp's 500 ns x 2.4/2.5
        speed_permille: 2_083, // estimate: skylake-sp's 2000 x 2.5/2.4 (base clocks)
    },
    Profile {
        name: "xeon-6338",
        title: "2 x Xeon Gold 6338 (Ice Lake-SP 2021, 64 cores, 128 threads)",
        // 2 x 32 cores x 2 threads = 128 CPUs, one L3 per socket (Intel 6338 specifications).
        topo: topo(2, 1, 32, 2, SMT_INTEL),
        c2c: C2C_ICX,
        llc_bytes: 48 << 20, // 48 MB L3 per socket (Intel Xeon Gold 6338 specifications)
        // estimate: 8 DDR4-3200 channels per socket (Intel 6338 specifications), as sapphire-rapids' class.
        refill_bytes_per_us: 12_000,
        cstates: ICX,
        idle_driver: INTEL_IDLE_DEMOTE,
        // Costs: estimates, skylake-sp's scaled by clock (2.4 / 2.0 GHz base) and an assumed
        // ~18% IPC gain of Sunny Cove over Skylake (Intel's Ice Lake claim): x 1.02, kept equal.
        ctx_switch: 900,       // estimate: skylake-sp's 900 ns (x 1.02)
        tlb: TlbTags::Pcid,    // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        syscall: 120,          // estimate: skylake-sp's 120 ns
        ttwu: 250,             // estimate: skylake-sp's 250 ns
        reprogram: 300,        // estimate: TSC-deadline timer, skylake-sp's 300 ns
        ipi_send: 150,         // estimate: skylake-sp's 150 ns
        ipi_latency: 300,      // estimate: skylake-sp's 300 ns
        ipi_receive: 300,      // estimate: skylake-sp's 300 ns
        tick_handler: 500,     // estimate: skylake-sp's 500 ns
        speed_permille: 1_967, // estimate: skylake-sp's 2000 x 2.0/2.4 x 1.18
    },
    Profile {
        name: "zen3-2s",
        title: "2 x EPYC 7763 (Zen 3 Milan 2021, 128 cores, 256 threads, 16 CCXs)",
        // 2 x 64 cores x 2 threads = 256 CPUs; Zen 3's L3 is per CCX of 8 cores (AMD EPYC 7003
        // specifications: 256 MB = 8 x 32 MB per socket): 8 LLCs per socket, 16 in all.
        topo: topo(2, 8, 8, 2, SMT_ZEN3),
        c2c: C2C_MILAN,
        llc_bytes: 32 << 20,
        // estimate: 8 DDR4-3200 channels per socket (AMD EPYC 7763 specifications), as xeon-6338.
        refill_bytes_per_us: 12_000,
        cstates: ZEN_ACPI,
        idle_driver: ACPI_IDLE_ZEN,
        // Costs: estimates, skylake-sp's scaled by clock (2.4 / 2.45 GHz base) and an assumed
        // ~19% IPC gain of Zen 3 over a Skylake-class core (AMD's Zen 2 -> Zen 3 claim, Zen 2
        // taken as Skylake-class): x 0.82.
        ctx_switch: 740,       // estimate: skylake-sp's 900 ns x 0.82
        tlb: TlbTags::Pcid,    // PCID from Zen 3 (TlbTags::Pcid)
        syscall: 100,          // estimate: skylake-sp's 120 ns x 0.82
        ttwu: 205,             // estimate: skylake-sp's 250 ns x 0.82
        reprogram: 245,        // estimate: skylake-sp's 300 ns x 0.82 (AMD has no TSC-deadline mode; lapic one-shot)
        ipi_send: 125,         // estimate: skylake-sp's 150 ns x 0.82
        ipi_latency: 245,      // estimate: skylake-sp's 300 ns x 0.82 (cross-CCX delivery not separated)
        ipi_receive: 245,      // estimate: skylake-sp's 300 ns x 0.82
        tick_handler: 410,     // estimate: skylake-sp's 500 ns x 0.82
        speed_permille: 2_430, // estimate: skylake-sp's 2000 x 2.45/2.4 x 1.19
    },
    Profile {
        name: "i5-10600k",
        title: "Core i5-10600K (Comet Lake 2020 desktop, 6 cores, 12 threads)",
        // 6 cores, 12 threads, one 12 MB L3 (Intel i5-10600K specifications).
        topo: topo(1, 1, 6, 2, SMT_INTEL),
        c2c: C2C_SKL_CLIENT,
        llc_bytes: 12 << 20, // 12 MB L3 shared by all cores (Intel i5-10600K specifications)
        // estimate: 2 DDR4-2666 channels (Intel i5-10600K specifications) against skylake-sp's
        // 6 channels and 10 GB/s: one core's miss-bound share on a desktop ring, ~8 GB/s.
        refill_bytes_per_us: 8_000,
        cstates: CML_ACPI,
        idle_driver: INTEL_IDLE_CST_DEMOTE,
        // Costs: estimates scaled from skylake-sp by clock, 4.1 GHz (Doug Smythies' figure,
        // validation-corpus.md section 3) vs skylake-sp's 2.4 GHz base: x 2.4/4.1 = 0.585.
        ctx_switch: 530,       // estimate: skylake-sp's 900 ns scaled by clock (2.4/4.1)
        tlb: TlbTags::Pcid,    // Intel PCID since 2010 (Westmere; TlbTags::Pcid)
        syscall: 70,           // estimate: skylake-sp's 120 ns scaled by clock (no mitigations modelled)
        ttwu: 146,             // estimate: skylake-sp's 250 ns scaled by clock
        reprogram: 176,        // estimate: TSC-deadline timer, skylake-sp's 300 ns scaled by clock
        ipi_send: 88,          // estimate: skylake-sp's 150 ns scaled by clock
        ipi_latency: 176,      // estimate: skylake-sp's 300 ns scaled by clock (ring, one die)
        ipi_receive: 176,      // estimate: skylake-sp's 300 ns scaled by clock
        tick_handler: 293,     // estimate: skylake-sp's 500 ns scaled by clock
        speed_permille: 3_417, // estimate: skylake-sp's 2000 scaled by clock (4.1/2.4); same Skylake core
    },
    Profile {
        name: "rpi5",
        title: "Raspberry Pi 5 (BCM2712, 4 x Cortex-A76 2.4 GHz, mainline device tree)",
        // 4 Cortex-A76, no SMT, one shared L3 (bcm2712.dtsi).
        topo: topo(1, 1, 4, 1, 1_000),
        c2c: C2C_A76,
        // 2 MiB L3 shared by the four cores (bcm2712.dtsi `l3_cache`, citing the Raspberry Pi
        // processor documentation); 512 KiB private L2 per core is not modelled (one level).
        llc_bytes: 2 << 20,
        // estimate: LPDDR4X-4267 on a 32-bit bus (~17 GB/s peak, Raspberry Pi 5 product
        // brief), one core's miss-bound share taken as a third of peak, as for core2duo.
        refill_bytes_per_us: 5_500,
        cstates: BCM2712_MAINLINE,
        idle_driver: NO_CPUIDLE_DRIVER,
        // Costs: ASSUMPTIONS. No published Cortex-A76 measurement of a context switch, a
        // syscall round trip, a GIC-400 SGI (IPI) or a timer reprogram was found in the stored
        // material. Taken as skylake-sp's estimates (a 2.4 GHz core of similar IPC, Arm's
        // Skylake-class claim for the A76), kept equal rather than invented: the arm64 entry
        // path, the GICv2 SGI (one GICD_SGIR write to send, an acknowledge and EOI to take)
        // and the arch timer's CNTP_TVAL write differ from x86 in ways no figure here covers.
        ctx_switch: 900,       // assumption: skylake-sp's 900 ns
        tlb: TlbTags::Asid,    // arm64: ASIDs in every era
        syscall: 120,          // assumption: skylake-sp's 120 ns
        ttwu: 250,             // assumption: skylake-sp's 250 ns
        reprogram: 300,        // assumption: skylake-sp's 300 ns (arch timer CNTP_TVAL write)
        ipi_send: 150,         // assumption: skylake-sp's 150 ns (GICD_SGIR write)
        ipi_latency: 300,      // assumption: skylake-sp's 300 ns
        ipi_receive: 300,      // assumption: skylake-sp's 300 ns (GICC_IAR read + EOI)
        tick_handler: 500,     // assumption: skylake-sp's 500 ns
        speed_permille: 2_000, // assumption: as skylake-sp (2.4 GHz, Skylake-class IPC per Arm)
    },
];

impl Profile {
    /// `switch_mm`'s TLB part of `ctx_switch` (SWITCH_MM_TLB_PERMILLE): paid on a switch to
    /// another mm whose TLB entries this CPU does not hold.
    pub const fn switch_mm(&self) -> Ns {
        self.ctx_switch * SWITCH_MM_TLB_PERMILLE / 1000
    }

    /// What every context switch pays, whatever the mm: `ctx_switch` less `switch_mm()`.
    pub const fn switch_common(&self) -> Ns {
        self.ctx_switch - self.switch_mm()
    }
}

/// A per-core power model for the energy estimate (`Metrics::energy_j`, the governor
/// scoreboard's energy cost). Power in milliwatts per core.
///
/// Sources: the package TDP is the vendor's datasheet / ARK figure (cited per profile in
/// `power_model`); spreading it evenly over the cores, uncore included, as the active power
/// of one busy core is an ASSUMPTION (TDP is a thermal design figure, not a measurement;
/// a core running a pipe ping-pong draws less). Idle-state power, as a fraction of active
/// power by how deep the state is (its exit latency): ASSUMPTIONS, in the range published
/// powertop / idlestat per-state figures show for clock-gated C1 (~30%), voltage-reduced
/// C1E/C3 (~15%) and power-gated C6 (~2%: the core's voltage is cut, Intel's C6
/// description); POLL spins (`poll_idle`, PAUSE loop) at ~90% of active (assumption).
/// A wakeup's own cost is its exit latency and handler time, which the engine already
/// counts as busy time at active power, so there is no separate per-wakeup term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PowerModel {
    /// One busy core, mW.
    pub active_mw: u64,
    /// The source of `active_mw`.
    pub source: &'static str,
}

impl PowerModel {
    /// mW of a core in the idle state with this exit latency (0: POLL).
    pub fn idle_mw(&self, state: Option<&CState>) -> u64 {
        let permille = match state {
            None => 900,
            Some(s) if s.exit_latency <= 3 * US => 300,
            Some(s) if s.exit_latency <= 30 * US => 150,
            Some(_) => 20,
        };
        self.active_mw * permille / 1000
    }
}

/// The power model of a profile: TDP / cores as one busy core (module doc of `PowerModel`).
pub fn power_model(p: &Profile) -> PowerModel {
    let (tdp_w, per_package_cores, source) = match p.name {
        "core2duo" => (65, 2, "Intel Core 2 Duo E6600 datasheet: TDP 65 W, 2 cores"),
        "q6600" => (95, 4, "Intel Core 2 Quad Q6600 (G0) ARK: TDP 95 W, 4 cores"),
        "x5675" => (95, 6, "Intel Xeon X5675 ARK: TDP 95 W per socket, 6 cores"),
        "skylake-sp" => (150, 20, "Intel Xeon Gold 6148 ARK: TDP 150 W, 20 cores"),
        "sapphire-rapids" => (350, 56, "Intel Xeon Platinum 8480+ ARK: TDP 350 W, 56 cores"),
        "cascadelake-2s" => (150, 20, "Intel Xeon Gold 6248 ARK: TDP 150 W per socket, 20 cores"),
        "xeon-6338" => (205, 32, "Intel Xeon Gold 6338 ARK: TDP 205 W per socket, 32 cores"),
        "zen3-2s" => (280, 64, "AMD EPYC 7763 product page: default TDP 280 W per socket, 64 cores"),
        "i5-10600k" => (125, 6, "Intel Core i5-10600K ARK: TDP 125 W, 6 cores"),
        "rpi5" => (12, 4, "ASSUMPTION: no TDP published for the BCM2712; ~12 W for the SoC under load, 4 cores"),
        _ => (100, 8, "ASSUMPTION: no datasheet figure for this profile, 100 W over 8 cores"),
    };
    PowerModel { active_mw: tdp_w * 1000 / per_package_cores, source }
}

/// Looks a profile up by its config name.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// Names of all profiles, for error messages and pickers.
pub fn profile_names() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_ordered_shallow_to_deep() {
        for p in PROFILES {
            for w in p.cstates.windows(2) {
                assert!(w[0].exit_latency <= w[1].exit_latency, "{}: {} then {}", p.name, w[0].name, w[1].name);
                assert!(w[0].target_residency <= w[1].target_residency, "{}", p.name);
            }
            assert!(p.topo.cores_per_llc >= 1 && p.topo.cpus() >= 1 && p.refill_bytes_per_us > 0);
        }
    }

    #[test]
    fn bios_off_names_a_state_of_the_table() {
        for p in PROFILES {
            if let BiosOff::Demote { to } = p.idle_driver.bios_off {
                assert!(p.cstates.iter().any(|s| s.name == to), "{}: {to}", p.name);
            }
            assert!(!p.cstates.is_empty(), "{}: default_idle needs a first state", p.name);
        }
    }

    #[test]
    fn comet_lake_matches_the_posted_table() {
        // Doug Smythies' i5-10600K (validation-corpus.md section 3): exit latency / target residency.
        let p = profile("i5-10600k").unwrap();
        let got: Vec<_> = p.cstates.iter().map(|s| (s.name, s.exit_latency / US, s.target_residency / US)).collect();
        assert_eq!(got, vec![("C1_ACPI", 1, 1), ("C2_ACPI", 120, 360), ("C3_ACPI", 1034, 3102)]);
        assert!(p.cstates.iter().all(|s| s.entry == IdleEntry::Mwait));
        assert_eq!(p.idle_driver.kind, IdleDriverKind::IntelIdle);
        assert_eq!((p.topo.cores(), p.topo.cpus(), p.llc_bytes), (6, 12, 12 << 20));
    }

    #[test]
    fn core_part_of_the_exit_latency_is_sourced_or_the_whole() {
        for p in PROFILES {
            for s in p.cstates {
                assert!(s.core_exit <= s.exit_latency, "{}: {}", p.name, s.name);
                // Only Comet Lake's package states (skl_cstates' C6) and Zen 3's C2 (gVisor's
                // measured EPYC exit) have a sourced core part.
                let split = (p.name == "i5-10600k" && s.name != "C1_ACPI") || (p.name == "zen3-2s" && s.name == "C2");
                assert_eq!(s.core_exit < s.exit_latency, split, "{}: {}", p.name, s.name);
            }
        }
        // Comet Lake's core part is intel_idle `skl_cstates`' declared C6 exit latency, 85 us
        // (drivers/idle/intel_idle.c, a worst case). No measured typical CC6 exit of a
        // Skylake-family client core was found (the sources searched are listed at CML_ACPI).
        let p = profile("i5-10600k").unwrap();
        assert!(p.cstates[1..].iter().all(|s| s.core_exit == 85 * US));
        let z = profile("zen3-2s").unwrap();
        assert_eq!((z.cstates[1].exit_latency, z.cstates[1].core_exit), (400 * US, 15 * US));
    }

    #[test]
    fn rpi5_idles_in_wfi_without_a_cpuidle_driver() {
        let p = profile("rpi5").unwrap();
        assert_eq!((p.topo.cpus(), p.topo.cores_per_llc, p.llc_bytes), (4, 4, 2 << 20));
        assert_eq!(p.cstates.len(), 1);
        assert_eq!((p.cstates[0].name, p.cstates[0].exit_latency, p.cstates[0].entry), ("WFI", US, IdleEntry::Wfi));
        assert_eq!(p.idle_driver.kind, IdleDriverKind::NoDriver);
    }

    /// Issue 31: every profile's topology as `lscpu` shows the real machine.
    #[test]
    fn each_profile_has_its_machine_s_topology() {
        // (sockets, LLCs per socket, cores per LLC, threads per core).
        let want = [
            ("core2duo", (1, 1, 2, 1)),
            ("q6600", (1, 2, 2, 1)),
            ("x5675", (2, 1, 6, 2)),
            ("skylake-sp", (1, 1, 20, 2)),
            ("sapphire-rapids", (1, 1, 56, 2)),
            ("cascadelake-2s", (2, 1, 20, 2)),
            ("xeon-6338", (2, 1, 32, 2)),
            ("zen3-2s", (2, 8, 8, 2)),
            ("i5-10600k", (1, 1, 6, 2)),
            ("rpi5", (1, 1, 4, 1)),
        ];
        assert_eq!(want.len(), PROFILES.len(), "every profile is listed");
        for (name, (s, l, c, t)) in want {
            let p = profile(name).unwrap().topo;
            assert_eq!((p.packages, p.llcs_per_package, p.cores_per_llc, p.threads_per_core), (s, l, c, t), "{name}");
            assert_eq!(p.smt_yield_permille > 1000, t == 2, "{name}: a yield only with SMT");
        }
        assert_eq!(profile("cascadelake-2s").unwrap().topo.cpus(), 80);
        assert_eq!(profile("zen3-2s").unwrap().topo.cpus(), 256);
    }

    /// The kernel's numbering on x86 (module doc): first threads 0..C-1 socket by socket,
    /// then their siblings; 2 x Xeon Gold 6248 is node0 0-19,40-59 and node1 20-39,60-79.
    #[test]
    fn cpus_are_numbered_as_linux_numbers_them() {
        let clx = profile("cascadelake-2s").unwrap().topo;
        assert_eq!(clx.sibling(0), Some(40));
        assert_eq!(clx.sibling(59), Some(19));
        assert_eq!(clx.distance(0, 40), Distance::Sibling);
        assert_eq!(clx.distance(0, 19), Distance::Llc);
        assert_eq!(clx.distance(0, 59), Distance::Llc);
        assert_eq!(clx.distance(19, 20), Distance::Remote);
        assert_eq!(clx.distance(40, 60), Distance::Remote);
        let zen = profile("zen3-2s").unwrap().topo;
        assert_eq!((zen.place(7).llc, zen.place(8).llc, zen.place(135).llc), (0, 1, 0));
        assert_eq!(zen.distance(0, 8), Distance::Package);
        assert_eq!(zen.distance(0, 64), Distance::Remote);
        assert_eq!(zen.distance(0, 128), Distance::Sibling);
        assert_eq!(zen.place(255), Place { core: 127, thread: 1, llc: 15, package: 1 });
        // A config larger than the machine repeats it; one without SMT has no siblings.
        assert_eq!(profile("rpi5").unwrap().topo.place(5), Place { core: 5, thread: 0, llc: 1, package: 1 });
        assert_eq!(profile("rpi5").unwrap().topo.sibling(1), None);
        // A config of at most the physical cores is the pre-SMT model: 20 cores an LLC.
        assert!((0..40).all(|c| clx.place(c).thread == 0 && clx.place(c).llc == c / 20));
    }

    /// The sourced system calls (cost27): Sigoure's gettid loop scaled by clock (Intel 5150
    /// 105 ns at 2.67 GHz, L5630 58 ns at 2.13 GHz) and LKP's pipe1 entry/exit on a Cascade
    /// Lake (21.47% of 956.4 ns, two calls, a lone thread at the SMT rule).
    #[test]
    fn system_calls_are_the_measured_ones() {
        let of = |name: &str| profile(name).unwrap().syscall;
        let clock = |ns: f64, from_ghz: f64, to_ghz: f64| (ns * from_ghz / to_ghz).round() as Ns;
        assert_eq!(of("core2duo"), clock(105.0, 2.67, 2.4));
        assert_eq!(of("q6600"), of("core2duo"));
        assert_eq!(of("x5675"), clock(58.0, 2.13, 3.07));
        let clx = profile("cascadelake-2s").unwrap();
        let busy = 1e9 / 1_045_643.0 * 0.2147 / 2.0;
        assert_eq!(clx.syscall, (busy * clx.topo.smt_yield_permille as f64 / 2000.0).round() as Ns);
    }

    #[test]
    fn westmere_matches_intel_idle() {
        let p = profile("x5675").unwrap();
        let c6 = p.cstates.iter().find(|s| s.name == "C6").unwrap();
        assert_eq!((c6.exit_latency, c6.target_residency), (200 * US, 800 * US));
    }

    /// Westmere-EP's line transfers are the X5650 table's medians (nviennot/core-to-core-latency,
    /// round trip / 2): hyper-threads 7.1 ns, a socket 37.2 ns, across sockets 73.7 ns, by
    /// the x5675's numbering (CPU 6 on the other socket, CPU 12 CPU 0's sibling). Until
    /// 2026-12-05 they were Broadwell-EP's, borrowed (44 and 118 ns).
    #[test]
    fn westmere_transfers_are_the_x5650_s_measured_ones() {
        let p = profile("x5675").unwrap();
        let at = |a: u32, b: u32| p.c2c.at(p.topo.distance(a, b));
        assert_eq!((at(0, 12), at(0, 1), at(0, 6)), (7, 37, 74));
    }
}
