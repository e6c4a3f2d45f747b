//! Hardware profiles: real CPUs' C-state tables and the costs the engine charges on them.
//!
//! Each constant names its source. Where no public figure exists for a cost on a given
//! machine, the value is an estimate scaled from the nearest sourced one and says so.
//! Simplifications: SMT siblings are not modelled (a profile's cores are physical cores);
//! one last-level cache is shared by `llc_cores` neighbouring cores; CPU speed is a single
//! factor that scales workload CPU work (not costs, which are given per machine).

use super::time::{Ns, US};

/// One idle state as cpuidle describes it (`struct cpuidle_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CState {
    pub name: &'static str,
    /// Worst-case time from the wakeup signal until the core executes again.
    pub exit_latency: Ns,
    /// Shortest idle for which entering the state saves energy; governors use it.
    pub target_residency: Ns,
    /// Whether the state flushes the core's private caches (C6 class): the next task refills.
    pub flushes_cache: bool,
}

/// A machine the engine can simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Name used in configs and URLs (`x5675`).
    pub name: &'static str,
    /// What a person calls it.
    pub title: &'static str,
    /// Cores the machine has (the default for `cores`).
    pub cores: u32,
    /// Cores sharing one last-level cache.
    pub llc_cores: u32,
    /// Size of that cache in bytes.
    pub llc_bytes: u64,
    /// Bytes per microsecond a task refills into cache after losing it (memory bandwidth
    /// seen by one core under cache misses).
    pub refill_bytes_per_us: u64,
    /// Idle states beyond POLL, shallowest first.
    pub cstates: &'static [CState],
    /// Direct cost of a context switch (`__schedule` + `switch_to`), without cache effects.
    pub ctx_switch: Ns,
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

const fn st(name: &'static str, exit_us: u64, residency_us: u64, flushes_cache: bool) -> CState {
    CState { name, exit_latency: exit_us * US, target_residency: residency_us * US, flushes_cache }
}

// Core 2 exposed C-states through ACPI _CST. Latencies are the values commonly reported by
// Core 2 desktop BIOSes (C1 1 us, C2 20 us, C3 85 us class); target residency follows the
// acpi_idle rule in kernel-mechanisms.md: equal to the latency for C1-type states and 3x
// the latency for deeper ones.
const CORE2_ACPI: &[CState] = &[st("C1", 1, 1, false), st("C2", 20, 60, false), st("C3", 85, 255, true)];
// drivers/idle/intel_idle.c, nehalem_cstates (also used for Westmere).
const NEHALEM: &[CState] =
    &[st("C1", 3, 6, false), st("C1E", 10, 20, false), st("C3", 20, 80, true), st("C6", 200, 800, true)];
// drivers/idle/intel_idle.c, skx_cstates.
const SKX: &[CState] = &[st("C1", 2, 2, false), st("C1E", 10, 20, false), st("C6", 133, 600, true)];
// drivers/idle/intel_idle.c, spr_cstates.
const SPR: &[CState] = &[st("C1", 1, 1, false), st("C1E", 2, 4, false), st("C6", 290, 800, true)];

