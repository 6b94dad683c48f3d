//! One HTTP/1.1 response read off a keep-alive connection, for the tests that replay traces
//! against a real server (nginx, HAProxy).

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;

/// Reads one response (status line, headers, `Content-Length` body) off `r`: its status and its
/// headers, names lower-cased, values trimmed. The body is read and dropped.
pub fn read_response(r: &mut BufReader<TcpStream>) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    r.read_line(&mut line).expect("a status line");
    let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let length = header(&headers, "content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    r.read_exact(&mut body).unwrap();
    (status, headers)
}

/// The value of the header `name` (lower case), if the response has it.
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}
