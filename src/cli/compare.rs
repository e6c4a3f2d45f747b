//! `schedscope compare`: A and B configs over N seeds as a plain-text table for an email
//! (`share::table`, mmtests' layout, at most 72 columns), or as JSON with the same numbers.
//!
//! A is `--preset`/`--import`/`--set` as for `run`; B is A with each `--b KEY=VALUE`
//! (the share link's `b.` keys). Each side runs seeds `seed` .. `seed+N-1` (`--seeds N`,
//! default 5, as `sweep --replicas` moves them), on `--jobs` threads (the output does not
//! depend on it).

use super::args::{self, Flag};
use super::report::to_json;
use super::setup::{setup, split_set};
use super::sweep::{default_jobs, replica_config, run_all, MAX_JOBS};
use super::{usage, CliError, Out};
use crate::engine::{self, metrics};
use crate::share::table::{self, Row};
use crate::share::url::{self, UrlState};

/// Most seeds per side.
pub const MAX_SEEDS: usize = 32;

const FLAGS: &[Flag] = &[
    Flag::value("--preset", "NAME"),
    Flag::repeated("--set", "KEY=VALUE"),
    Flag::value("--import", "FILE"),
    Flag::repeated("--b", "KEY=VALUE"),
    Flag::value("--seeds", "N"),
    Flag::repeated("--metric", "NAME"),
    Flag::value("--jobs", "N"),
    Flag::value("--link-base", "URL"),
    Flag::switch("--json"),
];

fn count(parsed: &args::Parsed, flag: &str, hi: usize, default: usize) -> Result<usize, CliError> {
    match parsed.get(flag) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=hi).contains(n))
            .ok_or_else(|| CliError::usage(format!("{flag}: '{v}' is not a whole number from 1 to {hi}"))),
    }
}

/// What `--json` prints: the configs, the seeds and the rows the text is made of.
#[derive(serde::Serialize)]
struct Json {
    a: Vec<(&'static str, String)>,
    b: Vec<(&'static str, String)>,
    seeds: Vec<u64>,
    link: String,
    rows: Vec<Row>,
}

/// `schedscope compare ...`.
pub fn compare(words: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("compare", words, FLAGS)?;
    if parsed.help {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let s = setup(&parsed)?;
    let a = s.config.clone();
    let mut b = a.clone();
    let b_sets = parsed.all("--b");
    if b_sets.is_empty() {
        return Err(CliError::usage("--b: missing: give B's changes as --b KEY=VALUE (e.g. --b policy=eevdf)"));
    }
    for text in b_sets {
        let (k, v) = split_set(text).map_err(|e| CliError::usage(e.message.replacen("--set", "--b", 1)))?;
        b.set(k, v).map_err(|e| CliError::usage(format!("--b: {}: {}", e.key, e.message)))?;
    }
    engine::check(&b)?;
    let seeds = count(&parsed, "--seeds", MAX_SEEDS, 5)?;
    let jobs = count(&parsed, "--jobs", MAX_JOBS, default_jobs())?;
    let asked: Vec<&str> = match parsed.all("--metric") {
        m if m.is_empty() => table::DEFAULT_METRICS.to_vec(),
        m => m,
    };
    // Each by its one key: an old spelling (`metrics::ALIASES`) is printed as the key.
    let mut keys: Vec<String> = Vec::with_capacity(asked.len());
    for k in asked {
        match metrics::canonical(k) {
            Some(key) => keys.push(key),
            None => {
                let names: Vec<&str> = metrics::NAMED.iter().map(|n| n.key).collect();
                return Err(CliError::usage(format!("--metric: unknown metric '{k}' (allowed: {})", names.join(", "))));
            }
        }
    }
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let configs: Vec<_> = [&a, &b].iter().flat_map(|c| (0..seeds).map(move |r| replica_config(c, r))).collect();
    let runs = run_all(&configs, jobs)?;
    let (ra, rb) = runs.split_at(seeds);
    let rows = table::rows(&keys, ra, rb);
    let state =
        UrlState { config: a.clone(), compare: Some(b.clone()), main_seeds: Some(seeds as u32), ..UrlState::default() };
    let link = format!("{}?{}", parsed.get("--link-base").unwrap_or(""), url::to_query(&state));
    let seed_list: Vec<u64> = (0..seeds).map(|r| a.seed.wrapping_add(r as u64)).collect();
    let text = if parsed.has("--json") {
        to_json(&Json { a: a.to_pairs(), b: b.to_pairs(), seeds: seed_list, link, rows })?
    } else {
        table::email_text(&rows, &a, &b, &seed_list, &link)
    };
    Ok(Out { text, notes: s.notes, status: 0 })
}
