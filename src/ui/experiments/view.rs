//! The Experiments page's views (the seed experiments, then the validation corpus): reported
//! figures beside simulated ones, one table per experiment, and the scoreboard above them.
//!
//! Linked only into the lazily loaded `experiments` wasm (src/bin/experiments.rs, issue 26):
//! the page's own wasm mounts it through `experiments::mount`, passing the tables as wire
//! bytes, so nothing here reads the app's state; a row's Load goes back through `on_load`.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::presets::preset;
use crate::share::table;
use crate::ui::common::copy::CopyText;
use crate::ui::common::format::num;
use crate::ui::worker::protocol::SeedTable;

/// How far the tables are: none yet, some (more are being computed), or all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Waiting,
    Partial,
    Loaded,
}

impl Stage {
    /// The number the JS seam carries (`mount`): 0, 1, 2.
    pub fn code(self) -> u32 {
        match self {
            Stage::Waiting => 0,
            Stage::Partial => 1,
            Stage::Loaded => 2,
        }
    }
    pub fn of_code(c: u32) -> Stage {
        match c {
            1 => Stage::Partial,
            2 => Stage::Loaded,
            _ => Stage::Waiting,
        }
    }
}

/// A row's Load: the preset and the row's settings (the app's `Action::LoadRow`).
pub type LoadRow = (String, Vec<(String, String)>);

#[derive(Properties, PartialEq)]
pub struct SeedViewProps {
    pub tables: Rc<Vec<SeedTable>>,
    pub stage: Stage,
    /// The page's link query, for the copied text's link.
    pub query: String,
    pub on_load: Callback<LoadRow>,
}

/// The Experiments tables as plain text (`share::table::validation_text`), made on press.
fn validation_text(tables: &[SeedTable], query: String) -> Callback<(), String> {
    let tables = tables.to_vec();
    Callback::from(move |()| table::validation_text(&tables, &crate::ui::common::browser::link_of(&query)))
}

/// The Experiments view: the seed experiments, then the validation corpus; reported figures
/// beside simulated ones, one table per experiment.
#[function_component(SeedView)]
pub fn seed_view(props: &SeedViewProps) -> Html {
    let tables = &props.tables;
    match props.stage {
        Stage::Waiting => {
            html! { <p class="note" role="status">{"Running the seed experiments and the corpus (quick mode; the corpus's hackbench tables take a while)…"}</p> }
        }
        Stage::Loaded if tables.is_empty() => html! {
            <p class="note">{"The validation returned no tables, so there is nothing to compare. Reload the page to run it again."}</p>
        },
        Stage::Loaded | Stage::Partial => {
            let more = props.stage == Stage::Partial;
            let (corpus, seeds): (Vec<&SeedTable>, Vec<&SeedTable>) = tables.iter().partition(|t| t.corpus);
            let judged: Vec<bool> = corpus.iter().flat_map(|t| t.rows.iter().filter_map(|r| r.pass)).collect();
            let passed = judged.iter().filter(|&&p| p).count();
            html! {
            <div class="seeds">
                { scoreboard_view(&seeds, &corpus, more) }
                <p class="help">{"Each table reruns a published experiment in the simulator. Every column the source reports is compared. What must match is each row's change against the row it is measured against (Δ columns; the first row, or in the corpus the matching reference row): a figure passes when the simulated change has the reported sign and 0.5x to 1.5x its size, and a row passes when all its figures do. In the corpus a reported change within the benchmark's noise passes on no effect, or on the reported sign within 1.5x the noise. The absolute error (simulated against reported) is shown beside it. The page runs the quick tables (a tenth of the pipe, token and long hackbench loops, fewer hackbench rows; absolute figures are compared with the same fraction of the reported ones); "}<code>{"schedscope validate"}</code>{" runs them in full."}</p>
                <h2 class="experiments-group">{"Seed experiments"}</h2>
                { for seeds.iter().map(|t| html! { <SeedTableView table={(*t).clone()} on_load={props.on_load.clone()} /> }) }
                if !corpus.is_empty() {
                    <h2 class="experiments-group">{"Validation corpus"}</h2>
                    <p class="note corpus-score">{format!("{passed} of {} judged corpus rows pass in quick mode{} (the goal is 80%). A miss is shown as it is, with what the model lacks where an experiment has found it; the table's notes say what the model assumes.", judged.len(), if more { ", so far" } else { "" })}</p>
                    { for corpus.iter().map(|t| html! { <SeedTableView table={(*t).clone()} on_load={props.on_load.clone()} /> }) }
                }
                if more {
                    <p class="note" role="status">{format!("{} of {} tables in; computing the next one (quick mode)…", tables.len(), crate::engine::validate::table_presets().len())}</p>
                } else {
                    <CopyText what="the Experiments tables" text={validation_text(tables, props.query.clone())} />
                }
            </div>
            }
        }
    }
}

