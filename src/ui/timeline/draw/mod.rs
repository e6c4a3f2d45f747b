//! The timeline's drawing model: view maths, level of detail, axis ticks, hit tests (no web imports).
//!
//! `timeline.rs` (the Yew component) owns the canvas and the event handlers; everything it
//! draws comes from here as a [`Scene`]: filled rects batched by colour, stroked segments,
//! triangles and texts, all in *device* pixels (CSS pixels times `devicePixelRatio`), so the
//! component only replays the batches. That keeps every decision testable natively.
//!
//! Level of detail: [`TraceIndex`] sorts each core's spans by start once per trace (with a
//! running maximum of their ends, so a binary search finds the first span that reaches into
//! the view even when spans nest). For a view, each lane has two bands (run/idle on top,
//! overheads below) and every band is reduced to one colour per pixel column: each span adds
//! its coverage of each column it touches, the colour with the most coverage wins, and equal
//! neighbouring columns merge into one rect. A band therefore never yields more rects than
//! it has columns, however many spans are in view, and every column a visible span touches
//! is painted (by that span, or by one that covers more of the column).
//!
//! The page's wasm is built for size (`wasm-ui` profile, opt-level z), where LLVM inlines
//! almost nothing: the per-span helpers of that reduction are `#[inline(always)]`, which cut
//! the scene of a 100,000-item import from 12-18 ms to 3-5 ms in Chromium.
//!
//! One file per part: `colours`, `index`, `geometry` (view, layout, axis), `lod` (level of
//! detail and marks), `scene` (the display list and the PNG legend) and `hit` (hit testing,
//! tooltips, overlays); all re-exported here, so callers name `draw::X`.

use crate::engine::order;
use crate::engine::time::{Ns, MS, SEC, US};
use crate::engine::trace::{InstantKind, Overhead, Span, SpanKind, Trace};

mod colours;
mod geometry;
mod hit;
mod index;
mod lod;
mod scene;
#[cfg(test)]
mod tests;

pub use colours::*;
pub use geometry::*;
pub use hit::*;
pub use index::*;
pub use lod::*;
pub use scene::*;
