//! Tests of the URL codec: hostile queries, canonical printing, and round trips of random configs.

use proptest::prelude::*;

use super::*;
use crate::engine::config::{format_tasks, KeyKind, PeriodicTask};
use crate::engine::profile::profile_names;
use crate::engine::time::{format_duration, MS, US};

/// Notice keys, sorted, for order-independent comparison.
fn keys(notices: &[Notice]) -> Vec<String> {
    let mut k: Vec<String> = notices.iter().map(|n| n.key.clone()).collect();
    k.sort();
    k
}

/// Parses `query`, checks the notice keys, and that every `(key, value)` in `kept` holds in A.
fn check(query: &str, expect_notices: &[&str], kept: &[(&str, &str)]) -> UrlState {
    let (state, notices) = parse(query);
    let mut want: Vec<String> = expect_notices.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(keys(&notices), want, "query {:?}: notices {:#?}", shorten(query), notices);
    for n in &notices {
        assert!(!n.reason.is_empty(), "empty reason in {n:?}");
        assert!(n.value.chars().count() <= NOTICE_VALUE_LEN + 1, "long value in notice {n:?}");
    }
    for (k, v) in kept {
        assert_eq!(state.config.get(k).as_deref(), Some(*v), "query {:?}: key {k}", shorten(query));
    }
    state
}

#[test]
fn hostile_queries_give_notices_and_keep_the_rest() {
    let d = Config::default();
    let cores = d.get("cores").unwrap();
    // Nothing at all: the home page, no notice.
    check("", &[], &[("cores", &cores)]);
    check("?", &[], &[("cores", &cores)]);
    check("v=1", &[], &[]);
    check("?v=1&cores=4", &[], &[("cores", "4")]);
    // Garbage and structure.
    check("garbage", &["garbage"], &[("cores", &cores)]);
    check("&&&==", &[""], &[]);
    check("=&=&=", &["", "", ""], &[]);
    check("v=1&=5&hz=1000", &[""], &[("hz", "1000")]);
    // Ranges and numbers.
    check("v=1&cores=0&hz=1000", &["cores"], &[("cores", &cores), ("hz", "1000")]);
    check("v=1&cores=99999999999999999999&hz=1000", &["cores"], &[("cores", &cores), ("hz", "1000")]);
    check("v=1&cores=-1", &["cores"], &[("cores", &cores)]);
    check("v=1&cores=257", &["cores"], &[("cores", &cores)]);
    check("v=1&cores=64", &[], &[("cores", "64")]);
    check("v=1&hz=999", &["hz"], &[("hz", "250")]);
    check("v=1&duration=1e9s&seed=7", &["duration"], &[("seed", "7")]);
    check("v=1&duration=99999999999999999999s", &["duration"], &[("duration", &d.get("duration").unwrap())]);
    check("v=1&seed=18446744073709551615", &[], &[("seed", "18446744073709551615")]);
    check("v=1&seed=18446744073709551616", &["seed"], &[("seed", "1")]);
    check("v=1&latency_limit=1h", &["latency_limit"], &[("latency_limit", "none")]);
    check("v=1&tasks=0x1ms/2ms&cores=3", &["tasks"], &[("cores", "3"), ("tasks", &d.get("tasks").unwrap())]);
    check("v=1&tasks=20000x1ms/2ms", &["tasks"], &[]);
    // Versions and presets.
    // A hand-written link without `v=` is the current version: no notice.
    check("cores=4", &[], &[("cores", "4")]);
    check("embed=1&preset=intro", &[], &[]);
    check("v=2&cores=4", &["v"], &[("cores", "4")]);
    check("v=abc&cores=4", &["v"], &[("cores", "4")]);
    let s = check("v=1&preset=nope&cores=4", &["preset"], &[("cores", "4")]);
    assert_eq!(s.preset, None);
    // Escapes and unicode.
    check("v=1&rr_interval=%zz&cores=4", &["rr_interval"], &[("cores", "4")]);
    check("v=1&rr_interval=5ms%", &["rr_interval"], &[("rr_interval", "6ms")]);
    check("v=1&%zz=1&cores=4", &["%zz"], &[("cores", "4")]);
    check("v=1&cores=%34", &[], &[("cores", "4")]);
    check("v=1&policy=eevdf+", &[], &[("policy", "eevdf")]);
    check("v=1&policy=%E2%9C%93", &["policy"], &[("policy", "cfs")]);
    check("v=1&ключ=1&cores=4", &["ключ"], &[("cores", "4")]);
    check("v=1&cpu=%FF%FE", &["cpu"], &[("cpu", "skylake-sp")]);
    check("v=1&%00=%00", &["\0"], &[]);
    check("v=1&cores=4#frag", &["cores"], &[("cores", &cores)]);
    // Duplicates: last wins, even when the last is bad.
    check("v=1&cores=4&cores=8", &["cores"], &[("cores", "8")]);
    check("v=1&cores=8&cores=abc", &["cores", "cores"], &[("cores", &cores)]);
    // Order of application does not depend on the query: cpu before cstates.
    check("v=1&cstates=C3&cpu=x5675", &[], &[("cpu", "x5675"), ("cstates", "C3")]);
    check("v=1&cstates=C3", &["cstates"], &[("cstates", "all")]);
    // UI keys.
    let s = check("v=1&view=timeline,bogus,metrics,timeline", &["view", "view"], &[]);
    assert_eq!(s.views, vec![View::Timeline, View::Metrics]);
    assert!(!check("v=1&embed=maybe", &["embed"], &[]).embed);
    assert!(check("v=1&embed", &[], &[]).embed);
    assert_eq!(check("v=1&sweep=nope", &["sweep"], &[]).sweep, None);
    assert_eq!(check("v=1&sweep=cores", &[], &[]).sweep.as_deref(), Some("cores"));
    // Compare.
    let s = check("v=1&b.cores=4", &[], &[("cores", &cores)]);
    assert_eq!(s.compare.as_ref().and_then(|b| b.get("cores")).as_deref(), Some("4"));
    let s = check("v=1&cores=3&compare=1&b.nope=3&b.cores=999", &["b.nope", "b.cores"], &[("cores", "3")]);
    assert_eq!(s.compare.as_ref(), Some(&s.config), "B falls back to A");
    let s = check("v=1&compare=0&b.cores=4", &["b.cores"], &[]);
    assert_eq!(s.compare, None);
    let s = check("v=1&b.nope=1", &["b.nope"], &[]);
    assert_eq!(s.compare, None, "an unknown b. key alone does not open a comparison");
    // Hints for near misses.
    let (_, n) = parse("v=1&corse=4");
    assert!(n[0].reason.contains("did you mean 'cores'"), "{n:?}");
}

