//! A log's bytes as they come: [`each_chunk`] hands on what a reader gives, chunk by chunk, and
//! [`newline`] finds where a line ends, a word at a time (the reader's hottest loop).

use std::io::BufRead;

use super::error::{error, LogError};

/// Where the first `\n` of `bytes` is: eight bytes at a time (a zero byte of `word ^ 0x0a…`
/// sets its top bit in `(x − 0x01…) & !x & 0x80…`; the lowest such bit is the first one).
pub(super) fn newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let mut words = bytes.chunks_exact(8);
    for (k, word) in words.by_ref().enumerate() {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes")) ^ NL;
        let found = x.wrapping_sub(ONES) & !x & TOPS;
        if found != 0 {
            return Some(k * 8 + found.trailing_zeros() as usize / 8);
        }
    }
    let done = bytes.len() - words.remainder().len();
    words.remainder().iter().position(|&b| b == b'\n').map(|i| done + i)
}

/// Hands `feed` every chunk `input` gives, as it gives them, until its end or an error.
pub fn each_chunk(
    input: &mut impl BufRead,
    mut feed: impl FnMut(&[u8]) -> Result<(), LogError>,
) -> Result<(), LogError> {
    loop {
        let chunk = input.fill_buf().map_err(|e| error(0, format!("cannot be read: {e}")))?;
        if chunk.is_empty() {
            return Ok(());
        }
        let n = chunk.len();
        feed(chunk)?;
        input.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_are_found_wherever_they_are() {
        for len in 0..40 {
            for at in 0..len {
                let mut b = vec![b'a'; len];
                b[at] = b'\n';
                if at + 1 < len {
                    b[len - 1] = b'\n';
                }
                assert_eq!(newline(&b), Some(at), "{len} bytes, at {at}");
            }
            assert_eq!(newline(&vec![0x8a; len]), None, "bytes ≥ 0x80 are not newlines");
        }
    }
}
