//! trace-cmd's binary `trace.dat`, read natively (no `trace-cmd` needed): file versions 6
//! and 7, as trace-cmd's `Documentation/trace-cmd/trace-cmd.dat.v6.5.txt` and `.v7.5.txt`
//! describe them and `lib/trace-cmd/trace-input.c` reads them.
//!
//! The file holds the kernel's own descriptions (`header_page`, each event's `format`
//! text with its fields' offsets and sizes, `saved_cmdlines`) and, per CPU, the ftrace
//! ring buffer's pages copied as they were (`kernel/trace/ring_buffer.c`): a page is a
//! 64-bit timestamp, a `commit` word (a `long` of the traced kernel: its size is read from
//! `header_page`; the low 27 bits are the bytes of data, bit 31 says events were lost),
//! then events. An event is a 32-bit header, `type_len` (5 bits) and `time_delta` (27
//! bits; which bits is the file's endianness, as libtraceevent's `kbuffer-parse.c` reads
//! them): `type_len` 1-28 is a data record of `type_len * 4` bytes, 0 a data record whose
//! length is the next word (that word included), 29 padding (or a discarded event), 30 a
//! time extend (`delta | next_word << 27`), 31 an absolute time stamp. Every record's
//! time is the page's timestamp plus the deltas so far.
//!
//! A data record starts with the common fields (`common_type` names its event format);
//! the events the model uses are decoded by their format's field offsets: `sched_switch`,
//! `sched_wakeup`, `sched_wakeup_new`, `sched_waking`, `sched_migrate_task`,
//! `sched_process_exit`, `cpu_idle`, `ipi_*` (its target CPU when the event has a `cpu`
//! field), `irq_handler_entry` of an `IPI` (as the text reader reads it), others counted
//! as skipped by name. `prev_state` is turned into a letter as the
//! file's own `print fmt` says (its `{ 0x1, "S" }` pairs: the state bits of the kernel
//! that wrote it; no bit set is `R`), so 64 is `x` (dead) on 4.8 and `P` (parked) on 4.14,
//! exactly as `trace-cmd report` prints them.
//!
//! Version 7 keeps the same pieces in sections found through options (`BUFFER` for the
//! per-CPU data of the top instance, `CPUCOUNT`, `HEADER_INFO`, `EVENT_FORMATS`,
//! `CMDLINES`), each with a 16-byte section header (id, flags, string id, a 64-bit size:
//! the document says 4 bytes, the files trace-cmd 3.1 writes have 8). A `BUFFER` option
//! has the page size (32 bits) between its clock and its CPU count.
//! A compressed file (the header names `zlib` or `zstd`, trace-cmd's
//! `lib/trace-cmd/trace-compress-zlib.c` and `trace-compress-zstd.c`: zlib's `compress2`
//! stream, one zstd frame) has each flagged section as a 4-byte compressed size, a 4-byte
//! uncompressed size and the block (`tracecmd_uncompress_block` in `trace-compress.c`), and
//! the `BUFFER` section's per-CPU data, when that section is flagged, as a 4-byte chunk
//! count and then chunks of the same form, each of up to ten pages
//! (`tracecmd_compress_copy_from`, `PAGES_IN_CHUNK` in `trace-output.c`), read as one run of
//! pages. Chunks are inflated one at a time and their pages read as they come, so memory
//! is one chunk, not the CPU's data. What the blocks may inflate to is bounded before
//! anything is allocated: `MAX_INFLATE` times the file's size in all, and a zstd frame's
//! window (RFC 8878, 3.1.1.1.2) at most 8 MiB or twice the block it claims to hold: a
//! header that claims 4 GB is refused with a message.
//! Refused with a message (simplified): other compressions, latency-format files, TSC2NSEC
//! and guest time-shift clocks. The `OFFSET` option is added to every timestamp, as trace-cmd does.
//! Other instances than the top one are left out, with a notice.
//!
//! Bounded: every size and offset is checked against the file; a record advances at least
//! four bytes; memory is the file, one chunk, and one `Event` per record. Never panics.
//!
//! Over 800 lines: one file format read in the order its specification lays the file out
//! (header, sections, per-CPU pages), with the bounds each step checks beside it.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;

use super::model::{Model, ReadError, Reader, MAX_CPUS};
use super::parse::{Event, Kind, PrevState};
use crate::engine::time::Ns;

/// The first bytes of every trace.dat.
pub const MAGIC: &[u8] = b"\x17\x08\x44tracing";

fn fail<T>(message: impl Into<String>) -> Result<T, ReadError> {
    Err(ReadError { message: format!("trace.dat: {}", message.into()) })
}

/// All the compressed blocks of a file may inflate to at most this many times the file's
/// size (plus `INFLATE_SLACK`). trace-cmd's zstd copies of the fixtures inflate 4.4x in
/// all (mostly the kallsyms text) and their last, nearly empty page of a CPU 20-40x; a page
/// of zeros would go 1,000x, but the ring buffer hands over full pages, bar each CPU's
/// last. Past the bound the file is refused, so a reader's memory stays a bounded multiple
/// of the file's size.
pub const MAX_INFLATE: usize = 64;
/// What any file's blocks may inflate to beyond `MAX_INFLATE` times its size.
pub const INFLATE_SLACK: usize = 1 << 20;

