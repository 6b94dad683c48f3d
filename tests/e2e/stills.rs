//! What the browser tests read from a still the CLI draws (`ratelimit-sim --format svg`): the
//! counts its title line gives at the moment drawn, to hold a page or a frame against.

/// The counts in a CLI still's title line ("… · 101 requests, 65 admitted, 36 rejected").
pub(crate) fn still_counts(svg: &str) -> [u64; 3] {
    let line = svg.lines().find(|l| l.contains(" requests, ")).expect("a title line with counts");
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter(|s| !s.is_empty() && s.chars().any(|c| c.is_ascii_digit()))
        .map(|s| s.replace(',', "").parse().unwrap())
        .collect();
    let n = numbers.len();
    [numbers[n - 3], numbers[n - 2], numbers[n - 1]]
}
