//! One-click governor comparison: the shown run's config under menu, teo and ladder, one table of their scoreboards, energy and main result.
//!
//! The governor scoreboard (`Metrics::governor_score`: idle periods whose state was right,
//! too deep or too shallow against the best state in hindsight, and what the misses cost in
//! exit latency and energy) says how one governor did; this asks the page to run the same
//! config once per governor (`InspectAction::CompareGovernors`; the worker runs them one after
//! another as `protocol::JobKind::Governor` jobs, each the config's own full run, so each row is
//! `schedscope run --set governor=X`'s figures) and shows one table. The row of the
//! governor the config has is marked. A transient table, not a view: it is not in the URL.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::config::Config;
use crate::engine::Metrics;
use crate::ui::common::format;

/// The governors compared, in the table's order (`governor=` values).
pub const GOVERNORS: [&str; 3] = ["menu", "teo", "ladder"];

/// A comparison in progress or done: the base config and each governor's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct GovCompare {
    /// The config generation it was asked for (a newer config makes it stale).
    pub gen: u64,
    /// Counts the comparisons asked for (each click runs again).
    pub serial: u64,
    pub base: Config,
    pub rows: Vec<Option<Result<Rc<Metrics>, String>>>,
}

impl GovCompare {
    pub fn new(gen: u64, serial: u64, base: Config) -> Self {
        GovCompare { gen, serial, base, rows: vec![None; GOVERNORS.len()] }
    }

    /// The config of each row: the base with `governor=` set.
    pub fn configs(&self) -> Vec<Config> {
        GOVERNORS
            .iter()
            .map(|g| {
                let mut c = self.base.clone();
                let _ = c.set("governor", g);
                c
            })
            .collect()
    }

    pub fn done(&self) -> bool {
        self.rows.iter().all(Option::is_some)
    }
}

/// Whether a run has idle states for a governor to choose among (more than POLL alone).
pub fn has_cstates(trace: &crate::engine::trace::Trace) -> bool {
    trace.idle_states.len() > 1
}

#[derive(Properties, PartialEq)]
pub struct GovProps {
    /// The comparison for the current config, if asked.
    pub cmp: Option<Rc<GovCompare>>,
    /// The current config's governor (`governor=`).
    pub current: String,
    pub on_compare: Callback<()>,
}

fn cell(v: f64, shown: String, unit: &str) -> Html {
    html! { <td class="n" data-v={crate::engine::decimal::shortest(v)}>{shown}if !unit.is_empty() { <span class="u">{" "}{unit.to_string()}</span> }</td> }
}

fn row_html(name: &str, current: bool, m: &Metrics) -> Html {
    let g = &m.governor_score;
    let (main, main_unit) = format::scaled(m.throughput, &format::unit_text(&m.throughput_unit));
    let (lat, lat_unit) = format::scaled(g.miss_latency_us, "µs");
    html! {
        <tr data-governor={name.to_string()} class={if current { "current" } else { "" }}>
            <th scope="row">{name.to_string()}{if current { " (this run)" } else { "" }}</th>
            {cell(g.right as f64, format::count(g.right), "")}
            {cell(g.too_deep as f64, format::count(g.too_deep), "")}
            {cell(g.too_shallow as f64, format::count(g.too_shallow), "")}
            {cell(g.miss_latency_us, lat, &lat_unit)}
            {cell(g.miss_energy_mj, format::num(g.miss_energy_mj), "mJ")}
            {cell(m.energy_j, format::num(m.energy_j), "J")}
            <td class="n" data-v={crate::engine::decimal::shortest(m.throughput)} data-metric="throughput">{main}<span class="u">{" "}{main_unit}</span></td>
        </tr>
    }
}

/// The button and, once asked, the table (rows fill in as their runs finish).
#[function_component(GovernorCompare)]
pub fn governor_compare(p: &GovProps) -> Html {
    let click = p.on_compare.reform(|_: MouseEvent| ());
    let busy = p.cmp.as_ref().is_some_and(|c| !c.done());
    html! {
        <section class="panel gov-compare" aria-label="Governor comparison">
            <h2>{"Idle governors on this run"}</h2>
            <p class="note">{"Each idle period against the best state in hindsight: right, too deep (an exit latency paid for a short idle), too shallow (residency missed), and what the misses cost."}</p>
            <button type="button" class="gov-compare-go" onclick={click} disabled={busy}
                title="Run this config once under each cpuidle governor (the worker runs them one after another)">
                {"Compare menu / teo / ladder on this run"}
            </button>
            if let Some(c) = &p.cmp {
                <div class="table-scroll">
                <table class="gov-table" data-done={c.done().to_string()}>
                    <thead><tr>
                        <th scope="col">{"governor"}</th><th scope="col">{"right"}</th><th scope="col">{"too deep"}</th>
                        <th scope="col">{"too shallow"}</th><th scope="col" title="Extra exit latency of too-deep choices">{"miss latency"}</th>
                        <th scope="col" title="Extra energy of all misses against the best state">{"miss energy"}</th>
                        <th scope="col">{"energy"}</th><th scope="col">{"result"}</th>
                    </tr></thead>
                    <tbody>
                    { for GOVERNORS.iter().zip(&c.rows).map(|(g, r)| match r {
                        Some(Ok(m)) => row_html(g, *g == p.current, m),
                        Some(Err(e)) => html! { <tr data-governor={g.to_string()}><th scope="row">{g.to_string()}</th><td colspan="7" role="alert">{format!("cannot run: {e}")}</td></tr> },
                        None => html! { <tr data-governor={g.to_string()} class="pending"><th scope="row">{g.to_string()}</th><td colspan="7">{"simulating…"}</td></tr> },
                    }) }
                    </tbody>
                </table>
                </div>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_config_per_governor_differing_in_the_governor_only() {
        let base = (crate::engine::presets::preset("token-governors").unwrap().config)();
        let c = GovCompare::new(3, 0, base.clone());
        let cs = c.configs();
        assert_eq!(cs.len(), 3);
        for (cfg, g) in cs.iter().zip(GOVERNORS) {
            assert_eq!(cfg.get("governor").as_deref(), Some(g));
            let diff: Vec<_> = cfg.diff(&base).into_iter().map(|(k, _)| k).filter(|k| *k != "governor").collect();
            assert!(diff.is_empty(), "{diff:?}");
        }
        assert!(!c.done());
    }
}