/// The block compression of a version 7 file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codec {
    /// zlib's `compress2` (RFC 1950: a zlib header, deflate, adler32).
    Zlib,
    /// One zstd frame (RFC 8878), without a content size (trace-cmd sets
    /// `ZSTD_c_contentSizeFlag` to 0).
    Zstd,
}

/// Inflates a file's blocks within what is left of its budget.
struct Inflater {
    codec: Codec,
    /// Bytes the file's blocks may still inflate to.
    left: usize,
}

impl Inflater {
    fn new(codec: Codec, file_len: usize) -> Self {
        Inflater { codec, left: file_len.saturating_mul(MAX_INFLATE).saturating_add(INFLATE_SLACK) }
    }

    /// The block at `buf` (compressed size, uncompressed size, bytes), inflated.
    fn block(&mut self, buf: &mut Buf, what: &str) -> Result<Vec<u8>, ReadError> {
        let at = buf.pos;
        let zsize = buf.u32(what)?;
        let size = buf.u32(what)? as usize;
        let data = buf.sized(zsize as u64, what)?;
        if size > self.left {
            return fail(format!(
                "{what} at byte {at} claims {size} bytes uncompressed, more than the file may hold: its compressed \
                 parts may inflate to {MAX_INFLATE} times its size in all ({} bytes were left)",
                self.left
            ));
        }
        let out = match self.codec {
            Codec::Zlib => miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, size).map_err(|e| {
                let why = match e.status {
                    miniz_oxide::inflate::TINFLStatus::HasMoreOutput => "inflates past the size it claims".to_string(),
                    s => format!("is not a zlib stream ({s:?})"),
                };
                ReadError { message: format!("trace.dat: {what} at byte {at} {why}") }
            })?,
            Codec::Zstd => zstd_block(data, size)
                .map_err(|why| ReadError { message: format!("trace.dat: {what} at byte {at} {why}") })?,
        };
        self.left = self.left.saturating_sub(out.len());
        Ok(out)
    }
}

/// The largest zstd window read whatever the block's size: libzstd's levels up to 19 use
/// at most 8 MiB (windowLog 23, `clevels` in `zstd_compress.c`), less for a small input of
/// known size (trace-cmd's chunks are ten pages); a decoder allocates the window first.
const ZSTD_WINDOW_MAX: u64 = 8 << 20;

/// A zstd frame that claims to hold `size` bytes, inflated; its window (what a decoder
/// allocates first) is checked before any decoding.
fn zstd_block(data: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let window = zstd_window(data).ok_or("is not a zstd frame")?;
    let room = (size.next_power_of_two() as u64 * 2).max(ZSTD_WINDOW_MAX);
    if window > room {
        return Err(format!(
            "is a zstd frame with a {window}-byte window for {size} bytes (at most {} MiB or twice the block)",
            ZSTD_WINDOW_MAX >> 20
        ));
    }
    let mut out = Vec::with_capacity(size);
    let mut src = data;
    let dec = ruzstd::decoding::StreamingDecoder::new(&mut src).map_err(|e| format!("is not a zstd frame ({e})"))?;
    dec.take(size as u64 + 1).read_to_end(&mut out).map_err(|e| format!("is a broken zstd frame ({e})"))?;
    if out.len() > size {
        return Err("inflates past the size it claims".into());
    }
    Ok(out)
}

/// The window size a zstd frame's header declares (RFC 8878, 3.1.1.1): the window
/// descriptor, or with the single-segment flag the frame content size.
fn zstd_window(f: &[u8]) -> Option<u64> {
    if f.get(..4)? != [0x28, 0xb5, 0x2f, 0xfd] {
        return None;
    }
    let fhd = *f.get(4)?;
    let single = fhd & 0x20 != 0;
    if !single {
        let wd = *f.get(5)?;
        let log = 10 + u32::from(wd >> 3);
        let base = 1u64 << log;
        return Some(base + (base / 8) * u64::from(wd & 7));
    }
    let dict = [0, 1, 2, 4][usize::from(fhd & 3)];
    let fcs = [1, 2, 4, 8][usize::from(fhd >> 6)];
    let at = 5 + dict;
    let v = uint_of(f.get(at..at + fcs)?, false);
    Some(if fcs == 2 { v + 256 } else { v })
}

/// A cursor over the file in its endianness; every read is checked.
#[derive(Clone, Copy)]
struct Buf<'a> {
    b: &'a [u8],
    pos: usize,
    be: bool,
}

