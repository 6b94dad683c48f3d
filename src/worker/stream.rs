//! A `File` read in the worker as a byte stream (`Blob.stream()` with a BYOB reader): every read
//! fills the same buffer again, so reading a 2 GB log leaves no garbage behind (a new
//! `ArrayBuffer` per chunk, as `FileReaderSync` gives, held hundreds of MB until a collection),
//! and only one buffer of the log is ever in memory.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{self, Reflect, Uint8Array};
use web_sys::{Blob, ReadableStreamByobReader, ReadableStreamGetReaderOptions, ReadableStreamReaderMode};

use crate::sim::logs::error::LogError;
use crate::sim::logs::job::Analysis;

/// The buffer each read fills, bytes.
const BUFFER: u32 = 1 << 20;
/// How often progress is told, bytes.
const PROGRESS_EVERY: u64 = 4 << 20;

fn read_error(e: JsValue) -> LogError {
    let why = e.as_string().or_else(|| js_sys::Error::from(e).message().as_string()).unwrap_or_default();
    LogError { line: 0, message: format!("the browser could not read the file ({why})") }
}

/// Feeds `file` to `analysis`, telling `progress(done, total)` every few MB.
pub async fn read_file(file: &Blob, analysis: &mut Analysis<'_>, progress: &dyn Fn(u64, u64)) -> Result<(), LogError> {
    let total = file.size() as u64;
    let options = ReadableStreamGetReaderOptions::new();
    options.set_mode(ReadableStreamReaderMode::Byob);
    let reader: ReadableStreamByobReader = file.stream().get_reader_with_options(&options).unchecked_into();
    let (mut buffer, mut chunk) = (js_sys::ArrayBuffer::new(BUFFER), Vec::new());
    let (mut done, mut told) = (0u64, 0u64);
    loop {
        let view = Uint8Array::new(&buffer);
        let result = JsFuture::from(reader.read_with_array_buffer_view(&view)).await.map_err(read_error)?;
        if Reflect::get(&result, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let Ok(value) = Reflect::get(&result, &"value".into()) else { break };
        let filled: Uint8Array = value.unchecked_into();
        chunk.resize(filled.length() as usize, 0);
        filled.copy_to(&mut chunk);
        analysis.feed(&chunk)?;
        // The read handed the buffer over and back: fill the same one again.
        buffer = filled.buffer();
        done += chunk.len() as u64;
        if done - told >= PROGRESS_EVERY {
            told = done;
            progress(done, total);
        }
    }
    progress(total, total);
    Ok(())
}
