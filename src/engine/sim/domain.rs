//! Sched domains per era, built from the profile's topology (`profile::Topology`) over the
//! config's CPUs, as `build_sched_domains` builds them.
//!
//! LEVELS (bottom up): SMT (a core's threads), MC (an LLC: `cpu_coregroup_mask`), the package
//! (`cpu_cpu_mask`, one NUMA node per package: named DIE until 6.6 and PKG from commit
//! f577cd57bfaa "sched/topology: Rename 'DIE' domain to 'PKG'", so 6.12 says PKG; CPU before
//! 3.16) and NUMA over the packages (node distance 10/21: one NUMA level; NODE in 2.6.2x).
//! A level whose span is one CPU, or the same as its child's, is dropped (`sd_degenerate`,
//! `sd_parent_degenerate`): cascadelake-2s keeps SMT, MC and NUMA (its package is its LLC);
//! zen3-2s keeps SMT, MC (the CCX), DIE/PKG and NUMA. CLS (5.16+, `cpu_clustergroup_mask`,
//! CPUs sharing an L2) is the core itself on every profile here (L2 per core), so it
//! degenerates and is not built. Groups of a domain are its child's spans (each CPU at
//! the lowest level).
//!
//! VALUES per era:
//! - 3.16 to 5.9 (`sd_init`, kernel/sched/topology.c 4.17): `min_interval` = the span's
//!   weight, `max_interval` = twice it, `balance_interval` starts at the weight (ms),
//!   `busy_factor` 32, `imbalance_pct` 125, then SMT (SD_SHARE_CPUCAPACITY) 110, MC
//!   (SD_SHARE_PKG_RESOURCES) 117 with `cache_nice_tries` 1, NUMA `cache_nice_tries` 2 and
//!   SD_SERIALIZE, the package level `cache_nice_tries` 1.
//! - 5.10+ (same function, 5.15/6.6/6.12): `busy_factor` 16 and `imbalance_pct` 117 by
//!   default (Vincent Guittot's "sched/fair: Reduce busy load balance interval" and "Reduce
//!   minimal imbalance threshold", 5.10), the per-level overrides as above.
//! - Before 3.16 (2.6.2x, 3.11: the `SD_*_INIT` templates of include/linux/topology.h):
//!   SIBLING {1, 2 ms, busy 64, 110%}, MC {1, 4, 64, 125%, nice tries 1}, CPU {1, 4, 64,
//!   125%, 1}; NUMA: 3.11's `sd_numa_init` {weight, 2 x weight, 32, 125%, 2}, 2.6.2x's x86-64
//!   `SD_NODE_INIT` {8, 32, 32, 125%, 2}.
//!
//! Intervals are in ms (`msecs_to_jiffies` in `get_sd_balance_interval`).

use crate::engine::kernel::Kernel;
use crate::engine::profile::Topology;

/// `SD_*` flags (include/linux/sched/sd_flags.h), the ones the engine reads or shows.
pub(super) mod sd {
    pub const BALANCE_NEWIDLE: u32 = 1 << 0;
    pub const BALANCE_EXEC: u32 = 1 << 1;
    pub const BALANCE_FORK: u32 = 1 << 2;
    pub const WAKE_AFFINE: u32 = 1 << 4;
    pub const SHARE_CPUCAPACITY: u32 = 1 << 6;
    pub const SHARE_PKG_RESOURCES: u32 = 1 << 8;
    pub const SERIALIZE: u32 = 1 << 9;
    pub const PREFER_SIBLING: u32 = 1 << 11;
    pub const NUMA: u32 = 1 << 13;
}

/// A topology level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Level {
    Smt,
    Mc,
    Pkg,
    Numa,
}

/// One sched domain: a level's span around a CPU (shared by every CPU of that span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Domain {
    pub level: Level,
    pub name: &'static str,
    /// Its CPUs, in CPU-number order.
    pub span: Vec<u16>,
    /// Its groups: the child's spans (single CPUs at the lowest level), in order of first CPU.
    pub groups: Vec<Vec<u16>>,
    /// Per group: the domain whose span it is (None: a single CPU).
    pub group_dom: Vec<Option<usize>>,
    pub flags: u32,
    /// ms.
    pub min_interval: u64,
    pub max_interval: u64,
    pub busy_factor: u64,
    pub imbalance_pct: u64,
    pub cache_nice_tries: u32,
}

