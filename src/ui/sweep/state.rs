//! The sweep's slice of the app's state (pure): the sweep shown, how it is drawn (the
//! link's `SweepView`) and the serial that makes each new plan a new set of jobs. It owns
//! its answers (`SweepAction::Point`) and its view changes; which knob it follows when the
//! config changes is asked by the app (`follow`), since that crosses features.

use std::rc::Rc;

use crate::engine::config::Config;
use crate::share::url::SweepView;
use crate::ui::sweep::model::{plan_sweep, sweep_key, sweepable, with_view, Sweep};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepState {
    /// The sweep shown (None: the config has no knob to sweep).
    pub current: Option<Rc<Sweep>>,
    /// The sweep's metric, second key, replicas and Pareto axis (`share::url::SweepView`).
    pub view: SweepView,
    /// Identity of the last sweep planned (`Sweep::gen`): a new plan is run afresh.
    pub serial: u64,
}

#[allow(clippy::large_enum_variant)] // actions are moved once, not stored
#[derive(Clone, Debug, PartialEq)]
pub enum SweepAction {
    /// One point's answer (`index` in `Sweep::point_configs` order).
    Point {
        gen: u64,
        index: usize,
        /// The point's full metrics, or why it failed.
        result: Result<crate::engine::Metrics, String>,
    },
    /// Draw the sweep another way (metric, second key, replicas, Pareto axis); a new second
    /// key or replica count plans the sweep again.
    View(SweepView),
}

impl SweepState {
    /// The key of the sweep shown.
    pub fn key(&self) -> Option<&'static str> {
        self.current.as_ref().map(|s| s.key)
    }

    /// Plans a new sweep of `key` around `config`, drawn as `view` says, and shows it.
    pub fn replan(&mut self, config: &Config, key: &'static str, unit: Option<String>) {
        self.serial += 1;
        self.current = plan_sweep(config, key, self.serial, unit).map(|sw| Rc::new(with_view(sw, &self.view)));
    }

    /// The config changed to `config`, after the knob `last_key`: follow that knob when it
    /// can be swept, else keep the current sweep's key. When only the swept knobs moved the
    /// curve stands and its marker moves; otherwise the sweep is planned again.
    pub fn follow(&mut self, config: &Config, last_key: Option<&'static str>) {
        let preferred = last_key.filter(|k| sweepable(k)).or(self.key());
        let key = sweep_key(config, preferred);
        let keep = self
            .current
            .as_ref()
            .is_some_and(|s| s.key == key && s.base.diff(config).iter().all(|(k, _)| *k == key || Some(*k) == s.key2));
        if keep {
            if let Some(s) = &mut self.current {
                Rc::make_mut(s).base = config.clone();
            }
        } else {
            let unit = self.current.as_ref().map(|s| s.unit.clone());
            self.replan(config, key, unit);
        }
    }

    /// Applies `a` for the current `config`; false when nothing changed (a stale answer).
    pub fn reduce(&mut self, a: SweepAction, config: &Config) -> bool {
        match a {
            SweepAction::Point { gen, index, result } => {
                let Some(sw) = &mut self.current else { return false };
                if sw.gen != gen || index >= sw.jobs() {
                    return false;
                }
                let sw = Rc::make_mut(sw);
                match result {
                    Ok(m) => {
                        if !m.throughput_unit.is_empty() {
                            sw.unit = m.throughput_unit.clone();
                        }
                        let cells = sw.points.len();
                        let slot = if index < cells { &mut sw.points[index] } else { &mut sw.runs[index - cells] };
                        *slot = Some(Rc::new(m));
                    }
                    Err(_) => sw.failed += 1,
                }
            }
            SweepAction::View(v) => {
                let replan = (&v.key2, v.replicas) != (&self.view.key2, self.view.replicas);
                self.view = v;
                if replan {
                    let key = self.key().unwrap_or_else(|| sweep_key(config, None));
                    let unit = self.current.as_ref().map(|sw| sw.unit.clone());
                    self.replan(config, key, unit);
                }
            }
        }
        true
    }
}
