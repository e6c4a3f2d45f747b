//! Who waits on a CPU's runqueue at an instant, from the trace's decision records (pure):
//! the playback cursor's readout (`draw::play_cursor`) asks it.

use crate::engine::time::Ns;
use crate::engine::trace::Trace;

/// The tasks waiting in `core`'s runqueue at `t` (not the one running), from the decision
/// records: the queue at the core's last pick before `t` less the task it chose, plus the
/// tasks woken onto it since that had not run by `t`; empty after an idle entry. None where
/// the records do not reach (`t` after the last record the trace holds, or no pick yet).
/// A simplification: a task that left the queue without a pick (it migrated) still counts
/// until the next pick.
pub fn runqueue_at(trace: &Trace, core: u16, t: Ns) -> Option<Vec<u32>> {
    let d = &trace.decisions;
    let last = d.picks.iter().map(|p| p.time).chain(d.idles.iter().map(|i| i.time)).max()?;
    if t > last {
        return None;
    }
    let pick = d.picks.iter().filter(|p| p.core == core && p.time <= t).max_by_key(|p| p.time)?;
    if d.idles.iter().any(|i| i.core == core && i.time > pick.time && i.time <= t) {
        return Some(Vec::new());
    }
    let mut waiting: Vec<u32> = pick.queue.iter().map(|e| e.task).filter(|&k| k != pick.chosen).collect();
    for w in d.wakeups.iter().filter(|w| w.target == core && w.time > pick.time && w.time <= t) {
        if w.ran_at.is_none_or(|at| at > t) && !waiting.contains(&w.task) && w.task != pick.chosen {
            waiting.push(w.task);
        }
    }
    Some(waiting)
}
