//! A `File` read as a byte stream in the worker, a chunk at a time with `FileReaderSync`, so a
//! log of any size is never held whole: the reader holds one chunk, and after each one the page
//! hears how many bytes are done.

use std::io::{BufRead, Read};

use web_sys::{js_sys, Blob, FileReaderSync};

use crate::sim::logs::wire::{Message, Phase};

/// Bytes read at a time.
const CHUNK: f64 = 4.0 * 1024.0 * 1024.0;

/// A file, read forward.
pub struct FileInput<'p> {
    file: Blob,
    reader: FileReaderSync,
    size: f64,
    pos: f64,
    chunk: Vec<u8>,
    at: usize,
    post: &'p dyn Fn(Message),
}

impl<'p> FileInput<'p> {
    /// Reads `file`, telling `post` the progress.
    pub fn new(file: Blob, post: &'p dyn Fn(Message)) -> Result<Self, String> {
        let reader = FileReaderSync::new().map_err(|_| "this browser cannot read files in a worker".to_string())?;
        let size = file.size();
        Ok(FileInput { file, reader, size, pos: 0.0, chunk: Vec::new(), at: 0, post })
    }
}

fn io_error(e: wasm_bindgen::JsValue) -> std::io::Error {
    std::io::Error::other(e.as_string().unwrap_or_else(|| "the browser could not read the file".into()))
}

impl BufRead for FileInput<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.chunk.len() && self.pos < self.size {
            let end = (self.pos + CHUNK).min(self.size);
            let slice = self.file.slice_with_f64_and_f64(self.pos, end).map_err(io_error)?;
            let buffer = self.reader.read_as_array_buffer(&slice).map_err(io_error)?;
            let bytes = js_sys::Uint8Array::new(&buffer);
            self.chunk.resize(bytes.length() as usize, 0);
            bytes.copy_to(&mut self.chunk);
            (self.at, self.pos) = (0, end);
            (self.post)(Message::Progress { phase: Phase::Read, done: self.pos as u64, total: self.size as u64 });
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.chunk.len());
    }
}

impl Read for FileInput<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let chunk = self.fill_buf()?;
            let n = chunk.len().min(out.len());
            out[..n].copy_from_slice(&chunk[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}