#[test]
fn huge_queries_are_capped() {
    let long = format!("v=1&cores=4&x={}", "a".repeat(100_000));
    let s = check(&long, &["(query)"], &[("cores", "4")]);
    assert_eq!(s.views, Vec::<View>::new());
    // Many pairs: length cap, pair cap, then a bounded number of notices.
    let many = "x=1&".repeat(25_000);
    let (_, n) = parse(&many);
    assert!(n.len() <= MAX_NOTICES + 1, "{}", n.len());
    assert_eq!(n[0].key, "(query)");
    assert!(n.last().unwrap().reason.contains("more problems"), "{:?}", n.last());
    // A huge value without any '&' is dropped whole.
    let (s, n) = parse(&"%".repeat(100_000));
    assert_eq!(s, UrlState::default());
    assert_eq!(keys(&n), vec!["(query)".to_string()]);
    // Multi-byte characters near the cut do not split a character.
    let (_, n) = parse(&format!("v=1&{}", "é".repeat(20_000)));
    assert!(!n.is_empty());
}

#[test]
fn canonical_query_is_minimal_and_ordered() {
    assert_eq!(to_query(&UrlState::default()), "v=1");
    let mut s = UrlState::default();
    s.config.set("rr_interval", "5000ms").unwrap();
    s.config.set("cstates", "C1,C1E").unwrap();
    s.config.set("cores", "4").unwrap();
    s.embed = true;
    s.views = vec![View::Metrics, View::Timeline];
    s.sweep = Some("cores".into());
    let mut b = s.config.clone();
    b.set("policy", "eevdf").unwrap();
    assert_eq!(b.get("kernel").as_deref(), Some("6.6"), "the old key picks an EEVDF era");
    s.compare = Some(b);
    assert_eq!(
        to_query(&s),
        "v=1&cores=4&rr_interval=5s&cstates=C1,C1E&embed=1&view=metrics,timeline&sweep=cores&compare=1&b.kernel=6.6"
    );
    // A preset name is printed, values are relative to it.
    let p = &PRESETS[0];
    let s = UrlState { preset: Some(p.name.into()), config: (p.config)(), ..UrlState::default() };
    assert_eq!(to_query(&s), format!("v=1&preset={}", p.name));
    // An unknown preset is not printed.
    let s = UrlState { preset: Some("nope".into()), ..UrlState::default() };
    assert_eq!(to_query(&s), "v=1");
}

