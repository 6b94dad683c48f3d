//! Files read in the worker as byte streams. A plain file is read with a BYOB reader (every read
//! fills the same buffer again, so reading a 2 GB log leaves no garbage behind, where a new
//! `ArrayBuffer` per chunk, as `FileReaderSync` gives, held hundreds of MB until a collection);
//! a gzip file (`access.log.2.gz`, ALB and CloudFront logs: known by its first two bytes) is
//! pumped through the browser's own `DecompressionStream`, so the worker carries no inflater.
//! Several files (a rotated set, one log per server) are merged by time
//! ([`crate::sim::logs::merge`]) as they are read, one chunk of each at a time. Progress counts
//! the files' bytes as stored, compressed or not.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{self, Reflect, Uint8Array};
use web_sys::{
    Blob, ReadableStream, ReadableStreamByobReader, ReadableStreamDefaultReader, ReadableStreamGetReaderOptions,
    ReadableStreamReaderMode, WritableStream,
};

use crate::sim::logs::error::LogError;
use crate::sim::logs::job::Analysis;
use crate::sim::logs::merge::Merge;

#[wasm_bindgen]
extern "C" {
    /// The browser's gzip inflater (web-sys has it only behind its unstable flag).
    #[wasm_bindgen(js_name = DecompressionStream)]
    type Inflater;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Inflater, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &Inflater) -> ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &Inflater) -> WritableStream;
}

/// The buffer each read fills, bytes.
const BUFFER: u32 = 1 << 20;
/// How often progress is told, bytes.
const PROGRESS_EVERY: u64 = 4 << 20;

fn why(e: &JsValue) -> String {
    e.as_string().or_else(|| js_sys::Error::from(e.clone()).message().as_string()).unwrap_or_default()
}

fn read_error(e: JsValue) -> LogError {
    LogError { line: 0, message: format!("the browser could not read the file ({})", why(&e)) }
}

/// A `{ done, value }` read result's chunk, or `None` at the end.
fn chunk_of(result: &JsValue) -> Option<Uint8Array> {
    if Reflect::get(result, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
        return None;
    }
    Reflect::get(result, &"value".into()).ok().map(JsCast::unchecked_into)
}

/// A BYOB reader of `blob` and its buffer.
fn byob(blob: &Blob) -> (ReadableStreamByobReader, js_sys::ArrayBuffer) {
    let options = ReadableStreamGetReaderOptions::new();
    options.set_mode(ReadableStreamReaderMode::Byob);
    (blob.stream().get_reader_with_options(&options).unchecked_into(), js_sys::ArrayBuffer::new(BUFFER))
}

/// Reads the next chunk of a BYOB reader into `buffer` (handed over and back); `None` at the end.
async fn next_byob(
    reader: &ReadableStreamByobReader,
    buffer: &mut js_sys::ArrayBuffer,
) -> Result<Option<Uint8Array>, LogError> {
    let view = Uint8Array::new(buffer);
    let result = JsFuture::from(reader.read_with_array_buffer_view(&view)).await.map_err(read_error)?;
    let filled = chunk_of(&result);
    if let Some(f) = &filled {
        *buffer = f.buffer();
    }
    Ok(filled)
}

/// Whether `blob` starts with gzip's two magic bytes.
async fn is_gzip(blob: &Blob) -> Result<bool, LogError> {
    let head = blob.slice_with_f64_and_f64(0.0, 2.0).map_err(read_error)?;
    let bytes = JsFuture::from(head.array_buffer()).await.map_err(read_error)?;
    Ok(Uint8Array::new(&bytes).to_vec() == [0x1f, 0x8b])
}

/// One file's bytes as they come, and how many of its stored bytes have been read.
enum Source {
    Plain { reader: ReadableStreamByobReader, buffer: js_sys::ArrayBuffer },
    Gzip { reader: ReadableStreamDefaultReader },
}