impl<'a> Buf<'a> {
    fn at(b: &'a [u8], pos: usize, be: bool) -> Self {
        Buf { b, pos, be }
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ReadError> {
        match self.pos.checked_add(n).filter(|&e| e <= self.b.len()) {
            Some(end) => {
                let s = &self.b[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => fail(format!("cut short reading {what} at byte {}", self.pos)),
        }
    }
    fn uint(&mut self, n: usize, what: &str) -> Result<u64, ReadError> {
        let s = self.take(n, what)?;
        Ok(uint_of(s, self.be))
    }
    fn u16(&mut self, what: &str) -> Result<u16, ReadError> {
        self.uint(2, what).map(|v| v as u16)
    }
    fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        self.uint(4, what).map(|v| v as u32)
    }
    fn u64(&mut self, what: &str) -> Result<u64, ReadError> {
        self.uint(8, what)
    }
    fn cstr(&mut self, what: &str) -> Result<&'a str, ReadError> {
        let rest = &self.b[self.pos.min(self.b.len())..];
        let Some(n) = rest.iter().position(|&c| c == 0) else {
            return fail(format!("cut short reading {what} at byte {}", self.pos));
        };
        self.pos += n + 1;
        Ok(std::str::from_utf8(&rest[..n]).unwrap_or(""))
    }
    /// `n` bytes whose count was read from the file.
    fn sized(&mut self, n: u64, what: &str) -> Result<&'a [u8], ReadError> {
        let n = usize::try_from(n).ok().filter(|&n| n <= self.b.len()).map_or(usize::MAX, |n| n);
        self.take(n, what)
    }
}

fn uint_of(s: &[u8], be: bool) -> u64 {
    let mut v = 0u64;
    if be {
        for &c in s {
            v = (v << 8) | c as u64;
        }
    } else {
        for &c in s.iter().rev() {
            v = (v << 8) | c as u64;
        }
    }
    v
}

/// One field of an event's `format`.
#[derive(Clone, Debug, Default)]
struct Field {
    name: String,
    offset: usize,
    size: usize,
    signed: bool,
    /// `char name[16]` (a fixed string) or `__data_loc char[]` (a dynamic one).
    string: bool,
    /// `__data_loc` (offset from the record's start) or `__rel_loc` (`rel_loc`: offset
    /// from the end of the field): a 32-bit word, the length in its high 16 bits.
    data_loc: bool,
    rel_loc: bool,
}

#[derive(Clone, Debug, Default)]
struct Format {
    name: String,
    fields: Vec<Field>,
    /// `sched_switch`: the state bits and letters its `print fmt` lists.
    states: Vec<(u64, char)>,
}

impl Format {
    fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// Reads one `format` file: `name:`, `ID:`, `field:...;offset:N;size:N;signed:N;` lines and
/// the `print fmt:`.
fn parse_format(text: &str) -> Option<(u16, Format)> {
    let mut f = Format::default();
    let mut id = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(n) = t.strip_prefix("name:") {
            f.name = n.trim().to_string();
        } else if let Some(n) = t.strip_prefix("ID:") {
            id = n.trim().parse::<u16>().ok();
        } else if let Some(decl) = t.strip_prefix("field:") {
            let mut parts = decl.split(';').map(str::trim);
            let decl = parts.next()?.trim();
            let mut fd = Field::default();
            for p in parts {
                if let Some(v) = p.strip_prefix("offset:") {
                    fd.offset = v.parse().ok()?;
                } else if let Some(v) = p.strip_prefix("size:") {
                    fd.size = v.parse().ok()?;
                } else if let Some(v) = p.strip_prefix("signed:") {
                    fd.signed = v == "1";
                }
            }
            fd.data_loc = decl.starts_with("__data_loc") || decl.starts_with("__rel_loc");
            fd.rel_loc = decl.starts_with("__rel_loc");
            fd.string = decl.contains("char") && decl.contains('[');
            fd.name = field_name(decl)?.to_string();
            f.fields.push(fd);
        } else if let Some(p) = t.strip_prefix("print fmt:") {
            f.states = state_letters(p);
        }
    }
    Some((id?, f))
}

/// The name in a field's declaration: the last word once the `[..]` parts are taken out
/// (`char prev_comm[16]`, `__data_loc char[] name`, `const char * reason`).
fn field_name(decl: &str) -> Option<&str> {
    let mut last = None;
    let mut depth = 0usize;
    let mut start = None;
    for (i, c) in decl.char_indices() {
        match c {
            '[' => {
                if let Some(s) = start.take() {
                    last = Some(&decl[s..i]);
                }
                depth += 1;
            }
            ']' => depth = depth.saturating_sub(1),
            c if depth == 0 && (c.is_alphanumeric() || c == '_') => {
                start.get_or_insert(i);
            }
            _ => {
                if let Some(s) = start.take() {
                    last = Some(&decl[s..i]);
                }
            }
        }
    }
    if let Some(s) = start {
        last = Some(&decl[s..]);
    }
    last
}

/// The `{ 0x0001, "S" }` pairs of a `sched_switch` print format (kernels list their own
/// state bits there: `include/trace/events/sched.h`).
fn state_letters(p: &str) -> Vec<(u64, char)> {
    let mut out = Vec::new();
    let mut rest = p;
    while let Some(k) = rest.find('{') {
        rest = &rest[k + 1..];
        let Some(end) = rest.find('}') else { break };
        let pair = &rest[..end];
        if let Some((num, name)) = pair.split_once(',') {
            let num = num.trim();
            let v = match num.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => num.parse().ok(),
            };
            let letter = name.trim().trim_matches('"').chars().next();
            if let (Some(v), Some(c)) = (v, letter) {
                out.push((v, c));
            }
        }
    }
    out
}