#[test]
fn escapes_round_trip() {
    for s in ["", "a b", "x=y&z", "100%", "ключ", "a+b", "#?/,:"] {
        assert_eq!(percent_decode(&percent_encode(s)).as_deref(), Ok(s), "{s}");
    }
    assert_eq!(percent_encode("1x3ms/10ms,2x1ms/2ms"), "1x3ms/10ms,2x1ms/2ms");
    assert_eq!(percent_encode("a b&c"), "a%20b%26c");
    assert!(percent_decode("%").is_err());
    assert!(percent_decode("%4").is_err());
    assert!(percent_decode("%C3").is_err(), "truncated UTF-8");
}

/// A valid text value for `key` on `c`, chosen by `r`.
fn value_for(c: &Config, key: &str, r: u64) -> String {
    let doc = key_doc(key).unwrap();
    match (key, doc.kind) {
        ("cpu", _) => {
            let names = profile_names();
            names[(r % names.len() as u64) as usize].to_string()
        }
        ("cstates", _) => match r % 4 {
            0 => "all".into(),
            1 => "off".into(),
            _ => {
                let states = &c.profile().cstates;
                let picked: Vec<&str> =
                    states.iter().enumerate().filter(|(i, _)| (r >> (2 + i)) & 1 == 1).map(|(_, s)| s.name).collect();
                if picked.is_empty() {
                    "off".into()
                } else {
                    picked.join(",")
                }
            }
        },
        ("features", _) => {
            let defs = c.kernel.features();
            defs.iter()
                .enumerate()
                .filter(|(i, _)| (r >> (i % 60)) & 1 == 1)
                .map(|(_, d)| if (r >> 61) & 1 == 1 { format!("NO_{}", d.name) } else { d.name.to_string() })
                .collect::<Vec<_>>()
                .join(" ")
        }
        ("latency_limit", _) => {
            if r % 2 == 0 {
                "none".into()
            } else {
                format_duration((r >> 1) % (10 * MS + 1))
            }
        }
        ("tasks", _) => {
            let groups = 1 + r % 4;
            let tasks: Vec<PeriodicTask> = (0..groups)
                .map(|g| {
                    let x = r.rotate_left(16 * g as u32);
                    let period = 10 * US + x % (1000 * MS);
                    PeriodicTask { count: 1 + (x % 8) as u32, run: 1 + (x >> 8) % period, period, slice: 0 }
                })
                .collect();
            format_tasks(&tasks)
        }
        (_, KeyKind::Int { min, max }) | (_, KeyKind::Duration { min, max }) => {
            let span = max - min;
            let n = if span == u64::MAX { r } else { min + r % (span + 1) };
            if matches!(doc.kind, KeyKind::Duration { .. }) {
                format_duration(n)
            } else {
                n.to_string()
            }
        }
        (_, KeyKind::Bool) => if r % 2 == 0 { "on" } else { "off" }.into(),
        (_, KeyKind::Choice(list)) => list[(r % list.len() as u64) as usize].into(),
        (_, KeyKind::Text) => panic!("no generator for text key {key}"),
    }
}

/// Applies random valid values for some keys.
fn random_config(mut c: Config, picks: &[(usize, u64)]) -> Config {
    for &(i, r) in picks {
        let key = KEYS[i % KEYS.len()].key;
        let v = value_for(&c, key, r);
        c.set(key, &v).unwrap_or_else(|e| panic!("generator made a bad value {key}={v}: {e}"));
    }
    c
}