/// The domains of a run: `of[cpu]` lists indices into `all`, lowest level first.
#[derive(Clone, Debug, Default)]
pub(super) struct Domains {
    pub all: Vec<Domain>,
    pub of: Vec<Vec<usize>>,
    /// Parallel to `of[cpu]`: the index of the CPU's own group in each of its domains, so
    /// the balancer need not search a group's CPUs for it (O(span) at the top level).
    pub group_of: Vec<Vec<usize>>,
}

/// (min_interval, max_interval, busy_factor, imbalance_pct, cache_nice_tries, extra flags)
/// of `level` for a span of `weight` CPUs in `k`'s era (module doc).
fn values(k: Kernel, level: Level, weight: u64) -> (u64, u64, u64, u64, u32, u32) {
    use sd::*;
    let base = BALANCE_NEWIDLE | BALANCE_EXEC | BALANCE_FORK | WAKE_AFFINE;
    if k < Kernel::V417 {
        // The SD_*_INIT templates (2.6.2x and 3.11; there is no engine era from 3.12 to 4.16).
        return match level {
            Level::Smt => (1, 2, 64, 110, 0, base | SHARE_CPUCAPACITY | SHARE_PKG_RESOURCES),
            Level::Mc => (1, 4, 64, 125, 1, base | SHARE_PKG_RESOURCES),
            Level::Pkg => (1, 4, 64, 125, 1, base),
            Level::Numa if k >= Kernel::V311 => (weight, 2 * weight, 32, 125, 2, base | SERIALIZE | NUMA),
            Level::Numa => (8, 32, 32, 125, 2, base | SERIALIZE | NUMA),
        };
    }
    let (busy, pct) = if k >= Kernel::V515 { (16, 117) } else { (32, 125) };
    // 4.17 sets SD_PREFER_SIBLING per level (all but NUMA); 5.10+ sets it by default and
    // clears it for NUMA: the same result.
    let (pct, tries, flags) = match level {
        Level::Smt => (110, 0, base | SHARE_CPUCAPACITY | SHARE_PKG_RESOURCES | PREFER_SIBLING),
        Level::Mc => (117, 1, base | SHARE_PKG_RESOURCES | PREFER_SIBLING),
        Level::Pkg => (pct, 1, base | PREFER_SIBLING),
        // node_reclaim_distance (30) > 21: exec, fork and wake-affine stay on.
        Level::Numa => (pct, 2, base | SERIALIZE | NUMA),
    };
    (weight, 2 * weight, busy, pct, tries, flags)
}

fn name(k: Kernel, level: Level) -> &'static str {
    match (level, k < Kernel::V417) {
        (Level::Smt, true) => "SIBLING",
        (Level::Smt, false) => "SMT",
        (Level::Mc, _) => "MC",
        (Level::Pkg, true) => "CPU",
        (Level::Pkg, false) if k >= Kernel::V612 => "PKG",
        (Level::Pkg, false) => "DIE",
        (Level::Numa, _) if k >= Kernel::V311 => "NUMA",
        (Level::Numa, _) => "NODE",
    }
}