/// What `header_page` says: where `commit` is and how big, where the data starts.
#[derive(Clone, Copy, Debug)]
struct PageHeader {
    commit_offset: usize,
    commit_size: usize,
    data_offset: usize,
}

fn page_header(text: &str) -> PageHeader {
    let (_, f) = parse_format(&format!("ID: 0\n{text}")).unwrap_or_default();
    let commit = f.field("commit");
    PageHeader {
        commit_offset: commit.map_or(8, |c| c.offset),
        commit_size: commit.map_or(8, |c| c.size),
        data_offset: f.field("data").map_or(16, |d| d.offset),
    }
}

/// Everything the header parts of either version give.
#[derive(Default)]
struct Meta {
    page_header: Option<PageHeader>,
    formats: BTreeMap<u16, Format>,
    comms: BTreeMap<u32, String>,
    cpus: u32,
    offset: i64,
    /// (cpu, file offset, size) of each CPU's ring-buffer pages.
    cpu_data: Vec<(u32, u64, u64)>,
    /// Version 7: where the top instance's `BUFFER` section is (its flags say whether the
    /// CPU data is in compressed chunks).
    buffer_at: Option<u64>,
    /// A compressed file's codec and budget.
    inflater: Option<Inflater>,
    /// Whether each CPU's data is in compressed chunks.
    cpu_compressed: bool,
    be: bool,
    notices: Vec<String>,
}

fn read_formats(buf: &mut Buf, meta: &mut Meta, systems: bool) -> Result<(), ReadError> {
    let nsys = if systems { buf.u32("the event systems")? } else { 1 };
    for _ in 0..nsys {
        if systems {
            buf.cstr("a system name")?;
        }
        let n = buf.u32("an event count")?;
        for _ in 0..n {
            let size = buf.u64("a format size")?;
            let text = buf.sized(size, "an event format")?;
            if let Some((id, f)) = parse_format(&String::from_utf8_lossy(text)) {
                meta.formats.insert(id, f);
            }
        }
    }
    Ok(())
}

fn read_header_info(buf: &mut Buf, meta: &mut Meta) -> Result<(), ReadError> {
    if buf.take(12, "header_page")? != b"header_page\0" {
        return fail("expected \"header_page\"");
    }
    let n = buf.u64("the header_page size")?;
    meta.page_header = Some(page_header(&String::from_utf8_lossy(buf.sized(n, "header_page")?)));
    if buf.take(13, "header_event")? != b"header_event\0" {
        return fail("expected \"header_event\"");
    }
    let n = buf.u64("the header_event size")?;
    buf.sized(n, "header_event")?;
    Ok(())
}

fn read_cmdlines(buf: &mut Buf, meta: &mut Meta) -> Result<(), ReadError> {
    let n = buf.u64("the saved command lines size")?;
    let text = String::from_utf8_lossy(buf.sized(n, "the saved command lines")?).into_owned();
    for line in text.lines() {
        if let Some((pid, comm)) = line.split_once(' ') {
            if let Ok(pid) = pid.trim().parse() {
                meta.comms.insert(pid, comm.to_string());
            }
        }
    }
    Ok(())
}

/// One option (`id`, `data`): what it means for reading events.
fn option(id: u16, data: &[u8], be: bool, meta: &mut Meta, v7: bool) -> Result<(), ReadError> {
    let text = || String::from_utf8_lossy(data.split(|&c| c == 0).next().unwrap_or(&[])).trim().to_string();
    match id {
        3 if v7 => {
            let mut b = Buf::at(data, 0, be);
            let at = b.u64("a BUFFER option")?;
            let name = b.cstr("a BUFFER name")?.to_string();
            b.cstr("a BUFFER clock")?;
            // Version 7 writes the instance's page size here (trace-cmd's trace-output.c;
            // the format document omits it).
            b.u32("a BUFFER page size")?;
            let n = b.u32("a BUFFER CPU count")?;
            if !name.is_empty() {
                meta.notices.push(format!("trace.dat: the instance '{name}' is left out (the top one is read)"));
                return Ok(());
            }
            meta.buffer_at = Some(at);
            for _ in 0..n.min(MAX_CPUS) {
                let cpu = b.u32("a BUFFER CPU")?;
                let off = b.u64("a BUFFER offset")?;
                let size = b.u64("a BUFFER size")?;
                meta.cpu_data.push((cpu, off, size));
            }
        }
        3 => meta.notices.push(format!("trace.dat: the instance '{}' is left out (the top one is read)", text())),
        7 => {
            meta.offset = text().parse().unwrap_or(0);
        }
        8 if data.len() >= 4 => meta.cpus = uint_of(&data[..4], be) as u32,
        12 | 14 => {
            return fail(
                "its clock needs a TSC or guest time conversion (TSC2NSEC / TIME_SHIFT), which is not read; \
                 use `trace-cmd report -t` text",
            )
        }
        22 => return fail("it holds a latency-format (text) trace, not per-CPU ring-buffer pages"),
        _ => {}
    }
    Ok(())
}

