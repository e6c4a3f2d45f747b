//! The timeline's props taken into its state: the shared window joined, the outlined task, a
//! new trace (re-indexed over frames, `frame::Arrival`) and a span to inspect, each an effect
//! that asks for a frame.

use super::input::Cell;
use super::*;

/// The effects of the props (`link`, `highlight`, `trace`, `label` and `select`) on the
/// canvas's state; a new trace also clears the inspector's `selected` span.
#[hook]
pub(super) fn use_props(
    inner: &Cell,
    props: &TimelineProps,
    selected: &UseStateHandle<Option<usize>>,
    canvas: &NodeRef,
) {
    // Join the shared window (if any); leaving happens when this timeline is dropped.
    {
        let inner = inner.clone();
        use_effect_with(props.link.clone(), move |link| {
            if let Some(l) = link {
                let mut ls = l.0.borrow_mut();
                ls.members.retain(|m| m.strong_count() > 0);
                ls.members.push(Rc::downgrade(&inner));
            }
            if let Ok(mut st) = inner.try_borrow_mut() {
                st.link = link.clone();
                st.link_seen = (0, None);
            }
            request_redraw(&inner);
        });
    }

    // A task outlined or no longer: redraw (the prop was taken in above).
    {
        let inner = inner.clone();
        use_effect_with(props.highlight, move |_| request_redraw(&inner));
    }

    // A new trace (by identity) or label: re-index, fit, redraw (a large one over frames: `Arrival`).
    {
        let inner = inner.clone();
        let key = (Rc::as_ptr(&props.trace) as usize, props.label.clone());
        let trace = props.trace.clone();
        let keep_view = props.keep_view;
        let selected = selected.clone();
        use_effect_with(key, move |(_, label)| {
            selected.set(None);
            inner.borrow_mut().selected = None;
            inner.borrow_mut().receive(trace, label.to_string(), keep_view);
            request_redraw(&inner);
        });
    }

    // A span asked for from outside (`TimelineProps::select`): inspect it and show it. After
    // the trace's effect above, so a new trace's clearing does not undo it.
    {
        let (inner, selected, canvas) = (inner.clone(), selected.clone(), canvas.clone());
        use_effect_with(props.select, move |sel| {
            let Some((_, i)) = *sel else { return };
            // The span's lane, in CSS px from the canvas's top (a 40-CPU canvas is taller
            // than a screen: the page scrolls to the lane, the inspector below it).
            let mut lane_y = 0.0;
            if let Ok(mut st) = inner.try_borrow_mut() {
                // A trace still arriving (`frame::Arrival`, a stretch loaded for this span):
                // the view moves once it is adopted; the shown one is the old trace's.
                if st.pending.is_some() {
                    st.focus_after = Some(i);
                    st.selected = Some(i);
                } else if !st.focus(i) {
                    return;
                }
                let shown = st.pending.as_ref().map_or(&st.trace, |p| &p.0);
                let core = shown.spans.get(i).map(|s| s.core as usize);
                let lane = core.and_then(|c| st.index.lane_of_core.get(c).copied());
                if let (Some(l), Some(lane)) = (st.layout, lane) {
                    lane_y = l.band(lane, draw::Band::Main).0 / l.dpr;
                }
            }
            selected.set(Some(i));
            if let (Some(c), Some(w)) = (canvas.cast::<web_sys::Element>(), web_sys::window()) {
                let top = c.get_bounding_client_rect().top() + w.scroll_y().unwrap_or(0.0);
                w.scroll_to_with_x_and_y(w.scroll_x().unwrap_or(0.0), (top + lane_y - 80.0).max(0.0));
            }
            request_redraw(&inner);
        });
    }
}
