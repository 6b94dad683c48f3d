//! What a log's requests are limited by (`key=`), and the distinct keys seen, numbered densely
//! in the order they came so per-key state can live in plain vectors.

use std::collections::HashMap;

use super::format::Entry;

/// What a request is limited by (`key=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyBy {
    /// The client address.
    Ip,
    /// A named field (`field:NAME`): a JSON or CSV field, or `user`, `method`, `status`,
    /// `referer`, `agent` of the combined format.
    Field(String),
    /// The path, without its query.
    Path,
    /// One key for every request.
    Global,
}

/// The values `key=` takes.
pub const KEY_NAMES: &str = "ip | field:NAME | path | global";

impl KeyBy {
    /// Reads `key=`'s value.
    ///
    /// ```
    /// use ratelimit_playground::sim::logs::reader::KeyBy;
    /// assert_eq!(KeyBy::named("field:api_key"), Ok(KeyBy::Field("api_key".into())));
    /// assert!(KeyBy::named("host").is_err());
    /// ```
    pub fn named(s: &str) -> Result<KeyBy, String> {
        match s {
            "ip" => Ok(KeyBy::Ip),
            "path" => Ok(KeyBy::Path),
            "global" => Ok(KeyBy::Global),
            _ => match s.strip_prefix("field:") {
                Some(f) if !f.is_empty() => Ok(KeyBy::Field(f.to_string())),
                _ => Err(format!("'{s}' is not a key; known: {KEY_NAMES}")),
            },
        }
    }

    /// The key of `entry` (`-` where the field is missing).
    pub fn of<'e>(&self, entry: &'e Entry<'_>) -> &'e str {
        let k = match self {
            KeyBy::Ip => &entry.ip,
            KeyBy::Path => entry.path(),
            KeyBy::Global => "*",
            KeyBy::Field(name) => entry.field(name).unwrap_or("-"),
        };
        if k.is_empty() {
            "-"
        } else {
            k
        }
    }
}

/// FNV-1a: keys are short strings hashed once per line, where SipHash's strength costs more
/// than it buys (a log is the user's own input, looked at on their own machine).
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// Where in its second a key's whole-second requests start, ns in `0..1e9`: a fixed fraction of
/// the second from a hash of the key's name (FNV-1a), so the keys stamped with one second do not
/// all arrive at its first instant, and a key's times still depend on nothing but its own name
/// and requests ([`super::order::spread`]).
pub fn phase_ns(key: &str) -> u64 {
    let mut h = Fnv::default();
    std::hash::Hasher::write(&mut h, key.as_bytes());
    std::hash::Hasher::finish(&h) % 1_000_000_000
}

/// The distinct keys seen, by index.
#[derive(Debug, Default)]
pub struct Keys {
    index: HashMap<Box<str>, u32, std::hash::BuildHasherDefault<Fnv>>,
    names: Vec<Box<str>>,
}

impl Keys {
    pub(super) fn intern(&mut self, k: &str) -> u32 {
        if let Some(&i) = self.index.get(k) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(k.into());
        self.index.insert(k.into(), i);
        i
    }

    /// Key `i`'s name.
    pub fn name(&self, i: u32) -> &str {
        &self.names[i as usize]
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether none was seen.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