fn read_v6(mut buf: Buf) -> Result<Meta, ReadError> {
    let mut meta = Meta::default();
    read_header_info(&mut buf, &mut meta)?;
    read_formats(&mut buf, &mut meta, false)?;
    read_formats(&mut buf, &mut meta, true)?;
    let n = buf.u32("the kallsyms size")?;
    buf.sized(n as u64, "kallsyms")?;
    let n = buf.u32("the printk formats size")?;
    buf.sized(n as u64, "printk formats")?;
    read_cmdlines(&mut buf, &mut meta)?;
    let ncpus = buf.u32("the CPU count")?;
    meta.cpus = ncpus;
    let mut kind = buf.take(10, "the data kind")?;
    if kind == b"options  \0" {
        loop {
            let id = buf.u16("an option id")?;
            if id == 0 {
                break;
            }
            let size = buf.u32("an option size")?;
            let data = buf.sized(size as u64, "an option")?;
            option(id, data, buf.be, &mut meta, false)?;
        }
        kind = buf.take(10, "the data kind")?;
    }
    match kind {
        b"flyrecord\0" => {
            for cpu in 0..ncpus.min(MAX_CPUS) {
                let off = buf.u64("a CPU data offset")?;
                let size = buf.u64("a CPU data size")?;
                meta.cpu_data.push((cpu, off, size));
            }
        }
        b"latency  \0" => return fail("it holds a latency-format (text) trace, not per-CPU ring-buffer pages"),
        _ => return fail("expected \"flyrecord\" or \"latency\" after the header"),
    }
    Ok(meta)
}

/// A version 7 section's header at `off`: (id, flags, a cursor over its content).
fn section_header(b: &[u8], off: u64, be: bool) -> Result<(u16, u16, Buf<'_>), ReadError> {
    let Some(off) = usize::try_from(off).ok().filter(|&o| o < b.len()) else {
        return fail(format!("a section offset ({off}) is outside the file"));
    };
    let mut buf = Buf::at(b, off, be);
    let id = buf.u16("a section id")?;
    let flags = buf.u16("section flags")?;
    buf.u32("a section description")?;
    Ok((id, flags, buf))
}

/// A version 7 section at `off`: (id, content), inflated when it is flagged compressed.
fn section<'a>(b: &'a [u8], off: u64, meta: &mut Meta) -> Result<(u16, Cow<'a, [u8]>), ReadError> {
    let be = meta.be;
    let (id, flags, mut buf) = section_header(b, off, be)?;
    let size = buf.u64("a section size")?;
    let start = buf.pos;
    let content = buf.sized(size, "a section")?;
    if flags & 1 == 0 {
        return Ok((id, Cow::Borrowed(content)));
    }
    let Some(z) = meta.inflater.as_mut() else {
        return fail(format!("section {id} is flagged compressed in a file whose header says \"none\""));
    };
    let mut cb = Buf::at(&b[..start + content.len()], start, be);
    Ok((id, Cow::Owned(z.block(&mut cb, &format!("section {id}"))?)))
}

fn read_v7(b: &[u8], mut buf: Buf) -> Result<Meta, ReadError> {
    let be = buf.be;
    let algo = buf.cstr("the compression name")?.to_string();
    buf.cstr("the compression version")?;
    let codec = match algo.as_str() {
        "none" => None,
        "zlib" => Some(Codec::Zlib),
        "zstd" => Some(Codec::Zstd),
        other => {
            return fail(format!(
                "it is compressed with {} (zlib and zstd are read); write a plain copy with \
                 `trace-cmd convert --compression none -i FILE -o PLAIN.dat`",
                super::shorten(other, 20)
            ))
        }
    };
    let mut meta = Meta { be, inflater: codec.map(|c| Inflater::new(c, b.len())), ..Meta::default() };
    let mut next = buf.u64("the options offset")?;
    let mut sections: Vec<(u16, u64)> = Vec::new();
    let mut seen = 0;
    while next != 0 {
        seen += 1;
        if seen > 64 {
            return fail("more than 64 options sections (a loop?)");
        }
        let (id, data) = section(b, next, &mut meta)?;
        if id != 0 {
            return fail(format!("expected an options section at byte {next}, found section {id}"));
        }
        next = 0;
        let mut ob = Buf::at(&data, 0, be);
        while ob.pos < data.len() {
            let oid = ob.u16("an option id")?;
            let size = ob.u32("an option size")?;
            let od = ob.sized(size as u64, "an option")?;
            match oid {
                0 => {
                    next = if od.len() >= 8 { uint_of(&od[..8], be) } else { 0 };
                    break;
                }
                16..=18 | 21 if od.len() >= 8 => sections.push((oid, uint_of(&od[..8], be))),
                _ => option(oid, od, be, &mut meta, true)?,
            }
        }
    }
    for (oid, off) in sections {
        let (id, data) = section(b, off, &mut meta)?;
        if id != oid {
            return fail(format!("option {oid} points at section {id}"));
        }
        let mut sb = Buf::at(&data, 0, be);
        match id {
            16 => read_header_info(&mut sb, &mut meta)?,
            17 => read_formats(&mut sb, &mut meta, false)?,
            18 => read_formats(&mut sb, &mut meta, true)?,
            21 => read_cmdlines(&mut sb, &mut meta)?,
            _ => {}
        }
    }
    if meta.page_header.is_none() {
        return fail("no HEADER_INFO section (the ring-buffer page format is unknown)");
    }
    if let Some(at) = meta.buffer_at {
        let (id, flags, _) = section_header(b, at, be)?;
        if id != 3 {
            return fail(format!("the BUFFER option points at section {id}"));
        }
        meta.cpu_compressed = flags & 1 != 0;
        if meta.cpu_compressed && meta.inflater.is_none() {
            return fail("the trace data is flagged compressed in a file whose header says \"none\"");
        }
    }
    Ok(meta)
}