/// Every profile, in the order the UI lists them.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "core2duo",
        title: "Core 2 Duo E6600 (2007 desktop, 2 cores)",
        cores: 2,
        llc_cores: 2,
        llc_bytes: 4 << 20, // 4 MB shared L2 (Intel E6600 datasheet)
        // Hexus Core 2 Duo launch review (ScienceMark 2.0): streaming bandwidth "sub-6GiB/s"
        // through the 8.5 GB/s FSB (https://www.hexus.net/tech/reviews/cpu/6184-intel-conroe-
        // core-2-duoextreme-processors/?page=4). Estimate: a refill is demand misses, about a
        // third of streaming: ~2 GB/s.
        refill_bytes_per_us: 2_000,
        cstates: CORE2_ACPI,
        // Li, Ding, Shen, "Quantifying the Cost of Context Switch", ExpCS 2007
        // (http://www.cs.rochester.edu/u/cli/research/switch.htm): direct cost 3.8 us as quoted
        // by kernel-mechanisms.md; the paper's testbed CPU and the figure were not read in the
        // stored copy (r3-calibration.md), so this is a located, unverified figure.
        ctx_switch: 3_800,
        syscall: 250, // estimate: ~600 cycles entry/exit at 2.4 GHz (no Core 2 figure found)
        ttwu: 600,    // estimate: enqueue + preemption check, ~1500 cycles at 2.4 GHz
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
        cores: 4,
        llc_cores: 2,
        llc_bytes: 4 << 20, // 2 x 4 MB L2, each shared by a pair of cores (Intel Q6600 datasheet)
        refill_bytes_per_us: 2_000, // as core2duo: same memory system class
        cstates: CORE2_ACPI,
        // Same core and clock as core2duo: every cost as there (same sources and estimates).
        ctx_switch: 3_800,
        syscall: 250,
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
        title: "2 x Xeon X5675 (Westmere-EP 2011, 12 cores)",
        cores: 12,
        llc_cores: 6,
        llc_bytes: 12 << 20, // 12 MB L3 per socket (Intel X5675 datasheet)
        // estimate: 3 DDR3-1333 channels (Intel X5675 datasheet) against core2duo's 2 GB/s
        // from an FSB: an integrated controller, about 3x one core's miss-bound share.
        refill_bytes_per_us: 6_000,
        cstates: NEHALEM,
        // estimate (skeleton aa8247a, before any validation run): a same-CPU pipe round trip of
        // ~4-5 us on this class = 2 switches + 4 syscalls; no measured Westmere figure found.
        // Clock-scaling core2duo's 3.8 us would give ~3.0 us: see r3-calibration.md.
        ctx_switch: 1_200,
        syscall: 150, // estimate: core2duo's 250 ns scaled by clock (2.4/3.07) and rounded down
        ttwu: 300,    // estimate: core2duo's 600 ns scaled by clock and IPC (speed_permille)
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
        title: "Xeon Gold 6148 (Skylake-SP 2017, 20 cores)",
        cores: 20,
        llc_cores: 20,
        llc_bytes: 27_500 << 10,     // 27.5 MB L3 (Intel 6148 datasheet)
        refill_bytes_per_us: 10_000, // estimate: 6 DDR4-2666 channels (Intel 6148 datasheet), x5675 scaled
        cstates: SKX,
        ctx_switch: 900,       // estimate: x5675's 1.2 us scaled by speed_permille (1.5/2.0)
        syscall: 120,          // estimate (before mitigations): x5675's 150 ns scaled, rounded
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
        title: "Xeon Platinum 8480+ (Sapphire Rapids 2023, 56 cores)",
        cores: 56,
        llc_cores: 56,
        llc_bytes: 105 << 20,        // 105 MB L3 (Intel 8480+ datasheet)
        refill_bytes_per_us: 12_000, // estimate: 8 DDR5-4800 channels (Intel 8480+ datasheet), skylake-sp scaled
        cstates: SPR,
        ctx_switch: 800,       // estimate: skylake-sp's 900 ns scaled by speed_permille
        syscall: 100,          // estimate: skylake-sp's 120 ns scaled (no mitigations modelled)
        ttwu: 200,             // estimate: skylake-sp's 250 ns scaled
        reprogram: 200,        // estimate: TSC-deadline timer, skylake-sp's 300 ns scaled
        ipi_send: 120,         // estimate: skylake-sp's 150 ns scaled
        ipi_latency: 250,      // estimate: skylake-sp's 300 ns scaled
        ipi_receive: 250,      // estimate: skylake-sp's 300 ns scaled
        tick_handler: 400,     // estimate: skylake-sp's 500 ns scaled
        speed_permille: 2_400, // estimate: 2.0 GHz base / 3.8 GHz turbo (Intel 8480+ datasheet), Golden Cove IPC
    },
];

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
            assert!(p.llc_cores >= 1 && p.cores >= 1 && p.refill_bytes_per_us > 0);
        }
    }

    #[test]
    fn westmere_matches_intel_idle() {
        let p = profile("x5675").unwrap();
        let c6 = p.cstates.iter().find(|s| s.name == "C6").unwrap();
        assert_eq!((c6.exit_latency, c6.target_residency), (200 * US, 800 * US));
    }
}
