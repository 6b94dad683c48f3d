//! Timestamps as access logs write them, read to whole milliseconds since the Unix epoch (UTC):
//! the common log format's `10/Oct/2000:13:55:36 -0700`, ISO 8601 (`2000-10-10T20:55:36.123Z`,
//! with any fraction and offset), and epoch seconds or milliseconds (`970001736.123`,
//! `970001736123`). Each says whether it has sub-second resolution: whole-second stamps are
//! spread over their second by [`super::reader`].

/// A parsed time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub ms: i64,
    /// Whether the text had no fraction of a second (the reader spreads those).
    pub whole_second: bool,
}

/// Days from 1970-01-01 to `y-m-d` in the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn num(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// Milliseconds of a calendar time, if every field is in range.
fn civil_ms(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> Option<i64> {
    let ok = (1..=12).contains(&mo)
        && (1..=31).contains(&d)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0..=60).contains(&s);
    ok.then(|| ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + s * 1000)
}

/// `+hhmm`, `-hh:mm` or `Z` as milliseconds east of UTC.
fn offset_ms(s: &str) -> Option<i64> {
    if s == "Z" || s.is_empty() {
        return Some(0);
    }
    let (sign, rest) = match s.as_bytes()[0] {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 || !digits.is_ascii() {
        return None;
    }
    Some(sign * (num(&digits[..2])? * 60 + num(&digits[2..])?) * 60_000)
}

/// A fraction of a second (`.5`, `.123456`) in whole milliseconds, truncated.
fn fraction_ms(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('.').or_else(|| s.strip_prefix(','))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let three: String = digits.chars().chain("000".chars()).take(3).collect();
    num(&three)
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The common log format as nginx and Apache write it, `dd/Mon/yyyy:HH:MM:SS +hhmm`: read by
/// position (the hot path of a log's every line); anything else is left to [`clf`]'s general
/// reading.
fn clf_fixed(b: &[u8]) -> Option<Stamp> {
    if b.len() != 26 || b[2] != b'/' || b[6] != b'/' || b[11] != b':' || b[14] != b':' || b[17] != b':' || b[20] != b' '
    {
        return None;
    }
    let digits = |from: usize, to: usize| -> Option<i64> {
        b[from..to].iter().try_fold(0i64, |n, &c| c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0')))
    };
    let month = |m: &[u8]| u32::from(m[0]) << 16 | u32::from(m[1]) << 8 | u32::from(m[2]);
    let mo = MONTHS.iter().position(|m| month(m.as_bytes()) == month(&b[3..6]))? as i64 + 1;
    let sign = match b[21] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let zone = sign * (digits(22, 24)? * 60 + digits(24, 26)?) * 60_000;
    let ms = civil_ms(digits(7, 11)?, mo, digits(0, 2)?, digits(12, 14)?, digits(15, 17)?, digits(18, 20)?)? - zone;
    Some(Stamp { ms, whole_second: true })
}

/// The common log format's `dd/Mon/yyyy:HH:MM:SS zone` (without the brackets).
///
/// ```
/// use ratelimit_playground::sim::logs::stamp::clf;
/// assert_eq!(clf("10/Oct/2000:13:55:36 -0700").unwrap().ms, 971_211_336_000);
/// ```
pub fn clf(s: &str) -> Option<Stamp> {
    if let Some(stamp) = clf_fixed(s.as_bytes()) {
        return Some(stamp);
    }
    let (when, zone) = s.split_once(' ').unwrap_or((s, ""));
    let mut parts = when.splitn(3, '/');
    let (d, mon, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let mo = MONTHS.iter().position(|m| *m == mon)? as i64 + 1;
    let mut hms = rest.split(':');
    let (y, h, mi, sec) = (hms.next()?, hms.next()?, hms.next()?, hms.next()?);
    let (sec, frac) = match sec.find('.') {
        Some(i) => (&sec[..i], fraction_ms(&sec[i..])),
        None => (sec, None),
    };
    let ms =
        civil_ms(num(y)?, mo, num(d)?, num(h)?, num(mi)?, num(sec)?)? + frac.unwrap_or(0) - offset_ms(zone.trim())?;
    Some(Stamp { ms, whole_second: frac.is_none() })
}

/// ISO 8601: `YYYY-MM-DDTHH:MM:SS[.fff][Z|±hh:mm]` (a space instead of `T` too).
///
/// ```
/// use ratelimit_playground::sim::logs::stamp::iso8601;
/// let s = iso8601("2000-10-10T20:55:36.1234Z").unwrap();
/// assert_eq!((s.ms, s.whole_second), (971_211_336_123, false));
/// assert_eq!(iso8601("2000-10-10 13:55:36-07:00").unwrap().ms, 971_211_336_000);
/// ```
pub fn iso8601(s: &str) -> Option<Stamp> {
    let s = s.trim();
    // Every position below is a byte offset: only ASCII text can be an ISO 8601 time.
    if s.len() < 19 || !s.is_ascii() {
        return None;
    }
    let (date, rest) = s.split_at(10);
    let sep = rest.as_bytes()[0];
    if sep != b'T' && sep != b' ' {
        return None;
    }
    let mut d = date.split('-');
    let (y, mo, day) = (num(d.next()?)?, num(d.next()?)?, num(d.next()?)?);
    let time = &rest[1..];
    let (h, mi, sec) = (num(&time[0..2])?, num(time.get(3..5)?)?, num(time.get(6..8)?)?);
    if time.as_bytes()[2] != b':' || time.as_bytes()[5] != b':' {
        return None;
    }
    let tail = &time[8..];
    let frac_len =
        if tail.starts_with(['.', ',']) { 1 + tail[1..].bytes().take_while(u8::is_ascii_digit).count() } else { 0 };
    let frac = (frac_len > 0).then(|| fraction_ms(&tail[..frac_len])).flatten();
    if frac_len > 0 && frac.is_none() {
        return None;
    }
    let ms = civil_ms(y, mo, day, h, mi, sec)? + frac.unwrap_or(0) - offset_ms(&tail[frac_len..])?;
    Some(Stamp { ms, whole_second: frac.is_none() })
}

/// Epoch seconds (`1700000000`, `1700000000.123`, up to 11 digits), or a whole number of
/// milliseconds (13 digits), microseconds (16) or nanoseconds (19), as loggers write them.
///
/// ```
/// use ratelimit_playground::sim::logs::stamp::epoch;
/// assert_eq!(epoch("1700000000.5").unwrap().ms, 1_700_000_000_500);
/// assert_eq!(epoch("1700000000123").unwrap(), epoch("1700000000.123").unwrap());
/// assert_eq!(epoch("1700000000123456").unwrap().ms, 1_700_000_000_123);
/// assert_eq!(epoch("1700000000123456789").unwrap().ms, 1_700_000_000_123);
/// assert!(epoch("170000000012345").is_none(), "15 digits are no unit");
/// ```
pub fn epoch(s: &str) -> Option<Stamp> {
    let s = s.trim();
    let (int, frac) = match s.find('.') {
        Some(i) => (&s[..i], Some(&s[i..])),
        None => (s, None),
    };
    let n = num(int)?;
    if int.len() > 11 {
        let per_ms = match int.len() {
            13 => 1,
            16 => 1_000,
            19 => 1_000_000,
            _ => return None,
        };
        return frac.is_none().then_some(Stamp { ms: n / per_ms, whole_second: false });
    }
    match frac {
        Some(f) => Some(Stamp { ms: n * 1000 + fraction_ms(f)?, whole_second: false }),
        None => Some(Stamp { ms: n * 1000, whole_second: true }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_spellings_of_one_moment_agree() {
        let ms = 1_700_000_000_000;
        assert_eq!(clf("14/Nov/2023:22:13:20 +0000").unwrap().ms, ms);
        assert_eq!(iso8601("2023-11-14T22:13:20Z").unwrap().ms, ms);
        assert_eq!(epoch("1700000000").unwrap().ms, ms);
        assert_eq!(clf("14/Nov/2023:23:13:20 +0100").unwrap().ms, ms);
    }

    #[test]
    fn nonsense_is_none_not_a_panic() {
        for s in [
            "",
            "x",
            "32/Nov/2023:22:13:20 +0000",
            "14/Foo/2023:22:13:20 +0000",
            "2023-13-01T00:00:00Z",
            "2023-11-14T22:13:20.Z",
            "1.2.3",
            "12ab",
            "2023-11-14T22:13:2é",
            "2023-11-1€T22:13:20",
            "2023-11-14T2€:13:20",
            "2023-11-14T22:13:20+1€",
            "14/Nov/2023:22:13:20 +1€",
            "14/Nov/2023:22:13:20 +1é1",
        ] {
            assert!(clf(s).is_none() && iso8601(s).is_none() && epoch(s).is_none(), "{s}");
        }
    }
}
