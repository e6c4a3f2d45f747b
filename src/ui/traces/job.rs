//! The trace jobs the worker runs (no yew or web-sys; tested natively): read a recorded
//! trace in chunks with progress, tell its format by content, and replay it under a config.
//!
//! A file arrives as a source of byte chunks (`execute`): in the worker it is the `File`
//! read piece by piece (`FileReaderSync` over `Blob.slice`, see `worker::trace_io`), natively and
//! on the main thread a string cut into `CHUNK_BYTES` pieces. Between chunks a
//! `Response::TraceProgress` goes out (bytes read of the file's size), so the page shows a
//! progress bar and the main thread does no parsing at all. The format is told from the
//! first bytes (`share::ftrace::detect`): a `trace.dat` (trace-cmd's binary) is kept whole and
//! read at the end (`share::ftrace::tracedat`, which needs the file's sections and pages), JSON
//! is this tool's Perfetto export (`share::perfetto_import`, which needs the whole text),
//! anything else is `trace-cmd report` / `trace_pipe` / `perf script` text
//! (`share::ftrace::model::Reader`, fed line by line as the chunks come).
//!
//! The last model read is kept (`CACHE`, by the page's file key), so a replay under another
//! config does not read the file again; a worker restarted since (Cancel) reads it again.

use std::cell::RefCell;
use std::rc::Rc;

use crate::engine::config::Config;
use crate::engine::trace::Trace;
use crate::share::ftrace::{self, model::Reader, Model};
use crate::share::perfetto_import;
use crate::ui::worker::protocol::Request;
use crate::ui::worker::protocol::Response;

/// At most this many spans + instants of a recording (or a replay) travel to the page: half
/// the live runs' `protocol::LIVE_TRACE_ITEMS`. A 48 MB trace cut at 200,000 items still cost the
/// main thread one task of 54-68 ms on its arrival (unpack, index, first frame; e2e
/// `traces.test.mjs` on a shared 2-core machine); at 100,000 none was over 50 ms. The table
/// and the diff always cover the whole file.
pub const TRACE_ITEMS: usize = 100_000;

/// Bytes read between two progress reports (about 10-20 ms of parsing in wasm).
pub const CHUNK_BYTES: usize = 1 << 20;

pub use crate::share::ftrace::{detect, Format};

/// How the panel names a format.
pub fn label(format: Format) -> &'static str {
    match format {
        Format::Text => "trace-cmd report / perf script text",
        Format::Perfetto => "schedscope Perfetto JSON",
        Format::TraceDat => "trace-cmd trace.dat",
        Format::Binary => "binary",
    }
}

/// The message for a file that is not read, and what to do instead.
pub fn refusal(format: Format) -> Option<String> {
    match format {
        Format::Binary => Some(
            "this is a binary file, not a trace. The page reads trace-cmd's trace.dat, `trace-cmd report` or \
             `trace_pipe` text, `perf script` text of sched events, and schedscope's own Perfetto JSON export."
                .into(),
        ),
        _ => None,
    }
}

// The answers' types are the protocol's (`Response::TraceOpened`/`TraceReplayed` carry them).
pub use crate::ui::worker::protocol::{Opened, Replayed};

thread_local! {
    /// The last model read, by file key.
    static CACHE: RefCell<Option<(String, Rc<Model>)>> = const { RefCell::new(None) };
}

/// A string as a source of chunks (cut at char boundaries).
pub fn chunks_of(text: &str) -> impl FnMut() -> Option<Vec<u8>> + '_ {
    let mut at = 0;
    move || {
        if at >= text.len() {
            return None;
        }
        let mut end = (at + CHUNK_BYTES).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let piece = text.as_bytes()[at..end].to_vec();
        at = end;
        Some(piece)
    }
}

/// UTF-8 text from byte chunks that may split a character (invalid bytes become U+FFFD).
#[derive(Default)]
struct Utf8 {
    carry: Vec<u8>,
}