/// Whether `bytes` is a trace.dat.
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a trace.dat into the same `Model` its `trace-cmd report -t` text gives.
pub fn read(bytes: &[u8]) -> Result<Model, ReadError> {
    if !looks_like(bytes) {
        return fail("not a trace-cmd trace.dat (no magic)");
    }
    let mut buf = Buf::at(bytes, MAGIC.len(), false);
    let version = buf.cstr("the version")?.to_string();
    let endian = buf.take(1, "the endianness")?[0];
    let _long_size = buf.take(1, "the long size")?[0];
    buf.be = endian == 1;
    let page_size = buf.u32("the page size")? as usize;
    if !(64..=1 << 20).contains(&page_size) {
        return fail(format!("a page size of {page_size} bytes is not a ring-buffer page"));
    }
    let mut meta = match version.as_str() {
        "6" => read_v6(buf)?,
        "7" => read_v7(bytes, buf)?,
        v => return fail(format!("file version {} is not read (6 and 7 are)", super::shorten(v, 20))),
    };
    let mut r = Reader::default();
    r.set_header_cpus(meta.cpus.min(MAX_CPUS));
    for n in &meta.notices {
        r.note(n.clone());
    }
    let ph = meta.page_header.unwrap_or(PageHeader { commit_offset: 8, commit_size: 8, data_offset: 16 });
    let mut inflater = meta.inflater.take().filter(|_| meta.cpu_compressed);
    let dec = Decoder::new(&meta, buf.be);
    let mut pages = Pages { ph, be: buf.be, page_size, offset: meta.offset, dec: &dec, lost: 0, records: 0 };
    for &(cpu, off, size) in &meta.cpu_data {
        let Some(start) = usize::try_from(off).ok().filter(|&o| o <= bytes.len()) else {
            return fail(format!("CPU {cpu}'s data offset ({off}) is outside the file"));
        };
        let end = usize::try_from(size).ok().and_then(|s| start.checked_add(s)).filter(|&e| e <= bytes.len());
        let Some(end) = end else {
            return fail(format!("CPU {cpu}'s data ({size} bytes at {off}) runs past the end of the file"));
        };
        match inflater.as_mut() {
            Some(z) if end > start => {
                // A chunk count, then chunks of whole pages, read as one run of pages. The
                // size trace-cmd 3.1.6 writes for compressed data leaves the count out (and
                // its reader, `init_cpu_zpage`, does not use it): the chunks are read to
                // the end of the file, each bounded there.
                let mut cb = Buf::at(bytes, start, buf.be);
                let chunks = cb.u32("a CPU data chunk count")?;
                let mut run: Vec<u8> = Vec::new();
                for _ in 0..chunks {
                    let chunk = z.block(&mut cb, &format!("CPU {cpu}'s data chunk"))?;
                    run.extend_from_slice(&chunk);
                    let whole = run.len() / page_size * page_size;
                    pages.read(&run[..whole], cpu, &mut r);
                    run.drain(..whole);
                }
                pages.read(&run, cpu, &mut r);
            }
            _ => pages.read(&bytes[start..end], cpu, &mut r),
        }
    }
    if pages.lost > 0 {
        r.note(format!("trace.dat: ring-buffer pages say events were lost (at least {} pages)", pages.lost));
    }
    r.finish()
}

/// Reads runs of ring-buffer pages.
struct Pages<'d, 'm> {
    ph: PageHeader,
    be: bool,
    page_size: usize,
    offset: i64,
    dec: &'d Decoder<'m>,
    /// Pages that said events were lost before them.
    lost: u64,
    records: usize,
}

impl Pages<'_, '_> {
    /// The pages of `data` (the last one may be cut short), in order.
    fn read(&mut self, data: &[u8], cpu: u32, r: &mut Reader) {
        let mut p = 0;
        while p + self.ph.data_offset <= data.len() {
            let page = &data[p..(p + self.page_size).min(data.len())];
            self.lost += read_page(page, &self.ph, self.be, cpu, self.offset, self.dec, &mut self.records, r);
            p += self.page_size;
        }
    }
}

