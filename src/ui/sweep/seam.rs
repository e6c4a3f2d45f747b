//! What crosses between the page and the views module for the sweep panel (issue 26's code
//! splitting): `Seam`, everything `SweepPanel` draws, built from the app's state
//! (`Seam::of`) and sent as `worker::wire` bytes; the module answers with a new
//! `SweepView` (wire bytes too) or a heatmap cell's `[[key, value], …]`. Pure (no web crate).

use std::rc::Rc;

use crate::engine::config::KEYS;
use crate::engine::metrics::Metrics;
use crate::share::url::SweepView;
use crate::ui::app::state::State;
use crate::ui::sweep::model::Sweep;
use crate::ui::worker::wire::{Reader, Wire};

/// The panel's inputs, as the page has them.
#[derive(Clone, Debug, PartialEq)]
pub struct Seam {
    pub sweep: Rc<Sweep>,
    pub metric: String,
    pub current: Option<Rc<Metrics>>,
    pub view: SweepView,
    pub a_value: Option<f64>,
    pub query: String,
    pub plot_only: bool,
}

impl Seam {
    /// The panel's inputs for `sw` in state `s` (`plot_only`: the embed's plot view).
    pub fn of(s: &State, sw: &Rc<Sweep>, plot_only: bool) -> Seam {
        let metric = s.sweep_metric();
        Seam {
            sweep: sw.clone(),
            current: s.result.as_ref().filter(|r| r.gen == s.gen).map(|r| Rc::new(r.metrics.clone())),
            view: s.sweep.view.clone(),
            a_value: pinned_level(s, &metric),
            query: s.query(),
            metric,
            plot_only,
        }
    }
}

/// The pinned A's `metric`, for the level drawn across the sweep plot: its full run's
/// value, or the mean over its seeds once they are all in (`State::main_seeds`). None
/// without a pin or before A's full run.
pub fn pinned_level(s: &State, metric: &str) -> Option<f64> {
    let a = s.pin.as_ref()?.result.as_ref().filter(|r| !r.preview)?;
    match s.pin_reps().filter(|r| r.complete() && r.config == a.config) {
        Some(reps) => {
            crate::ui::explore::replicas::stats(&a.metrics, reps, |m| crate::ui::sweep::model::value(m, metric))
                .map(|st| st.mean)
        }
        None => Some(crate::ui::sweep::model::value(&a.metrics, metric)),
    }
}

/// A config key's `'static` name (`KEYS`), None for a name that is not one.
pub fn key_named(name: &str) -> Option<&'static str> {
    KEYS.iter().map(|k| k.key).find(|k| *k == name)
}

fn put_key(w: &mut Vec<u8>, k: Option<&'static str>) {
    k.map(str::to_string).put(w)
}

fn get_key(r: &mut Reader) -> Option<&'static str> {
    let name = Option::<String>::get(r)?;
    let k = key_named(&name);
    if k.is_none() {
        r.fail("bad sweep key");
    }
    k
}

fn put_runs(w: &mut Vec<u8>, runs: &[Option<Rc<Metrics>>]) {
    runs.len().put(w);
    for m in runs {
        m.as_deref().cloned().put(w);
    }
}

fn get_runs(r: &mut Reader) -> Vec<Option<Rc<Metrics>>> {
    Vec::<Option<Metrics>>::get(r).into_iter().map(|m| m.map(Rc::new)).collect()
}

impl Wire for Sweep {
    fn put(&self, w: &mut Vec<u8>) {
        let Sweep { gen, key, base, values, xs, log, points, unit, failed, key2, values2, replicas, runs } = self;
        gen.put(w);
        put_key(w, Some(key));
        base.put(w);
        values.put(w);
        xs.put(w);
        log.put(w);
        put_runs(w, points);
        unit.put(w);
        failed.put(w);
        put_key(w, *key2);
        values2.put(w);
        replicas.put(w);
        put_runs(w, runs);
    }
    fn get(r: &mut Reader) -> Self {
        Sweep {
            gen: Wire::get(r),
            key: get_key(r).unwrap_or("hz"),
            base: Wire::get(r),
            values: Wire::get(r),
            xs: Wire::get(r),
            log: Wire::get(r),
            points: get_runs(r),
            unit: Wire::get(r),
            failed: Wire::get(r),
            key2: get_key(r),
            values2: Wire::get(r),
            replicas: Wire::get(r),
            runs: get_runs(r),
        }
    }
}

impl Wire for SweepView {
    fn put(&self, w: &mut Vec<u8>) {
        let SweepView { y, key2, replicas, pareto } = self;
        y.put(w);
        key2.put(w);
        replicas.put(w);
        pareto.put(w);
    }
    fn get(r: &mut Reader) -> Self {
        SweepView { y: Wire::get(r), key2: Wire::get(r), replicas: Wire::get(r), pareto: Wire::get(r) }
    }
}

impl Wire for Seam {
    fn put(&self, w: &mut Vec<u8>) {
        let Seam { sweep, metric, current, view, a_value, query, plot_only } = self;
        sweep.as_ref().put(w);
        metric.put(w);
        current.as_deref().cloned().put(w);
        view.put(w);
        a_value.put(w);
        query.put(w);
        plot_only.put(w);
    }
    fn get(r: &mut Reader) -> Self {
        Seam {
            sweep: Rc::new(Wire::get(r)),
            metric: Wire::get(r),
            current: Option::<Metrics>::get(r).map(Rc::new),
            view: Wire::get(r),
            a_value: Wire::get(r),
            query: Wire::get(r),
            plot_only: Wire::get(r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::sweep::model::{plan_sweep, with_view};
    use crate::ui::worker::wire::{decode, encode};

    #[test]
    fn a_sweep_with_its_answers_crosses_whole() {
        let s = State::default();
        let view = SweepView {
            y: Some("ticks".into()),
            key2: Some("cores".into()),
            replicas: Some(2),
            pareto: Some("throughput".into()),
        };
        let mut sw = with_view(plan_sweep(&s.config, "hz", 3, None).unwrap(), &view);
        sw.points[1] = Some(Rc::new(Metrics { throughput: 2.5, digest: "d".into(), ..Default::default() }));
        sw.runs[0] = Some(Rc::new(Metrics { ticks: 7, ..Default::default() }));
        sw.failed = 1;
        let seam = Seam {
            sweep: Rc::new(sw),
            metric: "ticks".into(),
            current: Some(Rc::new(Metrics { ticks: 3, ..Default::default() })),
            view,
            a_value: Some(1.5),
            query: "v=1&preset=intro".into(),
            plot_only: true,
        };
        assert_eq!(decode::<Seam>(&encode(&seam)).unwrap(), seam);
        let plain = Seam { current: None, a_value: None, view: SweepView::default(), plot_only: false, ..seam.clone() };
        assert_eq!(decode::<Seam>(&encode(&plain)).unwrap(), plain);
    }

    #[test]
    fn a_key_that_is_not_a_config_key_is_an_error_not_a_panic() {
        let mut b = encode(&Some("hz".to_string()));
        b.truncate(4);
        Some("nokey".to_string()).put(&mut b);
        let mut r = Reader::new(&b[4..]);
        assert_eq!(get_key(&mut r), None);
        assert!(r.error().is_some());
        assert_eq!(key_named("rr_interval"), Some("rr_interval"));
    }
}