impl Utf8 {
    fn feed(&mut self, bytes: &[u8], out: &mut String) {
        let mut buf = std::mem::take(&mut self.carry);
        buf.extend_from_slice(bytes);
        let mut rest = &buf[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(s);
                    return;
                }
                Err(e) => {
                    let (ok, bad) = rest.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(ok).unwrap_or_default());
                    match e.error_len() {
                        None => {
                            self.carry = bad.to_vec();
                            return;
                        }
                        Some(n) => {
                            out.push('\u{FFFD}');
                            rest = &bad[n..];
                        }
                    }
                }
            }
        }
    }

    fn finish(self, out: &mut String) {
        if !self.carry.is_empty() {
            out.push('\u{FFFD}');
        }
    }
}

/// A file read chunk by chunk (`push`), then `finish`ed: the worker feeds it from
/// `FileReaderSync` in one task (`read_source`), the page's fallback from `FileReader`
/// callbacks, one chunk a task (`web`), so both read a file the same way.
pub struct Stream {
    id: u64,
    total: u64,
    utf8: Utf8,
    reader: Reader,
    json: String,
    /// A trace.dat's bytes, read at `finish`.
    dat: Vec<u8>,
    format: Option<Format>,
    bytes: u64,
    text: String,
}

impl Stream {
    pub fn new(id: u64, total: u64) -> Stream {
        Stream {
            id,
            total,
            utf8: Utf8::default(),
            reader: Reader::default(),
            json: String::new(),
            dat: Vec::new(),
            format: None,
            bytes: 0,
            text: String::new(),
        }
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Tells the format from `head` (the file's first chunk) if it is not known yet: the
    /// page parses a chunk in pieces (`web`), and its format is told from the whole first
    /// chunk, as the worker's is.
    pub fn sniff(&mut self, head: &[u8]) {
        self.format.get_or_insert_with(|| detect(head));
    }

    /// Parses the next chunk; the progress report to show, or why the file is refused.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Response, String> {
        self.bytes += chunk.len() as u64;
        let f = *self.format.get_or_insert_with(|| detect(chunk));
        if let Some(why) = refusal(f) {
            return Err(why);
        }
        if f == Format::TraceDat {
            self.dat.extend_from_slice(chunk);
            return Ok(self.progress());
        }
        self.text.clear();
        self.utf8.feed(chunk, &mut self.text);
        match f {
            Format::Perfetto => self.json.push_str(&self.text),
            _ => self.reader.push(&self.text),
        }
        Ok(self.progress())
    }

    fn progress(&self) -> Response {
        Response::TraceProgress { id: self.id, bytes: self.bytes, total: self.total.max(self.bytes) }
    }

    /// The model read and its format, and the bytes read.
    pub fn finish(self) -> Result<(Model, Format, u64), String> {
        let Stream { utf8, mut reader, mut json, dat, format, bytes, mut text, .. } = self;
        text.clear();
        utf8.finish(&mut text);
        let format = format.unwrap_or(Format::Text);
        let model = match format {
            Format::TraceDat => ftrace::tracedat::read(&dat).map_err(|e| e.message)?,
            Format::Perfetto => {
                json.push_str(&text);
                let t = perfetto_import::to_trace(&json).map_err(|e| e.message)?;
                ftrace::read(&ftrace::export::to_text(&t, None)).map_err(|e| e.message)?
            }
            _ => {
                reader.push(&text);
                if bytes == 0 {
                    return Err("the file is empty".into());
                }
                reader.finish().map_err(|e| e.message)?
            }
        };
        Ok((model, format, bytes))
    }
}

/// Reads a whole file from `next` (`total` bytes), reporting progress; the model and its format.
pub fn read_source(
    id: u64,
    next: &mut dyn FnMut() -> Option<Vec<u8>>,
    total: u64,
    progress: &mut dyn FnMut(Response),
) -> Result<(Model, Format, u64), String> {
    let mut s = Stream::new(id, total);
    while let Some(chunk) = next() {
        progress(s.push(&chunk)?);
    }
    s.finish()
}

/// Keeps the first `max` spans and instants in time (`TRACE_ITEMS`, so a 100 MB recording
/// does not cost the main thread a long unpack and index) and ends the trace there; returns
/// where it was cut (the panel says so: the table and the diff cover the whole file).
pub fn bound(t: &mut Trace, max: usize) -> Option<u64> {
    if t.spans.len() + t.instants.len() <= max {
        return None;
    }
    let mut times: Vec<u64> = t.spans.iter().map(|s| s.start).chain(t.instants.iter().map(|i| i.time)).collect();
    times.select_nth_unstable(max);
    let cut = times[max];
    t.spans.retain(|s| s.start < cut);
    t.instants.retain(|i| i.time < cut);
    for s in &mut t.spans {
        s.end = s.end.min(cut);
    }
    t.end = t.end.min(cut);
    Some(cut)
}

/// The timeline of an opened trace: the recording as a `Trace`, cut to `TRACE_ITEMS`.
pub type Timeline = (Trace, Option<u64>);

/// The first half of opening a read file (`complete_open` is the rest): the timeline of
/// its model, when it was read. The page runs the two as two tasks.
pub fn timeline(read: &Result<(Model, Format, u64), String>) -> Option<Timeline> {
    let (m, _, _) = read.as_ref().ok()?;
    Some(timeline_of(m))
}

fn timeline_of(m: &Model) -> Timeline {
    let mut trace = ftrace::export::to_trace(m);
    let cut = bound(&mut trace, TRACE_ITEMS);
    in_order(&mut trace);
    (trace, cut)
}

/// Puts spans in (start, end) order and instants in time order, here in the worker (an
/// import's export lists spans task by task): the page's timeline then finds each lane in
/// order (`timeline::draw::IndexBuilder` sorts only a lane that is not), and needs no sort
/// of its own, which would be one more long loop in the page's unoptimised first run.
pub fn in_order(t: &mut Trace) {
    t.spans.sort_by_key(|s| (s.start, s.end));
    t.instants.sort_by_key(|i| i.time);
}

fn opened(m: &Model, format: Format, bytes: u64, timeline: Option<Timeline>) -> Opened {
    let (trace, cut) = timeline.unwrap_or_else(|| timeline_of(m));
    Opened {
        format: label(format).to_string(),
        bytes,
        stats: m.stats(),
        cpus: m.cpus,
        wakes: m.wakes.len() as u64,
        trace,
        cut,
    }
}

/// Runs a trace request (`Request::TraceOpen` / `TraceReplay`) with its file as `next`.
pub fn execute(
    req: &Request,
    next: &mut dyn FnMut() -> Option<Vec<u8>>,
    total: u64,
    progress: &mut dyn FnMut(Response),
) -> Response {
    let read = needs_read(req).then(|| read_source(req_id(req), next, total, progress));
    complete(req, read)
}

fn req_id(req: &Request) -> u64 {
    match req {
        Request::TraceOpen { id, .. } | Request::TraceReplay { id, .. } => *id,
        _ => 0,
    }
}

/// Whether `req` needs its file read: an open, or a replay whose model is not cached.
pub fn needs_read(req: &Request) -> bool {
    match req {
        Request::TraceOpen { .. } => true,
        Request::TraceReplay { key, .. } => CACHE.with(|c| c.borrow().as_ref().is_none_or(|(k, _)| k != key)),
        _ => false,
    }
}

/// The answer to `req` once its file is `read` (`None`: not needed, `needs_read`).
pub fn complete(req: &Request, read: Option<Result<(Model, Format, u64), String>>) -> Response {
    complete_open(req, read, None)
}

/// `complete`, with the `timeline` of an open already made (`timeline`; `None`: made here).
pub fn complete_open(
    req: &Request,
    read: Option<Result<(Model, Format, u64), String>>,
    timeline: Option<Timeline>,
) -> Response {
    let read = read.unwrap_or_else(|| Err("the file was not read".into()));
    match req {
        Request::TraceOpen { id, key, .. } => {
            let result = read.map(|(m, f, bytes)| {
                let o = opened(&m, f, bytes, timeline);
                CACHE.with(|c| *c.borrow_mut() = Some((key.clone(), Rc::new(m))));
                o
            });
            Response::TraceOpened { id: *id, result }
        }
        Request::TraceReplay { id, key, config, .. } => {
            let cached = CACHE.with(|c| c.borrow().as_ref().filter(|(k, _)| k == key).map(|(_, m)| m.clone()));
            let model = match cached {
                Some(m) => Ok(m),
                None => read.map(|(m, _, _)| {
                    let m = Rc::new(m);
                    CACHE.with(|c| *c.borrow_mut() = Some((key.clone(), m.clone())));
                    m
                }),
            };
            let result = model.and_then(|m| replay(&m, config));
            Response::TraceReplayed { id: *id, result }
        }
        _ => Response::Garbled { error: "not a trace request".into() },
    }
}

/// `m` replayed under `base` (the page's config, with the trace's CPU count and time limit).
pub fn replay(m: &Model, base: &Config) -> Result<Replayed, String> {
    let config = ftrace::replay_config(m, base);
    let (diff, out) = ftrace::replay_and_diff(m, &config)?;
    let mut trace = out.trace;
    trace.decisions = Default::default();
    if m.cstates.is_empty() {
        one_idle_state(&mut trace);
    }
    let cut = bound(&mut trace, TRACE_ITEMS);
    in_order(&mut trace);
    Ok(Replayed { diff, trace, cut, config, events: out.metrics.events })
}

/// Draws every idle span of `t` as one state, "idle": a recording without `cpu_idle` events
/// draws its idle so (`ftrace::export::to_trace`), and the replay beside it must use the
/// same colour for the same thing, not its C-states' shades (issue 29: grey idle in the
/// recording, C6 plum in the simulation).
pub fn one_idle_state(t: &mut Trace) {
    t.idle_states = vec!["idle".into()];
    for s in &mut t.spans {
        if let crate::engine::trace::SpanKind::Idle { state } = &mut s.kind {
            *state = 0;
        }
    }
}

/// The worker's handler for a trace request whose file travels beside it: the request's
/// bytes in (`ui::worker::wire`), the file as `next`; the response out (not yet encoded: the
/// caller may replace its result when the file could not be read).
pub fn handle_with_file(
    bytes: &[u8],
    next: &mut dyn FnMut() -> Option<Vec<u8>>,
    total: u64,
    progress: &mut dyn FnMut(Vec<u8>),
) -> Response {
    use crate::ui::worker::wire::{parse_request, to_bytes};
    match parse_request(bytes) {
        Ok(req) => execute(&req, next, total, &mut |p| progress(to_bytes(&p))),
        Err(error) => Response::Garbled { error },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120
b-2 [000] 1.000500: sched_wakeup: comm=a pid=1 prio=120 target_cpu=001
<idle>-0 [001] 1.000600: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120
b-2 [000] 1.002000: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
";

    #[test]
    fn an_opened_timeline_comes_in_time_order_with_the_same_items() {
        // The page's index skips its sort only for a trace in order (`TraceIndex::new`).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/traces/real_lisa_juno.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let read = Ok((ftrace::read(&text).unwrap(), Format::Text, text.len() as u64));
        let (t, cut) = timeline(&read).unwrap();
        assert_eq!(cut, None);
        let key = |s: &crate::engine::trace::Span| (s.start, s.end);
        assert!(t.spans.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
        assert!(t.instants.windows(2).all(|w| w[0].time <= w[1].time));
        let plain = ftrace::export::to_trace(&read.as_ref().unwrap().0);
        assert!(!plain.spans.windows(2).all(|w| key(&w[0]) <= key(&w[1])), "the export alone is not in order");
        let items = |t: &Trace| {
            let mut s: Vec<String> = t.spans.iter().map(|s| format!("{s:?}")).collect();
            s.extend(t.instants.iter().map(|i| format!("{i:?}")));
            s.sort();
            s
        };
        assert_eq!(items(&t), items(&plain));
    }

    #[test]
    fn the_juno_recording_replays_on_the_arm_profile_with_its_six_cpus() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/traces/real_lisa_juno.txt");
        let m = ftrace::read(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut c = Config::default();
        c.set("cpu", "rpi5").unwrap();
        let r = replay(&m, &c).expect("replays on rpi5");
        assert_eq!((r.config.cpu.as_str(), r.config.cores), ("rpi5", 6));
        assert_eq!(r.trace.idle_states, vec!["idle".to_string()], "as the recording draws idle");
    }

    #[test]
    fn formats_are_told_by_content() {
        assert_eq!(detect(b"\x17\x08\x44tracing6\0"), Format::TraceDat);
        assert_eq!(refusal(Format::TraceDat), None, "a trace.dat is read");
        assert!(refusal(Format::Binary).unwrap().contains("not a trace"));
        assert_eq!(detect(b"  {\"traceEvents\":[]}"), Format::Perfetto);
        assert_eq!(detect(b"\x7fELF\0\0\0"), Format::Binary);
        assert_eq!(detect(TEXT.as_bytes()), Format::Text);
    }

    #[test]
    fn a_trace_read_in_chunks_reports_progress_and_equals_one_read() {
        let whole = ftrace::read(TEXT).unwrap();
        // Chunks of 7 bytes split lines and (with the é) a character.
        let text = TEXT.replace("comm=b ", "comm=bé ");
        let bytes = text.as_bytes();
        let mut at = 0;
        let mut next = || {
            let end = (at + 7).min(bytes.len());
            let c = (at < bytes.len()).then(|| bytes[at..end].to_vec());
            at = end;
            c
        };
        let mut reports = Vec::new();
        let (m, f, n) = read_source(3, &mut next, bytes.len() as u64, &mut |r| reports.push(r)).unwrap();
        assert_eq!((f, n), (Format::Text, bytes.len() as u64));
        assert_eq!(m.stats().tasks.len(), whole.stats().tasks.len());
        assert!(m.tasks.iter().any(|t| t.comm == "bé"));
        assert_eq!(reports.len(), bytes.len().div_ceil(7));
        assert_eq!(reports.last(), Some(&Response::TraceProgress { id: 3, bytes: n, total: n }));
    }

    /// Issue 30: the page reads a trace.dat itself (it used to refuse it with the
    /// `trace-cmd report` command), in the worker's chunks, to the CLI's figures; a
    /// zstd-compressed one too.
    #[test]
    fn a_trace_dat_read_in_chunks_equals_the_cli_read() {
        for name in ["real_trappy_trace_idle.dat", "real_trappy_raw_trace.v7.dat", "real_trappy_raw_trace.zstd.dat"] {
            let path = format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(path).unwrap();
            // At least four pieces (the compressed file is smaller than a chunk).
            let (mut at, step) = (0, (CHUNK_BYTES / 3).min(bytes.len() / 4));
            let mut next = || {
                let end = (at + step).min(bytes.len());
                let c = (at < bytes.len()).then(|| bytes[at..end].to_vec());
                at = end;
                c
            };
            let mut reports = 0;
            let (m, f, n) = read_source(7, &mut next, bytes.len() as u64, &mut |_| reports += 1).unwrap();
            assert_eq!((f, n), (Format::TraceDat, bytes.len() as u64), "{name}");
            assert!(reports >= 3, "{name}: progress as it reads ({reports} reports)");
            let cli = ftrace::read_bytes(&bytes).unwrap().stats();
            assert!(!cli.tasks.is_empty(), "{name}");
            assert_eq!(m.stats(), cli, "{name}");
        }
    }

    #[test]
    fn a_chunk_parsed_in_pieces_gives_the_answer_of_the_chunk_parsed_whole() {
        // The page (`web`) reads a chunk, tells its format from all of it, then parses it in
        // pieces of its time budget; the worker parses each chunk whole.
        let text = TEXT.replace("comm=b ", "comm=bé ");
        let bytes = text.as_bytes();
        let open = Request::TraceOpen { id: 5, key: "p".into(), text: String::new() };
        let mut whole = Stream::new(5, bytes.len() as u64);
        whole.push(bytes).unwrap();
        let mut pieces = Stream::new(5, bytes.len() as u64);
        pieces.sniff(bytes);
        for p in bytes.chunks(5) {
            pieces.push(p).unwrap();
        }
        assert_eq!(pieces.bytes(), bytes.len() as u64);
        let (a, b) = (complete(&open, Some(whole.finish())), complete(&open, Some(pieces.finish())));
        assert!(matches!(&a, Response::TraceOpened { result: Ok(_), .. }), "{a:?}");
        assert_eq!(a, b);
        // The page's two steps (timeline, then the rest) give the same answer.
        let mut again = Stream::new(5, bytes.len() as u64);
        again.push(bytes).unwrap();
        let read = again.finish();
        let t = timeline(&read);
        assert!(t.is_some());
        assert_eq!(complete_open(&open, Some(read), t), a);
        // The format comes from the whole chunk: a first piece of blanks does not make it text.
        let json = format!("{}{{\"traceEvents\":[]}}", " ".repeat(8));
        let mut s = Stream::new(6, json.len() as u64);
        s.sniff(json.as_bytes());
        s.push(&json.as_bytes()[..4]).unwrap();
        assert_eq!(s.format, Some(Format::Perfetto));
    }

    #[test]
    fn open_then_replay_uses_the_cached_model_and_errors_keep_their_line() {
        let open = Request::TraceOpen { id: 1, key: "k".into(), text: TEXT.into() };
        let Response::TraceOpened { result: Ok(o), .. } = crate::ui::worker::execute::execute(&open) else { panic!() };
        assert_eq!((o.cpus, o.stats.tasks.len()), (2, 2));
        assert_eq!(o.trace.tasks.len(), 2);
        // The replay finds the model without the text.
        let rep = Request::TraceReplay { id: 2, key: "k".into(), config: Config::default(), text: String::new() };
        let Response::TraceReplayed { result: Ok(r), .. } = crate::ui::worker::execute::execute(&rep) else { panic!() };
        assert_eq!(r.diff.tasks.len(), 2);
        assert_eq!(r.config.cores, 2);
        // The recording has no cpu_idle events: the replay draws idle as the recording does.
        assert_eq!(o.trace.idle_states, vec!["idle".to_string()]);
        assert_eq!(r.trace.idle_states, o.trace.idle_states, "one idle convention in the pair");
        assert!(r
            .trace
            .spans
            .iter()
            .all(|s| !matches!(s.kind, crate::engine::trace::SpanKind::Idle { state } if state > 0)));
        let bad = Request::TraceOpen { id: 3, key: "x".into(), text: "hello\nworld\n".into() };
        let Response::TraceOpened { result: Err(e), .. } = crate::ui::worker::execute::execute(&bad) else { panic!() };
        assert!(e.contains("line 1: expected"), "{e}");
        let dat = Request::TraceOpen { id: 4, key: "d".into(), text: "\x17\x08\x44tracing6".into() };
        let Response::TraceOpened { result: Err(e), .. } = crate::ui::worker::execute::execute(&dat) else { panic!() };
        assert!(e.starts_with("trace.dat: cut short"), "a trace.dat cut after its magic: {e}");
    }

    #[test]
    fn a_large_trace_is_cut_to_the_first_items_in_time() {
        use crate::engine::trace::{Span, SpanKind};
        let mut t = Trace::default();
        for k in 0..10u64 {
            t.spans.push(Span {
                core: 0,
                start: 10 * (9 - k),
                end: 10 * (9 - k) + 15,
                kind: SpanKind::Idle { state: 0 },
            });
        }
        t.end = 105;
        assert_eq!(bound(&mut t, 4), Some(40));
        assert_eq!(t.end, 40);
        let mut starts: Vec<u64> = t.spans.iter().map(|s| s.start).collect();
        starts.sort_unstable();
        assert_eq!(starts, vec![0, 10, 20, 30]);
        assert!(t.spans.iter().all(|s| s.end <= 40));
    }

    #[test]
    fn an_opened_trace_crosses_the_wire_with_its_items() {
        let open = Request::TraceOpen { id: 1, key: "w".into(), text: TEXT.into() };
        let answer = crate::ui::worker::execute::handle(&crate::ui::worker::wire::to_bytes(&open));
        let resp = crate::ui::worker::wire::parse_response(&answer);
        let Response::TraceOpened { result: Ok(o), .. } = resp else { panic!("{resp:?}") };
        assert!(!o.trace.spans.is_empty());
    }
}