impl Domains {
    /// The domains of CPUs 0..`ncpus` of `topo` in `k`'s era.
    pub fn build(topo: &Topology, ncpus: usize, k: Kernel) -> Domains {
        let places: Vec<_> = (0..ncpus as u32).map(|c| topo.place(c)).collect();
        // A CPU's key at each level: CPUs with equal keys share that level's span.
        let key = |c: usize, level: Level| -> u32 {
            match level {
                Level::Smt => places[c].core,
                Level::Mc => places[c].llc,
                Level::Pkg => places[c].package,
                Level::Numa => 0,
            }
        };
        let levels = [Level::Smt, Level::Mc, Level::Pkg, Level::Numa];
        let mut out = Domains { all: Vec::new(), of: vec![Vec::new(); ncpus], group_of: vec![Vec::new(); ncpus] };
        // Per level: the span of each key (CPU-number order).
        let spans: Vec<Vec<Vec<u16>>> = levels
            .iter()
            .map(|&l| {
                let mut keys: Vec<u32> = (0..ncpus).map(|c| key(c, l)).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.iter().map(|&kv| (0..ncpus).filter(|&c| key(c, l) == kv).map(|c| c as u16).collect()).collect()
            })
            .collect();
        let span_of = |li: usize, c: usize| -> &Vec<u16> {
            let kv = key(c, levels[li]);
            spans[li].iter().find(|s| key(s[0] as usize, levels[li]) == kv).expect("every CPU has a span")
        };
        // Dedupe domains by (level, first CPU of the span).
        let mut index: std::collections::BTreeMap<(usize, u16), usize> = Default::default();
        for c in 0..ncpus {
            let mut child: Option<(usize, &Vec<u16>)> = None;
            for (li, &level) in levels.iter().enumerate() {
                let span = span_of(li, c);
                // sd_degenerate / sd_parent_degenerate.
                if span.len() < 2 || child.is_some_and(|(_, s)| s == span) {
                    continue;
                }
                let id = *index.entry((li, span[0])).or_insert_with(|| {
                    let groups: Vec<Vec<u16>> = match child {
                        None => span.iter().map(|&x| vec![x]).collect(),
                        Some((cl, _)) => {
                            let mut g: Vec<Vec<u16>> = span.iter().map(|&x| span_of(cl, x as usize).clone()).collect();
                            g.sort_unstable();
                            g.dedup();
                            g
                        }
                    };
                    let (min, max, busy, pct, tries, flags) = values(k, level, span.len() as u64);
                    out.all.push(Domain {
                        level,
                        name: name(k, level),
                        span: span.clone(),
                        group_dom: Vec::new(),
                        groups,
                        flags,
                        min_interval: min,
                        max_interval: max,
                        busy_factor: busy,
                        imbalance_pct: pct,
                        cache_nice_tries: tries,
                    });
                    out.all.len() - 1
                });
                out.of[c].push(id);
                child = Some((li, span));
            }
        }
        for d in 0..out.all.len() {
            let ids = out.all[d]
                .groups
                .iter()
                .map(|g| out.of[g[0] as usize].iter().copied().find(|&x| out.all[x].span == *g))
                .collect();
            out.all[d].group_dom = ids;
        }
        for c in 0..ncpus {
            out.group_of[c] = out.of[c]
                .iter()
                .map(|&d| {
                    let groups = &out.all[d].groups;
                    groups.iter().position(|g| g.contains(&(c as u16))).expect("a CPU is in one of its domain's groups")
                })
                .collect();
        }
        out
    }

