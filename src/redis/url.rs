//! [`RedisUrl`]: `redis://[[user]:password@]host[:port][/db]`, the address the runner is given.

use std::fmt;

/// Where the Redis server is and how to log in.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl {
    /// Host name or address (IPv6 without brackets).
    pub host: String,
    /// TCP port (6379 when not given).
    pub port: u16,
    /// Database number for `SELECT` (0 when not given).
    pub db: u32,
    /// ACL user for `AUTH`, if any.
    pub user: Option<String>,
    /// Password for `AUTH`, if any.
    pub password: Option<String>,
}

impl RedisUrl {
    /// Parses a `redis://` URL. As `redis-cli -u` reads it, a user part without `:` is a password.
    ///
    /// ```
    /// use ratelimit_playground::redis::url::RedisUrl;
    /// let u = RedisUrl::parse("redis://:s3cret@127.0.0.1:6390/2").unwrap();
    /// assert_eq!((u.host.as_str(), u.port, u.db), ("127.0.0.1", 6390, 2));
    /// assert_eq!(u.password.as_deref(), Some("s3cret"));
    /// assert_eq!(u.to_string(), "redis://:***@127.0.0.1:6390/2"); // never prints the password
    /// assert!(RedisUrl::parse("http://x").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<RedisUrl, String> {
        let err = |why: &str| format!("--url: '{s}' {why}; expected redis://[[user]:password@]host[:port][/db]");
        let rest = s.strip_prefix("redis://").ok_or_else(|| err("does not start with redis://"))?;
        let (auth, rest) = match rest.rsplit_once('@') {
            Some((a, r)) => (Some(a), r),
            None => (None, rest),
        };
        let (hostport, db) = match rest.split_once('/') {
            Some((h, "")) => (h, 0),
            Some((h, d)) => (h, d.parse().map_err(|_| err("has a database that is not a number"))?),
            None => (rest, 0),
        };
        let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
            let (h, p) = v6.split_once(']').ok_or_else(|| err("has an unclosed '['"))?;
            if !(p.is_empty() || p.starts_with(':')) {
                return Err(err("has something other than :port after ']'"));
            }
            (h, p.strip_prefix(':'))
        } else {
            match hostport.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (hostport, None),
            }
        };
        if host.is_empty() {
            return Err(err("has no host"));
        }
        let port = match port {
            Some(p) => p.parse().ok().filter(|&p| p > 0).ok_or_else(|| err("has a port outside 1 to 65535"))?,
            None => 6379,
        };
        let (user, password) = match auth {
            None => (None, None),
            Some(a) => match a.split_once(':') {
                Some((u, p)) => ((!u.is_empty()).then(|| decode(u)), Some(decode(p))),
                None => (None, Some(decode(a))),
            },
        };
        Ok(RedisUrl { host: host.to_string(), port, db, user, password })
    }
}

/// `%XX` escapes decoded (a `+` stays a `+`: this is a password, not a form field).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (b[i], b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl fmt::Display for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "redis://")?;
        match (&self.user, &self.password) {
            (Some(u), _) => write!(f, "{u}:***@")?,
            (None, Some(_)) => write!(f, ":***@")?,
            _ => {}
        }
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        write!(f, "{host}:{}/{}", self.port, self.db)
    }
}

impl fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_port_6379_and_database_0() {
        let u = RedisUrl::parse("redis://localhost").unwrap();
        assert_eq!((u.port, u.db, u.user, u.password), (6379, 0, None, None));
        assert_eq!(RedisUrl::parse("redis://[::1]:7000/").unwrap().to_string(), "redis://[::1]:7000/0");
    }

    #[test]
    fn acl_users_and_encoded_passwords_are_read() {
        let u = RedisUrl::parse("redis://app:p%40s+s@h:1/3").unwrap();
        assert_eq!((u.user.as_deref(), u.password.as_deref()), (Some("app"), Some("p@s+s")));
    }

    #[test]
    fn bad_urls_say_what_is_wrong() {
        assert!(RedisUrl::parse("redis://h:0").unwrap_err().contains("port"));
        assert!(RedisUrl::parse("redis://h:99999").unwrap_err().contains("port"));
        assert!(RedisUrl::parse("redis://h/x").unwrap_err().contains("database"));
        assert!(RedisUrl::parse("redis://").unwrap_err().contains("no host"));
        assert!(RedisUrl::parse("redis://[::1]junk").unwrap_err().contains("after ']'"));
    }
}
