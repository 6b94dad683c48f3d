//! RESP2, the Redis wire protocol: commands out as arrays of bulk strings, replies in.
//!
//! Only what the runner needs, with limits so that a misbehaving server cannot make it allocate
//! without bound.

use std::io::{self, BufRead, Read};

/// Largest bulk string accepted (the runner's replies are a few hundred bytes).
const MAX_BULK: usize = 64 << 20;
/// Most elements accepted in one array reply.
const MAX_ARRAY: usize = 1 << 20;
/// Deepest nesting of arrays accepted (the runner's replies nest two deep).
const MAX_DEPTH: usize = 8;

/// One reply from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK`, `+QUEUED`, `+PONG`.
    Status(String),
    /// `-ERR …`, `-NOPERM …`, `-NOSCRIPT …`, `-MOVED …`.
    Error(String),
    /// `:42`.
    Int(i64),
    /// `$5\r\nhello` or the null bulk `$-1`.
    Bulk(Option<Vec<u8>>),
    /// `*2\r\n…` or the null array `*-1`.
    Array(Option<Vec<Reply>>),
}

impl Reply {
    /// The reply as text: a status, a bulk string or an integer; `None` for nil and arrays.
    pub fn text(&self) -> Option<String> {
        match self {
            Reply::Status(s) => Some(s.clone()),
            Reply::Bulk(Some(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            Reply::Int(i) => Some(i.to_string()),
            _ => None,
        }
    }

    /// The elements of an array reply (empty for anything else).
    pub fn items(&self) -> &[Reply] {
        match self {
            Reply::Array(Some(v)) => v,
            _ => &[],
        }
    }

    /// The integer of an `:n` reply, or of a bulk string holding one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Reply::Int(i) => Some(*i),
            other => other.text()?.trim().parse().ok(),
        }
    }
}

/// Encodes one command.
///
/// ```
/// use ratelimit_playground::redis::resp::encode;
/// assert_eq!(encode(&["GET", "k"]), b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
/// ```
pub fn encode<S: AsRef<[u8]>>(args: &[S]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        let a = a.as_ref();
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("not a Redis reply: {what}"))
}

/// One line without its CRLF, as bytes.
fn line(r: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    // A line longer than this is not a reply header.
    r.by_ref().take(64 << 10).read_until(b'\n', &mut buf)?;
    if buf.is_empty() {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection"));
    }
    if !buf.ends_with(b"\r\n") {
        return Err(bad("a line without CRLF"));
    }
    buf.truncate(buf.len() - 2);
    Ok(buf)
}

fn length(s: &str, max: usize) -> io::Result<Option<usize>> {
    let n: i64 = s.parse().map_err(|_| bad("a bad length"))?;
    match n {
        -1 => Ok(None),
        n if n >= 0 && (n as usize) <= max => Ok(Some(n as usize)),
        _ => Err(bad("a length out of range")),
    }
}

/// Reads one reply.
///
/// ```
/// use ratelimit_playground::redis::resp::{read, Reply};
/// let mut r = &b"*2\r\n:1\r\n$-1\r\n"[..];
/// assert_eq!(read(&mut r).unwrap(), Reply::Array(Some(vec![Reply::Int(1), Reply::Bulk(None)])));
/// ```
pub fn read(r: &mut impl BufRead) -> io::Result<Reply> {
    read_nested(r, 0)
}

fn read_nested(r: &mut impl BufRead, depth: usize) -> io::Result<Reply> {
    let head = line(r)?;
    let Some((&kind, rest)) = head.split_first() else { return Err(bad("an empty line")) };
    let rest = String::from_utf8_lossy(rest).into_owned();
    Ok(match kind {
        b'+' => Reply::Status(rest),
        b'-' => Reply::Error(rest),
        b':' => Reply::Int(rest.parse().map_err(|_| bad("a bad integer"))?),
        b'$' => match length(&rest, MAX_BULK)? {
            None => Reply::Bulk(None),
            Some(n) => {
                let mut buf = vec![0; n + 2];
                r.read_exact(&mut buf)?;
                if !buf.ends_with(b"\r\n") {
                    return Err(bad("a bulk string without CRLF"));
                }
                buf.truncate(n);
                Reply::Bulk(Some(buf))
            }
        },
        b'*' if depth >= MAX_DEPTH => return Err(bad("arrays nested too deep")),
        b'*' => match length(&rest, MAX_ARRAY)? {
            None => Reply::Array(None),
            Some(n) => Reply::Array(Some((0..n).map(|_| read_nested(r, depth + 1)).collect::<io::Result<_>>()?)),
        },
        _ => return Err(bad("an unknown reply type (is this a Redis server?)")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_arrays_and_errors_parse() {
        let mut r = &b"+OK\r\n-NOSCRIPT No matching script\r\n*2\r\n*1\r\n$2\r\nab\r\n:-3\r\n"[..];
        assert_eq!(read(&mut r).unwrap(), Reply::Status("OK".into()));
        assert_eq!(read(&mut r).unwrap(), Reply::Error("NOSCRIPT No matching script".into()));
        let a = read(&mut r).unwrap();
        assert_eq!(a.items()[0].items()[0].text().as_deref(), Some("ab"));
        assert_eq!(a.items()[1].int(), Some(-3));
    }

    #[test]
    fn a_huge_announced_length_is_refused_before_allocating() {
        let mut r = &b"$999999999999\r\n"[..];
        assert!(read(&mut r).is_err());
        let mut r = &b"*99999999\r\n"[..];
        assert!(read(&mut r).is_err());
    }

    #[test]
    fn another_protocol_or_deep_nesting_is_an_error_not_a_panic() {
        let mut r = &b"\xc3\xa9HTTP/1.1 400\r\n"[..];
        assert!(read(&mut r).is_err());
        let deep = "*1\r\n".repeat(100_000);
        assert!(read(&mut deep.as_bytes()).is_err());
    }

    #[test]
    fn a_closed_connection_is_an_eof_error() {
        let mut r = &b""[..];
        assert_eq!(read(&mut r).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }
}
