//! A run's spans and instants on the wire (`wire`'s `Trace`): packed little-endian records
//! (`pack_items`), 24 and 18 bytes each, read without a check per field. Tens of thousands
//! of them as JSON cost the page a UTF-16 copy and a parse of megabytes per answer, which
//! froze the main thread for 100 ms and more while a knob was dragged. Pure; tested natively.

use crate::engine::trace::{Instant, InstantKind, Overhead, Span, SpanKind};

const PACK_MAGIC: &[u8; 4] = b"SSt1";
const SPAN_BYTES: usize = 24;
const INSTANT_BYTES: usize = 18;

/// A trace's spans and instants as bytes: a header (magic, span count, instant count) then
/// fixed-size little-endian records. Empty when there is nothing.
pub fn pack_items(spans: &[Span], instants: &[Instant]) -> Vec<u8> {
    if spans.is_empty() && instants.is_empty() {
        return Vec::new();
    }
    let mut b = Vec::with_capacity(12 + spans.len() * SPAN_BYTES + instants.len() * INSTANT_BYTES);
    b.extend_from_slice(PACK_MAGIC);
    b.extend_from_slice(&(spans.len() as u32).to_le_bytes());
    b.extend_from_slice(&(instants.len() as u32).to_le_bytes());
    for s in spans {
        let (tag, small, task) = match s.kind {
            SpanKind::Run { task, sys } => (0u8, sys as u8, task),
            SpanKind::Idle { state } => (1, state, 0),
            SpanKind::Overhead { kind } => (2, Overhead::ALL.iter().position(|o| *o == kind).unwrap_or(0) as u8, 0),
        };
        b.extend_from_slice(&s.core.to_le_bytes());
        b.extend_from_slice(&[tag, small]);
        b.extend_from_slice(&task.to_le_bytes());
        b.extend_from_slice(&s.start.to_le_bytes());
        b.extend_from_slice(&s.end.to_le_bytes());
    }
    for i in instants {
        let (tag, from, task) = match i.kind {
            InstantKind::Tick => (0u8, 0u16, 0u32),
            InstantKind::Hrtick => (1, 0, 0),
            InstantKind::Ipi { from } => (2, from, 0),
            InstantKind::Wakeup { from, task } => (3, from, task),
            InstantKind::Migrate { from, task } => (4, from, task),
        };
        b.extend_from_slice(&i.core.to_le_bytes());
        b.extend_from_slice(&[tag, 0]);
        b.extend_from_slice(&from.to_le_bytes());
        b.extend_from_slice(&task.to_le_bytes());
        b.extend_from_slice(&i.time.to_le_bytes());
    }
    b
}

/// Reads what `pack_items` wrote (nothing from an empty buffer); an error says what is wrong.
pub fn unpack_items(b: &[u8]) -> Result<(Vec<Span>, Vec<Instant>), &'static str> {
    if b.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    if b.len() < 12 || &b[..4] != PACK_MAGIC {
        return Err("packed trace: bad header");
    }
    let (ns, ni) = (u32_at(4) as usize, u32_at(8) as usize);
    let want = ns.checked_mul(SPAN_BYTES).zip(ni.checked_mul(INSTANT_BYTES)).and_then(|(a, c)| a.checked_add(c));
    if want.and_then(|w| w.checked_add(12)) != Some(b.len()) {
        return Err("packed trace: its length does not match its counts");
    }
    // Fixed-size records read through arrays: no bounds check per field.
    let (span_bytes, instant_bytes) = b[12..].split_at(ns * SPAN_BYTES);
    let u16_of = |r: &[u8], o: usize| u16::from_le_bytes([r[o], r[o + 1]]);
    let mut spans = Vec::with_capacity(ns);
    for r in span_bytes.chunks_exact(SPAN_BYTES) {
        let r: &[u8; SPAN_BYTES] = r.try_into().map_err(|_| "packed trace: short span")?;
        let (tag, small) = (r[2], r[3]);
        let task = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
        let kind = match tag {
            0 => SpanKind::Run { task, sys: small != 0 },
            1 => SpanKind::Idle { state: small },
            2 => match Overhead::ALL.get(small as usize) {
                Some(&kind) => SpanKind::Overhead { kind },
                None => return Err("packed trace: a span has an unknown overhead kind"),
            },
            _ => return Err("packed trace: a span has an unknown kind"),
        };
        let start = u64::from_le_bytes([r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]]);
        let end = u64::from_le_bytes([r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23]]);
        spans.push(Span { core: u16_of(r, 0), start, end, kind });
    }
    let mut instants = Vec::with_capacity(ni);
    for r in instant_bytes.chunks_exact(INSTANT_BYTES) {
        let r: &[u8; INSTANT_BYTES] = r.try_into().map_err(|_| "packed trace: short instant")?;
        let (from, task) = (u16_of(r, 4), u32::from_le_bytes([r[6], r[7], r[8], r[9]]));
        let kind = match r[2] {
            0 => InstantKind::Tick,
            1 => InstantKind::Hrtick,
            2 => InstantKind::Ipi { from },
            3 => InstantKind::Wakeup { from, task },
            4 => InstantKind::Migrate { from, task },
            _ => return Err("packed trace: an instant has an unknown kind"),
        };
        let time = u64::from_le_bytes([r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17]]);
        instants.push(Instant { core: u16_of(r, 0), time, kind });
    }
    Ok((spans, instants))
}
