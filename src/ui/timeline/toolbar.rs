//! The timeline's toolbar: zoom, fit, zoom to a range or the selection, play and speed, Save
//! PNG, the counter tracks' toggle and the idle lanes' toggle.

use super::input::{self, act, Cell};
use super::*;

/// The component's state the toolbar shows and changes.
pub(super) struct Toolbar<'a> {
    pub inner: &'a Cell,
    pub select_mode: &'a UseStateHandle<bool>,
    pub selected: &'a UseStateHandle<Option<usize>>,
    pub playing: &'a UseStateHandle<bool>,
    pub speed: &'a UseStateHandle<usize>,
    pub counters_on: bool,
    pub on_counters: Callback<counters::Edit>,
    /// CPUs on which no task ran (their toggle shows from two).
    pub idle_cores: usize,
    pub collapse: &'a UseStateHandle<bool>,
}

pub(super) fn toolbar(t: Toolbar) -> Html {
    let Toolbar { inner, select_mode, selected, playing, speed, counters_on, on_counters, idle_cores, collapse } = t;
    html! {
        <div class="timeline-toolbar" role="toolbar" aria-label="Timeline controls">
            <button type="button" onclick={act(inner, |st| st.zoom(ZOOM_STEP, None))} aria-label="Zoom in" title="Zoom in (+ or up arrow)">{"+"}</button>
            <button type="button" onclick={act(inner, |st| st.zoom(1.0 / ZOOM_STEP, None))} aria-label="Zoom out" title="Zoom out (- or down arrow)">{"\u{2212}"}</button>
            <button type="button" onclick={act(inner, |st| st.view = st.fit_view)} title="Show the whole trace (F)">{"Fit"}</button>
            <button type="button" class="select-zoom" onclick={input::toggle_select(inner, select_mode)} aria-pressed={(**select_mode).to_string()}
                title="Drag across the timeline to zoom to that stretch (or hold Shift while dragging)">{"Zoom to range"}</button>
            if selected.is_some() {
                <button type="button" class="zoom-to" onclick={input::zoom_to_selected(inner, selected)}
                    title="Zoom to the selected span: a woken run with its whole wakeup latency">{"Zoom to selection"}</button>
            }
            <button type="button" onclick={input::toggle_play(inner, playing)} aria-pressed={(**playing).to_string()}>
                { if **playing { "Pause" } else { "Play" } }
            </button>
            <label>{" Speed "}
                <select onchange={input::speed(inner, speed)} aria-label="Playback speed (simulated time per second)">
                    { for draw::SPEEDS.iter().enumerate().map(|(i, (name, _))| html! {
                        <option value={i.to_string()} selected={i == **speed}>{*name}</option>
                    }) }
                </select>
            </label>
            <button type="button" onclick={input::save_png(inner)} title="Download the current view as a PNG image">{"Save PNG"}</button>
            { counters::toggle(counters_on, on_counters.clone()) }
            if idle_cores >= 2 {
                <button type="button" class="idle-lanes" onclick={input::toggle_idle(inner, collapse)} aria-pressed={(!**collapse).to_string()}
                    title="CPUs on which no task ran: one lane, or a lane each">
                    { if **collapse { format!("Show {idle_cores} idle CPUs") } else { "Collapse idle CPUs".to_string() } }
                </button>
            }
        </div>
    }
}