/// The score first: per table, rows passing of rows judged, with each group's total; a
/// table's name links to it below.
fn scoreboard_view(seeds: &[&SeedTable], corpus: &[&SeedTable], partial: bool) -> Html {
    use crate::ui::experiments::scoreboard::Score;
    let group = |name: &str, tables: &[&SeedTable]| {
        let total = tables.iter().fold(Score::default(), |s, t| s.plus(Score::of(t)));
        html! {
            <tbody data-group={name.to_string()}>
                <tr class="group"><th scope="row">{name.to_string()}</th>
                    <td class={classes!("score", (total.judged > 0 && total.passed == total.judged).then_some("all"))}>{total.text()}</td></tr>
                { for tables.iter().map(|t| { let sc = Score::of(t); html! {
                    <tr data-preset={t.preset.clone()}><th scope="row"><a href={format!("#seed-{}", t.preset)}>{t.title.clone()}</a></th>
                        <td class={classes!("score", (sc.judged > 0 && sc.passed == sc.judged).then_some("all"))}>{sc.text()}</td></tr>
                } }) }
            </tbody>
        }
    };
    html! {
        <section class="scoreboard panel" aria-label="Scoreboard">
            <h2>{"Scoreboard"}{if partial { " (so far)" } else { "" }}</h2>
            <table>
                <caption>{"Rows passing of rows judged, per table (baselines and the model's predictions are not judged)"}</caption>
                <thead><tr><th scope="col">{"table"}</th><th scope="col">{"rows passing"}</th></tr></thead>
                { group("Seed experiments", seeds) }
                if !corpus.is_empty() { { group("Validation corpus", corpus) } }
            </table>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct SeedTableProps {
    table: SeedTable,
    on_load: Callback<LoadRow>,
}

/// The seed table's metric key as a heading word.
fn seed_metric_label(key: &str) -> &'static str {
    match key {
        "elapsed_s" => "Elapsed time",
        "throughput" => "Throughput",
        "user_s" => "User time",
        "sys_s" => "System time",
        "cpu_percent" => "CPU",
        "context_switches" => "Context switches",
        _ => "Result",
    }
}

fn pct(x: f64) -> String {
    format!("{}{:.1}%", if x >= 0.0 { "+" } else { "−" }, (x * 100.0).abs())
}

#[function_component(SeedTableView)]
fn seed_table_view(props: &SeedTableProps) -> Html {
    let t = &props.table;
    let p = preset(&t.preset);
    let about = p.map(|p| p.about).unwrap_or("");
    let metric = seed_metric_label(&t.metric);
    html! {
        <section class="seed panel" data-preset={t.preset.clone()} id={format!("seed-{}", t.preset)}>
            <h3>{t.title.clone()}<span class="score">{format!(" · {} rows pass", crate::ui::experiments::scoreboard::Score::of(t).text())}</span></h3>
            if let Some(p) = p { <p class="preset-name">{p.title}</p> }
            <p class="help">{about}</p>
            if !t.source.is_empty() { <p class="source">{"Reported: "}{t.source.clone()}</p> }
            if !t.notes.is_empty() { <p class="help notes">{t.notes.clone()}</p> }
            <div class="table-scroll">
            <table>
                <caption>{format!("{metric} and every other column the source reports: the mean of the reported runs beside one simulated run")}</caption>
                <thead><tr>
                    <th scope="col" class="label">{"configuration"}</th><th scope="col">{"column"}</th>
                    <th scope="col">{"reported"}</th><th scope="col">{"simulated"}</th>
                    <th scope="col">{"Δ reported"}</th><th scope="col">{"Δ simulated"}</th>
                    <th scope="col" title="the simulated change as a multiple of the reported one (a pass needs 0.5× to 1.5×)">{"sim / rep"}</th><th scope="col">{"check"}</th>
                    <th scope="col">{"abs. error"}</th>
                    <th scope="col"><span class="sr">{"load"}</span></th>
                </tr></thead>
                <tbody>
                { for t.rows.iter().flat_map(|r| {
                    let baseline = r.vs == r.label;
                    let any_reported = r.cells.iter().any(|c| c.reported.is_some());
                    let span = r.cells.len().max(1).to_string();
                    let onclick = {
                        let (on_load, preset, sets) = (props.on_load.clone(), t.preset.clone(), r.sets.clone());
                        Callback::from(move |_| on_load.emit((preset.clone(), sets.clone())))
                    };
                    let label = r.label.clone();
                    let columns = t.columns.clone();
                    let row_verdict = crate::ui::experiments::scoreboard::verdict(r);
                    let miss = crate::ui::experiments::scoreboard::row_miss(t, r);
                    let cells: Vec<Html> = r.cells.iter().enumerate().map(move |(k, c)| {
                        let (badge, cls) = match c.pass {
                            Some(true) => ("pass", "pass"),
                            Some(false) => ("fail", "fail"),
                            None if baseline => ("baseline", "baseline"),
                            None if !any_reported => ("predicted", "predicted"),
                            None => ("—", "baseline"),
                        };
                        let name = columns.get(k).map_or(c.column.clone(), |col| format!("{} ({})", col.label, col.unit));
                        let shown = crate::ui::experiments::scoreboard::Shown::of(c);
                        html! { <tr data-column={c.column.clone()} data-verdict={row_verdict}>
                            if k == 0 { <th scope="row" rowspan={span.clone()}>{label.clone()}
                                <span class={classes!("badge", "row-verdict", row_verdict)}>{row_verdict}</span></th> }
                            <td data-label="column">{name}</td>
                            <td data-label="reported">{c.reported.map(num).unwrap_or_else(|| "—".into())}</td>
                            <td data-label="simulated">{num(c.simulated)}</td>
                            <td data-label="Δ reported">{c.reported_change.map(pct).unwrap_or_else(|| "—".into())}</td>
                            <td data-label="Δ simulated">{pct(c.simulated_change)}</td>
                            <td data-label="sim / rep" class={classes!("ratio", shown.out().then_some("out"), matches!(shown, crate::ui::experiments::scoreboard::Shown::WithinNoise(_)).then_some("noise"))}
                                title={matches!(shown, crate::ui::experiments::scoreboard::Shown::WithinNoise(_)).then_some("the reported change is within the benchmark's noise: the row passes on no effect (or a change of the reported sign at the noise level), so a ratio to it means nothing")}>
                                {shown.text()}</td>
                            <td class="check"><span class={classes!("badge", cls)}>{badge}</span></td>
                            <td data-label="abs. error">{c.abs_error.map(pct).unwrap_or_else(|| "—".into())}</td>
                            if k == 0 {
                                <td class="load" rowspan={span.clone()}><button type="button" onclick={onclick.clone()} aria-label={format!("Load {}", label)}>{"Load"}</button></td>
                            }
                        </tr> }
                    }).collect();
                    let reason = miss.map(|m| html! { <tr class="miss-reason"><td colspan="10" role="note">{m}</td></tr> });
                    cells.into_iter().chain(reason)
                }) }
                </tbody>
            </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seam's stage number means the same on both sides; anything else is "waiting".
    #[test]
    fn stage_codes_round_trip() {
        for s in [Stage::Waiting, Stage::Partial, Stage::Loaded] {
            assert_eq!(Stage::of_code(s.code()), s);
        }
        assert_eq!(Stage::of_code(7), Stage::Waiting);
    }

    /// The tables cross the seam as `wire` bytes (`mount::show` encodes, `lazy::show` decodes).
    #[test]
    fn tables_cross_the_seam_as_wire_bytes() {
        let row = crate::engine::validate::Row {
            label: "half".into(),
            sets: vec![("rr_interval".into(), "5ms".into())],
            vs: "base".into(),
            pass: Some(true),
            ..Default::default()
        };
        let tables = vec![SeedTable {
            preset: "rr-kbuild".into(),
            title: "make -j8".into(),
            source: "LKML".into(),
            metric: "elapsed_s".into(),
            unit: "s".into(),
            columns: Vec::new(),
            rows: vec![row],
            corpus: true,
            notes: String::new(),
        }];
        let bytes = crate::ui::worker::wire::encode(&tables);
        assert_eq!(crate::ui::worker::wire::decode::<Vec<SeedTable>>(&bytes).unwrap(), tables);
        assert!(crate::ui::worker::wire::decode::<Vec<SeedTable>>(&bytes[..bytes.len() - 1]).is_err());
    }
}
