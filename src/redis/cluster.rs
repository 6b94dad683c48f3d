//! Redis Cluster for the runner (`--cluster`): which primary serves a key's hash slot
//! ([`SlotMap`], from `CLUSTER SLOTS`), and the run's keys placed on purpose ([`place`]): one key
//! lives on one primary (the hot shard); with `shards=K` key i goes to primary i mod P, so the K
//! keys spread over the primaries as evenly as they can.
//!
//! The slot of a key is CRC16 (XMODEM) of its hash tag — the part between the first `{` and the
//! next `}`, when not empty — modulo 16 384, as the Redis Cluster specification defines it.

use super::conn::Conn;
use super::resp::Reply;
use super::url::RedisUrl;

/// How many hash slots a cluster has.
pub const SLOTS: u16 = 16_384;

/// CRC16/XMODEM (polynomial 0x1021, initial 0), the checksum Redis Cluster hashes keys with.
///
/// ```
/// use ratelimit_playground::redis::cluster::crc16;
/// assert_eq!(crc16(b"123456789"), 0x31C3); // the specification's check value
/// ```
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

/// The hash slot of `key`: of its hash tag if it has a non-empty one.
///
/// ```
/// use ratelimit_playground::redis::cluster::slot;
/// assert_eq!(slot("{user1000}.following"), slot("{user1000}.followers"));
/// assert_eq!(slot("foo{}{bar}"), slot("foo{}{bar}")); // `{}` is no tag: the whole key hashes
/// assert_eq!(slot("foo"), 12_182);
/// ```
pub fn slot(key: &str) -> u16 {
    let tag = key
        .find('{')
        .and_then(|open| key[open + 1..].find('}').map(|len| &key[open + 1..open + 1 + len]))
        .filter(|t| !t.is_empty());
    crc16(tag.unwrap_or(key).as_bytes()) % SLOTS
}

/// Which primary serves each slot.
#[derive(Clone, Debug)]
pub struct SlotMap {
    /// The primaries, in the order `CLUSTER SLOTS` first names them.
    pub primaries: Vec<RedisUrl>,
    /// `(first slot, last slot, primary)`.
    ranges: Vec<(u16, u16, usize)>,
}

impl SlotMap {
    /// Asks the node at `seed` (`CLUSTER SLOTS`); the primaries get the seed's login.
    pub fn read(seed: &RedisUrl, conn: &mut Conn) -> Result<SlotMap, String> {
        let reply = conn.call(&["CLUSTER", "SLOTS"]).map_err(|e| {
            if e.contains("cluster support disabled") {
                format!("--cluster: Redis at {seed} is not a cluster node (start it with --cluster-enabled yes)")
            } else {
                e
            }
        })?;
        let mut map = SlotMap { primaries: Vec::new(), ranges: Vec::new() };
        for range in reply.items() {
            let items = range.items();
            let bad = || format!("--cluster: unexpected CLUSTER SLOTS reply from {seed}: {range:?}");
            let (first, last) = (
                items.first().and_then(Reply::int).ok_or_else(bad)?,
                items.get(1).and_then(Reply::int).ok_or_else(bad)?,
            );
            let node = items.get(2).ok_or_else(bad)?.items();
            let host = node.first().and_then(Reply::text).ok_or_else(bad)?;
            let port = node.get(1).and_then(Reply::int).ok_or_else(bad)? as u16;
            // A node that announces no address (`?` or empty) is reached where the seed is.
            let host = if host.is_empty() || host == "?" { seed.host.clone() } else { host };
            let url = RedisUrl { host, port, db: 0, ..seed.clone() };
            let index = match map.primaries.iter().position(|p| p == &url) {
                Some(i) => i,
                None => {
                    map.primaries.push(url);
                    map.primaries.len() - 1
                }
            };
            map.ranges.push((first as u16, last as u16, index));
        }
        if map.ranges.iter().map(|&(a, b, _)| u32::from(b - a) + 1).sum::<u32>() != u32::from(SLOTS) {
            return Err(format!("--cluster: the cluster at {seed} does not serve all 16384 slots (CLUSTER SLOTS)"));
        }
        Ok(map)
    }

    /// The primary (index into [`SlotMap::primaries`]) serving `slot`.
    pub fn owner(&self, slot: u16) -> Option<usize> {
        self.ranges.iter().find(|&&(a, b, _)| (a..=b).contains(&slot)).map(|&(_, _, p)| p)
    }
}

/// The run ids of `k` keys (`run`, then `-s{i}-{j}`) and the primary each lands on: key i on
/// primary i mod P, found by trying `j` = 0, 1, … until the tag hashes to a slot it serves.
pub fn place(run: &str, k: usize, map: &SlotMap) -> Vec<(String, usize)> {
    let p = map.primaries.len().max(1);
    (0..k)
        .map(|i| {
            let target = i % p;
            (0..)
                .map(|j| format!("{run}-s{i}-{j}"))
                .find_map(|tag| map.owner(slot(&tag)).filter(|&o| o == target).map(|o| (tag, o)))
                .expect("every primary serves some slot")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_placed_round_robin_over_the_primaries() {
        let url = RedisUrl::parse("redis://127.0.0.1:7000").unwrap();
        let primaries = (0..3).map(|i| RedisUrl { port: 7000 + i, ..url.clone() }).collect();
        let map = SlotMap { primaries, ranges: vec![(0, 5460, 0), (5461, 10922, 1), (10923, 16383, 2)] };
        let placed = place("run-1", 5, &map);
        assert_eq!(placed.iter().map(|p| p.1).collect::<Vec<_>>(), [0, 1, 2, 0, 1]);
        for (tag, owner) in placed {
            assert_eq!(map.owner(slot(&format!("rlp:{{{tag}}}:limiter"))), Some(owner));
        }
    }
}
