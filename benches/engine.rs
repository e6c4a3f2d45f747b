//! Divan benchmarks of the engine: whole simulations and the event queue on its own.
//!
//! `cargo bench --bench engine` (add `-- nohz` to filter). Each simulation bench reports
//! events per second (divan's item counter); the figures and how to read them are in
//! BENCHMARKS.md. What is measured:
//! - `sim::nohz_pipe`: the `nohz-pipe` preset capped at a fixed event budget (what
//!   `schedscope bench` runs, smaller);
//! - `sim::rt_app_20_tasks_4_cores`: 20 periodic rt-app tasks on 4 cores, 10 s simulated;
//! - `queue::bare_loop`: the benchmark's bare event-queue loop (`engine::queue::bare_loop`)
//!   with the engine's event type and the engine's measured mean queue width on `nohz-pipe`;
//! - `queue::fill_drain` / `queue::fill_drain_late`: N pushes then N pops, through the heap
//!   (`push`, shuffled times) and through the ordered lane (`push_late`, rising times).

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    divan::main();
}

// Benches are native only (divan is a native dev-dependency); wasm has tests/wasm_bench.rs.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod sim {
    use divan::counter::ItemsCount;
    use divan::{black_box, Bencher};
    use schedscope::engine::{self, config::Config, presets::preset};

    /// Events per `nohz_pipe` run (the run stops on this budget long before its round trips).
    const PIPE_EVENTS: u64 = 200_000;

    fn config(base: Config, sets: &[(&str, &str)]) -> Config {
        let mut cfg = base;
        for (k, v) in sets {
            cfg.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
        }
        cfg
    }

    /// Runs `cfg` once to count its events, then benches whole runs with that counter.
    fn bench_run(bencher: Bencher, cfg: &Config) {
        let events = engine::run(cfg, None).expect("the bench config is valid").metrics.events;
        assert!(events > 1_000, "the bench config ran only {events} events");
        bencher.counter(ItemsCount::new(events)).bench(|| {
            let outcome = engine::run(black_box(cfg), None).expect("valid");
            assert_eq!(outcome.metrics.events, events, "a run is deterministic");
            black_box(outcome)
        });
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn nohz_pipe(bencher: Bencher) {
        let base = (preset("nohz-pipe").expect("the nohz-pipe preset exists").config)();
        bench_run(bencher, &config(base, &[("max_events", &PIPE_EVENTS.to_string())]));
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn rt_app_20_tasks_4_cores(bencher: Bencher) {
        let sets = [("cores", "4"), ("tasks", "10x2ms/10ms,10x1ms/20ms"), ("duration", "10s")];
        bench_run(bencher, &config(Config::default(), &sets));
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod queue {
    use divan::counter::ItemsCount;
    use divan::{black_box, Bencher};
    use schedscope::engine::presets::preset;
    use schedscope::engine::queue::{bare_loop, EventQueue};
    use schedscope::engine::sim::{probe_queue, Ev};

    const LOOP_EVENTS: u64 = 200_000;

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn bare_loop_engine_width(bencher: Bencher) {
        let mut cfg = (preset("nohz-pipe").expect("the nohz-pipe preset exists").config)();
        cfg.set("max_events", &LOOP_EVENTS.to_string()).expect("valid budget");
        let width = probe_queue(&cfg).mean_len.max(1);
        bencher
            .counter(ItemsCount::new(LOOP_EVENTS))
            .bench(|| bare_loop::<Ev>(black_box(LOOP_EVENTS), black_box(width)));
    }

    /// Pseudo-random times within 1 ms (xorshift), the same for every sample.
    fn times(n: usize) -> Vec<u64> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % 1_000_000
            })
            .collect()
    }

    #[divan::bench(args = [16, 64, 256])]
    fn fill_drain(bencher: Bencher, n: usize) {
        let ts = times(n);
        bencher.counter(ItemsCount::new(n)).bench(|| {
            let mut q = EventQueue::<Ev>::new();
            for &t in &ts {
                q.push(black_box(t), Ev::Nop);
            }
            let mut sum = 0u64;
            while let Some((t, _)) = q.pop() {
                sum = sum.wrapping_add(t);
            }
            sum
        });
    }

    #[divan::bench(args = [16, 64, 256])]
    fn fill_drain_late(bencher: Bencher, n: usize) {
        let mut ts = times(n);
        ts.sort_unstable();
        bencher.counter(ItemsCount::new(n)).bench(|| {
            let mut q = EventQueue::<Ev>::new();
            for &t in &ts {
                q.push_late(black_box(t), Ev::Nop);
            }
            let mut sum = 0u64;
            while let Some((t, _)) = q.pop() {
                sum = sum.wrapping_add(t);
            }
            sum
        });
    }
}
