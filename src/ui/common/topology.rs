//! The machine's topology in words and lane groups, read from the engine's `Topology`
//! (`describe`, `place`, `sibling`): the one source of where a CPU sits; nothing here keeps
//! a second table of machines.

use crate::engine::profile::Topology;

/// Which of the machine's CPUs a run of `n` CPUs simulates, and what they make up:
/// "CPUs 0-7 of 80: 8 cores x 1 thread, 1 LLC, 1 socket". Counted from `Topology::place`
/// (a run of N CPUs runs CPUs 0..N-1 as Linux numbers them); a run larger than the machine
/// repeats it as further sockets, and says so.
pub fn simulated(t: &Topology, n: u32) -> String {
    let n = n.max(1);
    let (mut cores, mut llcs, mut packages) = (Vec::new(), Vec::new(), Vec::new());
    let mut paired = 0u32;
    for cpu in 0..n {
        let p = t.place(cpu);
        if cores.contains(&p.core) {
            paired += 1;
        } else {
            cores.push(p.core);
        }
        if !llcs.contains(&p.llc) {
            llcs.push(p.llc);
        }
        if !packages.contains(&p.package) {
            packages.push(p.package);
        }
    }
    let c = cores.len();
    let threads = if paired == 0 {
        format!("{c} core{} x 1 thread", plural(c))
    } else if paired as usize == c {
        format!("{c} cores x 2 threads")
    } else {
        format!("{c} cores, {paired} of them with both threads")
    };
    let (l, p) = (llcs.len(), packages.len());
    let range = if n == 1 { "CPU 0".to_string() } else { format!("CPUs 0-{}", n - 1) };
    let mut s = format!("{range} of {}: {threads}, {l} LLC{}, {p} socket{}", t.cpus(), plural(l), plural(p));
    if n > t.cpus() {
        s.push_str(&format!(" (past the machine's {} CPUs the machine repeats)", t.cpus()));
    }
    s
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Lane groups of a run of `n` CPUs: each CPU's group (socket, LLC, and whether it is its
/// core's second thread: Linux numbers those after every first thread, so they form groups of
/// their own) and the sibling it pairs with, when that sibling is simulated too. Empty when
/// the run has one LLC and no siblings (a small machine draws as it always did).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneTopology {
    /// Per CPU: (package, llc, thread) (`Place`).
    pub group: Vec<(u32, u32, u32)>,
    /// Per CPU: the simulated sibling on its core (SMT), if any.
    pub sibling: Vec<Option<u32>>,
}

impl LaneTopology {
    /// The groups of `n` CPUs of `t`, or the empty value when there is nothing to show.
    pub fn of(t: &Topology, n: u32) -> LaneTopology {
        let group: Vec<(u32, u32, u32)> = (0..n)
            .map(|c| {
                let p = t.place(c);
                (p.package, p.llc, p.thread)
            })
            .collect();
        if !group.first().is_some_and(|g0| group.iter().any(|g| g != g0)) {
            return LaneTopology::default();
        }
        let sibling = (0..n).map(|c| t.sibling(c).filter(|&s| s < n)).collect();
        LaneTopology { group, sibling }
    }

    pub fn is_empty(&self) -> bool {
        self.group.is_empty()
    }

    /// The label of CPU `cpu`'s group ("socket 1 · LLC 3"; LLC ids count over the machine),
    /// with "· 2nd threads" for the second threads of their cores.
    pub fn group_label(&self, cpu: usize) -> Option<String> {
        self.group.get(cpu).map(|(p, l, t)| {
            let thread = if *t > 0 { " \u{b7} 2nd threads" } else { "" };
            format!("socket {p} \u{b7} LLC {l}{thread}")
        })
    }

    /// The same, short, for a narrow plot (a phone): "s1/LLC3", "s0/LLC0/2nd".
    pub fn group_short(&self, cpu: usize) -> Option<String> {
        self.group.get(cpu).map(|(p, l, t)| format!("s{p}/LLC{l}{}", if *t > 0 { "/2nd" } else { "" }))
    }

    /// A CPU's full name: "CPU 41 (sibling of 1)" for a second thread whose first is simulated,
    /// "CPU 1 (sibling of 41)" for its twin.
    pub fn cpu_label(&self, cpu: usize) -> String {
        match self.sibling.get(cpu).copied().flatten() {
            Some(s) => format!("CPU {cpu} (sibling of {s})"),
            None => format!("CPU {cpu}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::profile::profile;

    fn topo(name: &str) -> Topology {
        profile(name).expect(name).topo
    }

    #[test]
    fn a_run_below_the_machine_names_the_cpus_it_simulates() {
        // Cascade Lake 2 x 20 x 2: CPUs 0-19 socket 0's first threads, 20-39 socket 1's,
        // 40-79 their siblings (the profile's module doc, `lscpu -e` of a Xeon Gold 6248).
        let t = topo("cascadelake-2s");
        assert_eq!(simulated(&t, 8), "CPUs 0-7 of 80: 8 cores x 1 thread, 1 LLC, 1 socket");
        assert_eq!(simulated(&t, 40), "CPUs 0-39 of 80: 40 cores x 1 thread, 2 LLCs, 2 sockets");
        assert_eq!(simulated(&t, 80), "CPUs 0-79 of 80: 40 cores x 2 threads, 2 LLCs, 2 sockets");
        assert_eq!(simulated(&t, 50), "CPUs 0-49 of 80: 40 cores, 10 of them with both threads, 2 LLCs, 2 sockets");
        assert!(
            simulated(&t, 160).ends_with("(past the machine's 80 CPUs the machine repeats)"),
            "{}",
            simulated(&t, 160)
        );
    }

    #[test]
    fn lanes_group_only_when_the_run_spans_llcs_or_has_siblings() {
        let t = topo("cascadelake-2s");
        assert!(LaneTopology::of(&t, 8).is_empty(), "one LLC, no siblings: drawn as before");
        let g = LaneTopology::of(&t, 80);
        assert_eq!(g.group_label(39).as_deref(), Some("socket 1 \u{b7} LLC 1"));
        assert_eq!(g.group_label(41).as_deref(), Some("socket 0 \u{b7} LLC 0 \u{b7} 2nd threads"));
        assert_eq!(g.group_short(41).as_deref(), Some("s0/LLC0/2nd"));
        assert_eq!(g.cpu_label(41), "CPU 41 (sibling of 1)");
        assert_eq!(g.cpu_label(1), "CPU 1 (sibling of 41)");
        assert_eq!(LaneTopology::of(&t, 42).cpu_label(3), "CPU 3", "CPU 43 is not simulated");
        let g = LaneTopology::of(&t, 30);
        assert!(!g.is_empty());
        assert!(g.sibling.iter().all(Option::is_none));
    }
}