fn picks() -> impl Strategy<Value = Vec<(usize, u64)>> {
    prop::collection::vec((0..KEYS.len(), any::<u64>()), 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn state_to_url_to_state_round_trips(
        a in picks(),
        b in prop::option::of(picks()),
        preset_ix in prop::option::of(0..PRESETS.len()),
        embed in any::<bool>(),
        views in prop::sample::subsequence(View::ALL.to_vec(), 0..=4).prop_shuffle(),
        sweep in prop::option::of(0..KEYS.len()),
        main_seeds in prop::option::of(2..=MAX_REPLICAS),
        stretch in prop::option::of((0u64..1 << 40, 1u64..1 << 40)),
    ) {
        let preset = preset_ix.map(|i| PRESETS[i].name.to_string());
        let start = preset.as_deref().and_then(presets::preset).map(|p| (p.config)()).unwrap_or_default();
        let config = random_config(start, &a);
        let compare = b.map(|b| random_config(config.clone(), &b));
        let state = UrlState { preset, config, embed, views, compare, sweep: sweep.map(|i| KEYS[i].key.to_string()), sweep_view: SweepView::default(), tour: None, main_seeds, stretch: stretch.map(|(t0, len)| (t0, t0 + len)) };
        let q = to_query(&state);
        let (back, notices) = parse(&q);
        prop_assert!(notices.is_empty(), "{q}: {notices:?}");
        prop_assert_eq!(&back, &state, "{}", q);
        // URL -> state -> URL is the identity on canonical queries.
        prop_assert_eq!(to_query(&back), q);
    }

    #[test]
    fn parse_never_panics_and_keeps_notices_bounded(s in "[a-z_.=&%0-9+,é]{0,300}") {
        let (state, notices) = parse(&s);
        prop_assert!(notices.len() <= MAX_NOTICES + 1);
        // What parse produced prints to a query that reads back without notices.
        let (again, n2) = parse(&to_query(&state));
        prop_assert!(n2.is_empty(), "{n2:?}");
        prop_assert_eq!(again, state);
    }

    #[test]
    fn parse_survives_arbitrary_text(s in any::<String>()) {
        let _ = parse(&s);
    }
}

#[test]
fn sweep_view_keys_round_trip_and_unknown_metrics_fall_back_with_a_message() {
    let (s, notices) =
        parse("v=1&preset=rr-kbuild&sweep_y=wakeup_latency_p99&sweep2=jobs&replicas=4&pareto=residency.C6");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(s.sweep_view.y.as_deref(), Some("wakeup_latency_p99"));
    assert_eq!(s.sweep_view.key2.as_deref(), Some("jobs"));
    assert_eq!(s.sweep_view.replicas, Some(4));
    assert_eq!(s.sweep_view.pareto.as_deref(), Some("residency.C6"));
    assert_eq!(
        to_query(&s),
        "v=1&preset=rr-kbuild&sweep_y=wakeup_latency_p99&sweep2=jobs&pareto=residency.C6&replicas=4"
    );
    let (s, notices) = parse("v=1&sweep_y=latency&replicas=99&sweep2=nope");
    assert_eq!(s.sweep_view, SweepView::default(), "every bad value falls back");
    let text: Vec<String> = notices.iter().map(|n| n.to_string()).collect();
    assert!(text[0].starts_with("sweep_y=latency: unknown metric (known: throughput,"), "{text:?}");
    assert!(text[0].ends_with("showing the preset's metric"), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("replicas=99: not a whole number from 1 to 16")), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("sweep2=nope: not a config key")), "{text:?}");
}

#[test]
fn an_old_link_opens_the_same_sweep_view_and_old_metric_spellings_read_as_their_key() {
    // A link written before the registry was one list: its metric names are still NAMED keys.
    let old = "v=1&preset=token-governors&sweep_y=wakeup_latency_p99&pareto=governor_right";
    let (s, notices) = parse(old);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(s.sweep_view.y.as_deref(), Some("wakeup_latency_p99"));
    assert_eq!(s.sweep_view.pareto.as_deref(), Some("governor_right"));
    assert_eq!(to_query(&s), old);
    // The page's and the CSV's old spellings (`metrics::ALIASES`) name the same view.
    let (a, notices) = parse("v=1&preset=token-governors&sweep_y=wakeup_latency_us.p99&pareto=governor_score.too_deep");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(a.sweep_view.y.as_deref(), Some("wakeup_latency_p99"));
    assert_eq!(a.sweep_view.pareto.as_deref(), Some("governor_too_deep"));
    assert_eq!(to_query(&a), "v=1&preset=token-governors&sweep_y=wakeup_latency_p99&pareto=governor_too_deep");
}

