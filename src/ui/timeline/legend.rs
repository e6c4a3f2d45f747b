//! The timeline's legend (task and group colours, overheads, idle states, marks) and its help line.

use yew::prelude::*;

use super::draw;
use crate::engine::trace::{Overhead, Trace};

fn swatch(colour: &str, border: bool) -> Html {
    let b = if border { "1px solid #999" } else { "1px solid transparent" };
    html! { <span class="timeline-swatch" aria-hidden="true" style={format!("display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle;background:{colour};border:{b}")}></span> }
}

fn item(colours: Html, text: String) -> Html {
    html! { <li style="display:inline-block;margin-right:1em">{colours}{text}</li> }
}

/// The legend of what `trace` draws, in the page's colours (`dark`), then the help line.
pub(super) fn legend(trace: &Trace, colours: &draw::TaskColours, dark: bool) -> Html {
    let idle_count = trace.idle_states.len();
    let chrome = if dark { &draw::DARK } else { &draw::LIGHT };
    let label_text = if colours.by_group { "Task groups (user, sys)" } else { "Tasks (user, sys)" };
    html! {
        <>
            <ul class="timeline-legend" aria-label="Legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{label_text}{": "}</strong></li>
                { for colours.legend.iter().map(|(slot, name)| item(
                    html! { <>{swatch(draw::TASK_COLOURS[*slot as usize], false)}{swatch(draw::SYS_COLOURS[*slot as usize], false)}</> },
                    name.clone())) }
            </ul>
            <ul class="timeline-legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Overheads (lower band): "}</strong></li>
                { for Overhead::ALL.iter().map(|k| item(swatch(draw::OVERHEAD_COLOURS[draw::overhead_index(*k)], false), draw::overhead_label(*k).to_string())) }
            </ul>
            <ul class="timeline-legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Idle: "}</strong></li>
                { for trace.idle_states.iter().enumerate().map(|(i, name)| item(
                    swatch(chrome.idle[draw::idle_shade(i as u8, idle_count) as usize], true), name.clone())) }
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Marks: "}</strong></li>
                { item(swatch(chrome.tick_mark, false), draw::MARK_LABELS[0].into()) }
                { item(swatch(draw::HRTICK_MARK, false), draw::MARK_LABELS[1].into()) }
                { item(swatch(chrome.wakeup_arrow, false), draw::MARK_LABELS[2].into()) }
                { item(swatch(draw::IPI_ARROW, false), draw::MARK_LABELS[3].into()) }
                { item(swatch(chrome.migrate_arrow, false), draw::MARK_LABELS[4].into()) }
            </ul>
            <p class="timeline-help" style="font-size:0.8em;margin:0.2em 0">
                {"Drag or use \u{2190} \u{2192} (Home, End) to pan; wheel, pinch, + and \u{2212} to zoom; Shift-drag (or Zoom to range) to zoom to a stretch; the strip below is the whole run: click it to go there; hover a span for details; click or tap it (or Enter, [ and ]) to inspect why, then Zoom to selection (Z)."}
            </p>
        </>
    }
}