    /// "SMT(2) MC(40) NUMA(80)": CPU `c`'s domains, lowest first, with their weights.
    #[cfg(test)]
    pub fn describe(&self, c: usize) -> String {
        let parts: Vec<String> =
            self.of[c].iter().map(|&d| format!("{}({})", self.all[d].name, self.all[d].span.len())).collect();
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::profile::profile;

    /// `group_of` names the group holding the CPU in each of its domains (the balancer
    /// leaves that group out without searching it), on every machine at its full size.
    #[test]
    fn group_of_is_the_group_holding_the_cpu() {
        for (name, n) in [("zen3-2s", 256), ("cascadelake-2s", 80), ("x5675", 24), ("q6600", 4)] {
            let topo = profile(name).unwrap().topo;
            for k in [Kernel::V311, Kernel::V417, Kernel::V612] {
                let d = Domains::build(&topo, n, k);
                for c in 0..n {
                    assert_eq!(d.group_of[c].len(), d.of[c].len());
                    for (l, &dom) in d.of[c].iter().enumerate() {
                        let holding: Vec<usize> = (0..d.all[dom].groups.len())
                            .filter(|&i| d.all[dom].groups[i].contains(&(c as u16)))
                            .collect();
                        assert_eq!(holding, vec![d.group_of[c][l]], "{name} CPU {c} level {l}");
                    }
                }
            }
        }
    }

    /// CascadeLake 2 x 20 x 2 (80 CPUs): SMT pairs {c, c+40}, MC = the socket's 40 threads
    /// (one LLC per socket, so DIE degenerates into it), NUMA = both sockets.
    #[test]
    fn cascadelake_2s_tree() {
        let topo = profile("cascadelake-2s").unwrap().topo;
        let d = Domains::build(&topo, 80, Kernel::V66);
        assert_eq!(d.describe(0), "SMT(2) MC(40) NUMA(80)");
        assert_eq!(d.describe(79), "SMT(2) MC(40) NUMA(80)");
        let smt = &d.all[d.of[0][0]];
        assert_eq!(smt.span, vec![0, 40]);
        assert_eq!((smt.min_interval, smt.max_interval, smt.busy_factor, smt.imbalance_pct), (2, 4, 16, 110));
        assert_eq!(smt.flags & sd::SHARE_CPUCAPACITY, sd::SHARE_CPUCAPACITY);
        let mc = &d.all[d.of[0][1]];
        assert_eq!(mc.span, (0..20).chain(40..60).collect::<Vec<u16>>(), "node0 CPUs 0-19,40-59");
        assert_eq!(mc.groups.len(), 20, "one group per core");
        assert_eq!((mc.min_interval, mc.max_interval, mc.imbalance_pct, mc.cache_nice_tries), (40, 80, 117, 1));
        let numa = &d.all[d.of[0][2]];
        assert_eq!(numa.groups.len(), 2);
        assert_eq!((numa.min_interval, numa.imbalance_pct, numa.cache_nice_tries), (80, 117, 2));
        assert_eq!(numa.flags & (sd::NUMA | sd::SERIALIZE | sd::PREFER_SIBLING), sd::NUMA | sd::SERIALIZE);
        // One domain object per span: 40 SMT + 2 MC + 1 NUMA.
        assert_eq!(d.all.len(), 43);
        // 40 CPUs (one thread per core): no siblings, so no SMT level.
        assert_eq!(Domains::build(&topo, 40, Kernel::V66).describe(0), "MC(20) NUMA(40)");
        // 4.17: busy_factor 32, imbalance_pct 125 at the NUMA level; 3.11's templates.
        let old = Domains::build(&topo, 80, Kernel::V417);
        assert_eq!(old.all[old.of[0][2]].busy_factor, 32);
        assert_eq!(old.all[old.of[0][2]].imbalance_pct, 125);
        let v311 = Domains::build(&topo, 80, Kernel::V311);
        assert_eq!(v311.describe(0), "SIBLING(2) MC(40) NUMA(80)");
        assert_eq!(v311.all[v311.of[0][1]].max_interval, 4);
    }

    /// Zen 3 2 x 64 x 2 in 8-core CCXs (256 CPUs): SMT, MC = a CCX's 16 threads, DIE = the
    /// socket's 128 (PKG in 6.12), NUMA = both sockets.
    #[test]
    fn zen3_2s_tree() {
        let topo = profile("zen3-2s").unwrap().topo;
        let d = Domains::build(&topo, 256, Kernel::V66);
        assert_eq!(d.describe(0), "SMT(2) MC(16) DIE(128) NUMA(256)");
        assert_eq!(d.describe(200), "SMT(2) MC(16) DIE(128) NUMA(256)");
        let mc = &d.all[d.of[0][1]];
        assert_eq!(mc.span, (0..8).chain(128..136).collect::<Vec<u16>>());
        let die = &d.all[d.of[0][2]];
        assert_eq!(die.groups.len(), 8, "eight CCXs per socket");
        assert_eq!((die.min_interval, die.max_interval, die.busy_factor, die.imbalance_pct), (128, 256, 16, 117));
        assert_eq!(Domains::build(&topo, 256, Kernel::V612).describe(0), "SMT(2) MC(16) PKG(128) NUMA(256)");
        // 2 x 8 x 8 + 16 + 2 + 1 domain objects.
        assert_eq!(d.all.len(), 128 + 16 + 2 + 1);
        // A config of 2 CPUs: two cores of one CCX.
        assert_eq!(Domains::build(&topo, 2, Kernel::V66).describe(0), "MC(2)");
    }
}
