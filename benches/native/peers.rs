//! The two peers the cold loads are compared with, found at run time and never committed:
//! amir-h-rassafi/ratelimiter-simulator's `public/` folder (vanilla JavaScript, served as it is)
//! and ukslim/token-bucket-visualisation as `vite build --base ./` builds it. `scripts/peers.sh`
//! puts them under `~/.cache/ratelimit-playground/peers/` (or `$RLP_PEERS`); a peer that is not
//! there is left out of the table with a line saying how to get it.

use std::path::PathBuf;

/// One peer: its name in the table, its folder under the peers' folder, its repository.
pub struct Peer {
    /// How the table names it.
    pub name: &'static str,
    /// Its folder under the peers' folder, holding an `index.html`.
    pub folder: &'static str,
    /// Where its source lives.
    pub repo: &'static str,
}

/// The peers, in the table's order.
pub const PEERS: [Peer; 2] = [
    Peer {
        name: "ratelimiter-simulator (vanilla JS)",
        folder: "ratelimiter-simulator",
        repo: "amir-h-rassafi/ratelimiter-simulator",
    },
    Peer {
        name: "token-bucket-visualisation (vite)",
        folder: "token-bucket-visualisation",
        repo: "ukslim/token-bucket-visualisation",
    },
];

/// The folder `scripts/peers.sh` fills: `$RLP_PEERS`, else `~/.cache/ratelimit-playground/peers`.
pub fn folder() -> PathBuf {
    std::env::var_os("RLP_PEERS").map(PathBuf::from).unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        home.join(".cache/ratelimit-playground/peers")
    })
}

impl Peer {
    /// The peer's built site, or why it is not there and how to get it.
    pub fn site(&self) -> Result<PathBuf, String> {
        let dir = folder().join(self.folder);
        if dir.join("index.html").is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "peer {}: not available (no {}; run scripts/peers.sh, which builds it from a mirror \
                 of github.com/{} or a clone of it)",
                self.name,
                dir.join("index.html").display(),
                self.repo
            ))
        }
    }
}