/// Reads one ring-buffer page's events (time order within a CPU); returns 1 if the page
/// says events were lost before it.
#[allow(clippy::too_many_arguments)]
fn read_page(
    page: &[u8],
    ph: &PageHeader,
    be: bool,
    cpu: u32,
    offset: i64,
    dec: &Decoder,
    records: &mut usize,
    r: &mut Reader,
) -> u64 {
    if page.len() < ph.data_offset || page.len() < ph.commit_offset + ph.commit_size {
        return 0;
    }
    let mut ts = uint_of(&page[..8], be);
    let commit = uint_of(&page[ph.commit_offset..ph.commit_offset + ph.commit_size], be);
    let size = (commit & ((1 << 27) - 1)) as usize;
    let lost = u64::from(commit & (1 << 31) != 0);
    let data = &page[ph.data_offset..];
    let data = &data[..size.min(data.len())];
    let mut i = 0usize;
    while i + 4 <= data.len() {
        let h = uint_of(&data[i..i + 4], be) as u32;
        let (type_len, delta) = if be { (h >> 27, h & ((1 << 27) - 1)) } else { (h & 31, h >> 5) };
        let word = |k: usize| (k + 4 <= data.len()).then(|| uint_of(&data[k..k + 4], be));
        let (payload, next) = match type_len {
            29 => {
                ts = ts.wrapping_add(delta as u64);
                match word(i + 4) {
                    Some(n) if delta != 0 => (None, i + 4 + n as usize),
                    _ => break, // the rest of the page is padding
                }
            }
            30 => {
                let Some(hi) = word(i + 4) else { break };
                ts = ts.wrapping_add((hi << 27) | delta as u64);
                (None, i + 8)
            }
            31 => {
                let Some(hi) = word(i + 4) else { break };
                // An absolute time stamp: its low 59 bits replace the time's.
                let abs = (hi << 27) | delta as u64;
                ts = (ts & !((1u64 << 59) - 1)) | (abs & ((1u64 << 59) - 1));
                (None, i + 8)
            }
            0 => {
                let Some(n) = word(i + 4) else { break };
                if n < 4 {
                    break;
                }
                let len = ((n - 4) as usize + 3) & !3;
                ts = ts.wrapping_add(delta as u64);
                (Some((i + 8, len)), i + 8 + len)
            }
            n => {
                ts = ts.wrapping_add(delta as u64);
                (Some((i + 4, n as usize * 4)), i + 4 + n as usize * 4)
            }
        };
        if let Some((at, len)) = payload {
            let rec = &data[at.min(data.len())..(at + len).min(data.len())];
            *records += 1;
            let t = (ts as i128 + offset as i128).clamp(0, Ns::MAX as i128) as Ns;
            match dec.decode(rec, cpu, t, *records) {
                Decoded::Event(e) => r.push_event(e),
                Decoded::Skipped(name) => r.skip(name),
                Decoded::Unknown => r.skip("(unknown event id)"),
            }
        }
        if next <= i {
            break;
        }
        i = next;
    }
    lost
}

enum Decoded<'m> {
    Event(Event),
    Skipped(&'m str),
    Unknown,
}

/// Decodes records by their event format.
struct Decoder<'m> {
    meta: &'m Meta,
    be: bool,
}

impl<'m> Decoder<'m> {
    fn new(meta: &'m Meta, be: bool) -> Self {
        Decoder { meta, be }
    }

    fn num(&self, rec: &[u8], f: &Field) -> Option<i64> {
        let s = rec.get(f.offset..f.offset.checked_add(f.size)?)?;
        let v = uint_of(s, self.be);
        Some(if f.signed && f.size < 8 && f.size > 0 {
            let shift = 64 - 8 * f.size as u32;
            ((v << shift) as i64) >> shift
        } else {
            v as i64
        })
    }

    fn string(&self, rec: &[u8], f: &Field) -> String {
        let s = if f.data_loc {
            let Some(loc) = self.num(rec, &Field { signed: false, ..f.clone() }) else { return String::new() };
            let (mut o, n) = ((loc & 0xffff) as usize, ((loc >> 16) & 0xffff) as usize);
            if f.rel_loc {
                o += f.offset + f.size;
            }
            rec.get(o..o.saturating_add(n).min(rec.len())).unwrap_or(&[])
        } else {
            rec.get(f.offset..(f.offset + f.size).min(rec.len())).unwrap_or(&[])
        };
        let s = s.split(|&c| c == 0).next().unwrap_or(&[]);
        String::from_utf8_lossy(s).into_owned()
    }

