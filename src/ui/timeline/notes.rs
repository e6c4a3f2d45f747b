//! The notes under the timeline (pure): what stretch of a cut or windowed trace it shows, and why.

use crate::engine::trace::Trace;
use crate::ui::common::format::{count, duration};
use crate::ui::timeline::{draw, window};
use crate::ui::worker::protocol::{LIVE_TRACE_ITEMS, PREVIEW_TRACE_ITEMS};

/// The note for a trace that does not cover its whole run (None: it does). `preview`,
/// `partial`: a preview's trace, cut by the preview's event budget; `can_window`: panning
/// past the recorded stretch records that part again.
pub fn stretch(trace: &Trace, preview: bool, partial: bool, can_window: bool) -> Option<String> {
    if trace.truncated {
        Some(if preview {
            format!(
                "The timeline shows the first {} of {}: a preview keeps at most {} spans and marks. {}",
                duration(draw::recorded_end(trace)),
                duration(trace.end),
                count(PREVIEW_TRACE_ITEMS as u64),
                if partial {
                    "The preview itself stops early; the full run follows."
                } else {
                    "The figures cover the whole run; the full timeline follows."
                },
            )
        } else {
            let (from, to) = window::recorded(trace);
            format!(
                "The timeline shows {} of {}: the live trace keeps at most {} spans and marks. The figures cover the whole run.{}",
                if from == 0 {
                    format!("the first {}", duration(to))
                } else {
                    format!("{} to {}", duration(from), duration(to))
                },
                duration(trace.end),
                count(LIVE_TRACE_ITEMS as u64),
                if can_window {
                    " Zoom in and pan past the recorded stretch to record that part of the run instead (the run is simulated again, to the same figures)."
                } else {
                    ""
                },
            )
        })
    } else if trace.start > 0 {
        Some(format!(
            "The timeline shows {} to the end ({}): pan back before it to record that part again.",
            duration(trace.start),
            duration(trace.end),
        ))
    } else {
        None
    }
}
