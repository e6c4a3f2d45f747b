//! Follows one long hackbench run of the corpus chunk by chunk: time per loop, the
//! `validate` settling measure, preemptions (and their spread over the CPUs) and the pipes'
//! fill, to tell a run that drifts from one that is noisy (issue 27's "show it converged").
//!
//! `cargo run -p schedscope-engine --profile fast --example steady_probe -- CPU GROUPS LOOPS
//! SEED [scaled]` with CPU `zen3` or `clx` (the corpus presets `hackbench_zen3`,
//! `hackbench_clx`), `scaled` for the wakeup-granularity patch. One line per 2.5 M events.
use schedscope_engine as e;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("usage: steady_probe zen3|clx GROUPS LOOPS SEED [scaled]");
        std::process::exit(2);
    }
    let mut c = if a[1] == "clx" { e::corpus::hackbench_clx() } else { e::corpus::hackbench_zen3() };
    let num = |i: usize| a[i].parse::<u64>().unwrap_or_else(|_| panic!("argument {i} is not a number: {}", a[i]));
    c.groups = num(2) as u32;
    c.loops = num(3);
    c.seed = num(4);
    if a.get(5).is_some_and(|s| s == "scaled") {
        c.set("wakeup_gran_scale", "on").expect("a known key");
    }
    c.max_events = e::config::MAX_EVENTS;
    let ncpu = c.cores as usize;
    let mut sim = e::sim::Sim::new(&c, None);
    let mut samples = Vec::new();
    let (mut last_done, mut last_now) = (0u64, 0u64);
    let mut last_pre = vec![0u64; ncpu];
    let mut last_acc = (0u64, 0u64, 0u64);
    println!("loops  sim_s  us_per_loop(chunk)  window_change  switches  preemptions  wakeups  migrations  preemptions_per_cpu_in_chunk[min,p25,p50,p75,max]  empty_pipes  run/idle/overhead_in_chunk");
    while !sim.advance(2_500_000) {
        let Some((done, total)) = e::workload::Workload::progress(sim.workload()) else { continue };
        let now = sim.progress().now;
        samples.push((done, now));
        let per_loop = |w: u64| c.loops as f64 * w as f64 / total as f64;
        let dl = per_loop(done - last_done);
        let rate = if dl > 0.0 { (now - last_now) as f64 / dl / 1e3 } else { 0.0 };
        let wc = e::validate::window_change(&samples).map_or(f64::NAN, |x| x.0);
        let s = sim.counts_so_far();
        let mut d: Vec<u64> = (0..ncpu).map(|k| s.preemptions_by_cpu[k] - last_pre[k]).collect();
        last_pre = s.preemptions_by_cpu.clone();
        d.sort_unstable();
        let q = |f: usize| d[(ncpu - 1) * f / 4];
        let empty = match sim.workload() {
            e::workload::AnyWorkload::Hackbench(h) => {
                (0..c.groups as usize * e::config::values::HACKBENCH_FDS).filter(|&k| h.queued(k).0 == 0).count()
            }
            _ => 0,
        };
        let acc = sim.core_accounts().iter().fold((0, 0, 0), |a, x| (a.0 + x.0, a.1 + x.1, a.2 + x.2));
        let (r, i, o) = (acc.0 - last_acc.0, acc.1 - last_acc.1, acc.2 - last_acc.2);
        last_acc = acc;
        let all = (r + i + o).max(1) as f64;
        println!(
            "{:.1} {:.4} {rate:.1} {wc:.4} {} {} {} {} [{},{},{},{},{}] {empty} {:.2}/{:.2}/{:.2}",
            per_loop(done),
            now as f64 / 1e9,
            s.context_switches,
            s.preemptions,
            s.wakeups,
            s.migrations,
            q(0),
            q(1),
            q(2),
            q(3),
            q(4),
            r as f64 / all,
            i as f64 / all,
            o as f64 / all
        );
        (last_done, last_now) = (done, now);
    }
    let m = sim.into_outcome().metrics;
    println!("end: elapsed_s {} switches {} migrations {}", m.elapsed_s, m.context_switches, m.migrations);
}