    fn decode(&self, rec: &[u8], cpu: u32, ts: Ns, n: usize) -> Decoded<'m> {
        if rec.len() < 2 {
            return Decoded::Unknown;
        }
        let id = uint_of(&rec[..2], self.be) as u16;
        let Some(f) = self.meta.formats.get(&id) else {
            return Decoded::Unknown;
        };
        let name = f.name.as_str();
        let num = |k: &str| f.field(k).and_then(|fd| self.num(rec, fd));
        let text = |k: &str| f.field(k).map(|fd| self.string(rec, fd)).unwrap_or_default();
        let pid = num("common_pid").unwrap_or(0).max(0) as u32;
        let comm = if pid == 0 {
            "<idle>".to_string()
        } else {
            self.meta.comms.get(&pid).cloned().unwrap_or_else(|| "<...>".into())
        };
        let p = |v: Option<i64>| v.map(|v| v.clamp(0, u32::MAX as i64) as u32);
        let kind = match name {
            "sched_switch" => {
                let (Some(prev_pid), Some(next_pid), Some(state)) =
                    (p(num("prev_pid")), p(num("next_pid")), num("prev_state"))
                else {
                    return Decoded::Skipped(name);
                };
                Kind::Switch {
                    prev_comm: text("prev_comm"),
                    prev_pid,
                    prev_state: switch_state(state as u64, &f.states),
                    next_comm: text("next_comm"),
                    next_pid,
                    next_prio: num("next_prio").unwrap_or(120) as i32,
                }
            }
            "sched_wakeup" | "sched_wakeup_new" | "sched_waking" => {
                let Some(wpid) = p(num("pid")) else { return Decoded::Skipped(name) };
                Kind::Wakeup {
                    comm: text("comm"),
                    pid: wpid,
                    target_cpu: p(num("target_cpu")),
                    new: name == "sched_wakeup_new",
                    waking: name == "sched_waking",
                }
            }
            "sched_migrate_task" => {
                let (Some(mpid), Some(o), Some(d)) = (p(num("pid")), p(num("orig_cpu")), p(num("dest_cpu"))) else {
                    return Decoded::Skipped(name);
                };
                Kind::Migrate { comm: text("comm"), pid: mpid, orig_cpu: o, dest_cpu: d }
            }
            "sched_process_exit" => {
                let Some(xpid) = p(num("pid")) else { return Decoded::Skipped(name) };
                Kind::Exit { comm: text("comm"), pid: xpid }
            }
            "cpu_idle" => {
                let state = num("state").unwrap_or(-1) as u64 & 0xffff_ffff;
                Kind::CpuIdle {
                    state: (state < u32::MAX as u64).then_some(state as u32),
                    cpu: p(num("cpu_id")).unwrap_or(cpu),
                }
            }
            n if n.starts_with("ipi_") => Kind::Ipi { name: n.to_string(), target: p(num("cpu")) },
            "irq_handler_entry" => {
                let irq = text("name");
                if !super::parse::is_ipi_name(&irq) {
                    return Decoded::Skipped(name);
                }
                Kind::Ipi { name: format!("irq_handler_entry {irq}"), target: Some(cpu) }
            }
            n if n.starts_with("hrtimer_") => Kind::Hrtimer { name: n.to_string() },
            other => return Decoded::Skipped(other),
        };
        Decoded::Event(Event { line: n, ts, cpu, pid, comm, kind })
    }
}

/// `prev_state` as the format's own state letters: `R` when no listed bit is set.
fn switch_state(v: u64, letters: &[(u64, char)]) -> PrevState {
    if letters.is_empty() {
        return super::parse::prev_state(&v.to_string()).unwrap_or(PrevState::Runnable);
    }
    let set: Vec<char> = letters.iter().filter(|(bit, _)| *bit != 0 && v & bit != 0).map(|&(_, c)| c).collect();
    if set.is_empty() {
        PrevState::Runnable
    } else if set.iter().any(|c| matches!(c, 'X' | 'Z' | 'x')) {
        PrevState::Dead
    } else {
        PrevState::Sleeping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dynamic string's field is named after its last word (it was named `char`, and
    /// `irq_handler_entry`'s `name` was never found: every IPI interrupt was skipped).
    #[test]
    fn field_names_and_dynamic_strings() {
        for (decl, name) in [
            ("char prev_comm[16]", "prev_comm"),
            ("__data_loc char[] name", "name"),
            ("__rel_loc char[] msg", "msg"),
            ("const char * reason", "reason"),
            ("unsigned long __data_loc[2] bits", "bits"),
        ] {
            assert_eq!(field_name(decl), Some(name), "{decl}");
        }
        let text = "name: x\nID: 5\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
                    \tfield:__data_loc char[] a;\toffset:4;\tsize:4;\tsigned:0;\n\
                    \tfield:__rel_loc char[] b;\toffset:8;\tsize:4;\tsigned:0;\n";
        let (_, f) = parse_format(text).unwrap();
        let meta = Meta::default();
        let dec = Decoder::new(&meta, false);
        // a: 3 bytes at 12 from the record's start; b: 3 bytes at 3 past its own end (12), so at 15.
        let mut rec = vec![5, 0, 0, 0];
        rec.extend((3u32 << 16 | 12).to_le_bytes());
        rec.extend((3u32 << 16 | 3).to_le_bytes());
        rec.extend(b"IPIxyzab\0");
        assert_eq!(dec.string(&rec, f.field("a").unwrap()), "IPI");
        assert_eq!(dec.string(&rec, f.field("b").unwrap()), "xyz");
    }
}
