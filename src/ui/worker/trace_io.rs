//! In the worker (wasm32): a trace request whose `File` travels beside it, read in chunks of
//! `job::CHUNK_BYTES` with `FileReaderSync.readAsArrayBuffer(blob.slice(..))` (synchronous,
//! allowed in workers only), each chunk parsed before the next is read, progress posted between.
//! `FileReaderSync` is reached through `Reflect`: the crate's web-sys features do not list it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::traces::job;

/// Handles `[request bytes, blob]`; posts progress with `post` and returns the answer to send.
pub fn handle(request: &[u8], blob: web_sys::Blob, post: &mut dyn FnMut(Vec<u8>)) -> Vec<u8> {
    let total = blob.size() as u64;
    let reader = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("FileReaderSync"))
        .ok()
        .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
        .and_then(|c| js_sys::Reflect::construct(&c, &js_sys::Array::new()).ok());
    let read = reader
        .as_ref()
        .and_then(|r| js_sys::Reflect::get(r, &JsValue::from_str("readAsArrayBuffer")).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let mut at = 0u64;
    let mut failed = None::<String>;
    let mut next = || -> Option<Vec<u8>> {
        if at >= total || failed.is_some() {
            return None;
        }
        let end = (at + job::CHUNK_BYTES as u64).min(total);
        let piece = (|| {
            let (reader, read) = (reader.as_ref()?, read.as_ref()?);
            let slice = blob.slice_with_f64_and_f64(at as f64, end as f64).ok()?;
            let buf = read.call1(reader, &slice).ok()?;
            Some(js_sys::Uint8Array::new(&buf).to_vec())
        })();
        if piece.is_none() {
            failed = Some(format!("the file could not be read past byte {at}"));
        }
        at = end;
        piece
    };
    let mut resp = job::handle_with_file(request, &mut next, total, post);
    if let Some(why) = failed {
        match &mut resp {
            crate::ui::worker::protocol::Response::TraceOpened { result, .. } => *result = Err(why),
            crate::ui::worker::protocol::Response::TraceReplayed { result, .. } => *result = Err(why),
            _ => {}
        }
    }
    crate::ui::worker::wire::to_bytes(&resp)
}