impl Source {
    /// Opens `blob`: gzip through a `DecompressionStream` fed by a task of its own, which adds
    /// the compressed bytes it has read to `read`.
    async fn open(blob: &Blob, read: Rc<Cell<u64>>) -> Result<Source, LogError> {
        if !is_gzip(blob).await? {
            let (reader, buffer) = byob(blob);
            return Ok(Source::Plain { reader, buffer });
        }
        let inflater = Inflater::new("gzip").map_err(|e| LogError {
            line: 0,
            message: format!("this browser cannot read gzip here ({}); decompress the log first", why(&e)),
        })?;
        let writer = inflater.writable().get_writer().map_err(read_error)?;
        let reader: ReadableStreamDefaultReader = inflater.readable().get_reader().unchecked_into();
        let (file, mut buffer) = byob(blob);
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                match next_byob(&file, &mut buffer).await {
                    Ok(Some(chunk)) => {
                        read.set(read.get() + u64::from(chunk.length()));
                        // A copy: the buffer is read into again while the inflater may still hold it.
                        if JsFuture::from(writer.write_with_chunk(&chunk.slice(0, chunk.length()))).await.is_err() {
                            return;
                        }
                    }
                    Ok(None) => {
                        let _ = JsFuture::from(writer.close()).await;
                        return;
                    }
                    Err(e) => {
                        let _ = writer.abort_with_reason(&JsValue::from_str(&e.message));
                        return;
                    }
                }
            }
        });
        Ok(Source::Gzip { reader })
    }

    /// The next chunk into `out` (cleared first); `false` at the end.
    async fn next(&mut self, out: &mut Vec<u8>, read: &Cell<u64>) -> Result<bool, LogError> {
        let chunk = match self {
            Source::Plain { reader, buffer } => {
                let chunk = next_byob(reader, buffer).await?;
                if let Some(c) = &chunk {
                    read.set(read.get() + u64::from(c.length()));
                }
                chunk
            }
            Source::Gzip { reader } => {
                // As the CLI says it: "damaged or cut-short gzip (Compressed input was truncated.)",
                // the browser's reason without the call it came from.
                let result = JsFuture::from(reader.read()).await.map_err(|e| {
                    let why = why(&e);
                    // The reason is what follows the message's last ':'.
                    let reason = why.rsplit_once(':').map_or(why.as_str(), |(_, r)| r.strip_prefix(' ').unwrap_or(r));
                    LogError { line: 0, message: format!("cannot be read: damaged or cut-short gzip ({reason})") }
                })?;
                chunk_of(&result)
            }
        };
        let Some(chunk) = chunk else { return Ok(false) };
        out.resize(chunk.length() as usize, 0);
        chunk.copy_to(out);
        Ok(true)
    }
}

/// Feeds `files` to `analysis` (several merged by time), telling `progress(done, total)` every
/// few MB of the stored bytes.
pub async fn read_files(
    files: &[Blob],
    analysis: &mut Analysis<'_>,
    progress: &dyn Fn(u64, u64),
) -> Result<(), LogError> {
    let total: u64 = files.iter().map(|f| f.size() as u64).sum();
    let read = Rc::new(Cell::new(0u64));
    let mut sources = Vec::with_capacity(files.len());
    for f in files {
        sources.push(Source::open(f, Rc::clone(&read)).await?);
    }
    let (mut chunk, mut told) = (Vec::new(), 0u64);
    let mut tell = |read: u64| {
        if read - told >= PROGRESS_EVERY {
            told = read;
            progress(read, total);
        }
    };
    if let [only] = sources.as_mut_slice() {
        while only.next(&mut chunk, &read).await? {
            analysis.feed(&chunk)?;
            tell(read.get());
        }
    } else {
        let mut merge = Merge::new(sources.len(), analysis.format());
        loop {
            merge.drain(&mut |line| analysis.feed(line))?;
            let Some(i) = merge.wanted() else { break };
            if sources[i].next(&mut chunk, &read).await? {
                merge.feed(i, &chunk)?;
            } else {
                merge.end(i)?;
            }
            tell(read.get());
        }
    }
    progress(total, total);
    Ok(())
}