#[test]
fn main_seeds_round_trip_and_a_bad_count_means_one_run() {
    let (s, notices) = parse("v=1&preset=intro&seeds=5&seed=3");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(s.main_seeds, Some(5));
    assert_eq!(s.config.seed, 3, "seed= is still the first seed");
    assert!(to_query(&s).ends_with("&seeds=5"), "{}", to_query(&s));
    assert_eq!(parse(&to_query(&s)).0, s);
    assert_eq!(parse("v=1&seeds=1").0.main_seeds, None, "one seed is the plain run");
    for bad in ["0", "17", "x", "-2"] {
        let (s, notices) = parse(&format!("v=1&seeds={bad}&hz=250"));
        assert_eq!(s.main_seeds, None);
        assert_eq!(s.config.hz, 250, "the rest of the link is kept");
        let text: Vec<String> = notices.iter().map(|n| n.to_string()).collect();
        assert_eq!(text, [format!("seeds={bad}: not a whole number from 1 to 16; one run")]);
    }
}

#[test]
fn the_experiments_view_and_a_tour_step_round_trip() {
    let (u, n) = parse("v=1&preset=intro&view=seeds");
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(u.views, vec![View::Seeds]);
    assert_eq!(to_query(&u), "v=1&preset=intro&view=seeds");
    let (u, n) = parse("preset=nohz-pipe&tour=nohz-pipe&step=3&embed=1");
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(u.tour, Some(("nohz-pipe".to_string(), 3)));
    assert_eq!(to_query(&u), "v=1&preset=nohz-pipe&embed=1&tour=nohz-pipe&step=3");
    let (u, _) = parse("v=1&tour=intro");
    assert_eq!(to_query(&u), "v=1&tour=intro", "step 1 is not spelled out");
    let (u, n) = parse("v=1&tour=intro&step=0");
    assert_eq!((u.tour, keys(&n)), (Some(("intro".to_string(), 1)), vec!["step".to_string()]));
    let (u, n) = parse("v=1&tour=%3Cscript%3E&step=2");
    assert_eq!((u.tour, keys(&n)), (None, vec!["tour".to_string()]));
    let (_, n) = parse("v=1&step=2");
    assert_eq!(keys(&n), vec!["step".to_string()]);
}

/// Issue 30, defect 9: a link over the limit was cut at its last `&` with a notice that
/// named no key (what the reader lost was silent) and called bytes "characters".
#[test]
fn an_overlong_link_names_the_keys_it_did_not_read() {
    let filler = format!("preset={}", "x".repeat(MAX_QUERY_LEN - 10));
    let (_, notices) = parse(&format!("cores=2&{filler}&hz=1000&b.policy=eevdf"));
    let n = notices.iter().find(|n| n.key == "(query)").expect("a notice for the query");
    assert!(n.reason.contains("bytes long") && !n.reason.contains("characters"), "{}", n.reason);
    assert!(n.reason.ends_with("not read: preset, hz, b.policy"), "{}", n.reason);
}

/// Issue 29, item 6: zoom and pan were not in the link. The visible stretch is `t0`/`t1`;
/// a bad or half stretch is a notice and the whole run, never a failure.
#[test]
fn the_timeline_stretch_round_trips_and_bad_ones_are_notices() {
    let (u, n) = parse("v=1&preset=intro&t0=12ms&t1=12.5ms&compare=1&b.hz=1000");
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(u.stretch, Some((12_000_000, 12_500_000)));
    assert_eq!(to_query(&u), "v=1&preset=intro&t0=12ms&t1=12500us&compare=1&b.hz=1000");
    assert_eq!(parse(&to_query(&u)).0, u);
    for (q, key) in [
        ("t0=5ms", "t0"),
        ("t1=5ms", "t1"),
        ("t0=5&t1=6ms", "t0"),
        ("t0=7ms&t1=6ms", "t1"),
        ("t0=6ms&t1=6ms", "t1"),
        ("t0=-1ms&t1=6ms", "t0"),
        ("t0=0ms&t1=99999999999999999999s", "t1"),
        ("t0=NaN&t1=inf", "t0"),
    ] {
        let (s, notices) = parse(&format!("v=1&hz=1000&{q}"));
        assert_eq!(s.stretch, None, "{q}");
        assert_eq!(s.config.hz, 1000, "{q}: the rest is kept");
        assert!(notices.iter().any(|n| n.key == key && n.reason.contains("whole run")), "{q}: {notices:?}");
    }
}
