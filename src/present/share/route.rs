//! Which wasm module serves a link, decided from its raw query keys before any module is fetched:
//! the page's first module, a frame's, or the whole page. The rules are data ([`WHOLE`]): the
//! loader's `route(search)` (scripts/loader/route.js, committed) is printed from them by
//! [`route_js`], and [`Module::of`] reads them in Rust the way the loader's `URLSearchParams`
//! does, for the tests that hold the routing against what the first modules draw and against the
//! printed function run in Node (tests/loader_route.rs, scripts/tests/).
//!
//! The routing only saves time: a first module started on a link it does not draw hands the link
//! over to the whole page itself (`app::whole_page`), one module later. So the tests here are
//! cheap ones over keys, not a parse; the whole page explains whatever they let through to it.

use crate::sim::products::ALGO_NAMES;
use crate::sim::query::pairs;
use crate::sim::Algorithm;

/// A wasm module the loader starts for a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    /// The page's first module (`ratelimit-playground`, src/main.rs): one server's limiter run
    /// and drawn, textbook algorithms only.
    Page,
    /// A frame's module (`ratelimit-frame`, for `embed=1`): one server's cards.
    Frame,
    /// The whole page (`ratelimit-full`): every view and panel, and a frame of any card.
    Whole,
}

/// A test of one raw query key as the loader reads it: the key's first value, percent-decoded
/// (`URLSearchParams.get`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The key's value is this one.
    Is(&'static str, &'static str),
    /// The key's value, read as JavaScript's `Number()` reads it, is above this (an absent key
    /// reads as 0).
    NumberAbove(&'static str, u32),
    /// The key is given, with any value.
    Present(&'static str),
    /// The key is given, with another value than this one.
    PresentAndNot(&'static str, &'static str),
    /// The key's value, split at commas, has this item.
    ListHas(&'static str, &'static str),
    /// The key is given, with a value that is none of these.
    NotIn(&'static str, &'static [&'static str]),
}

/// Which links a [`Rule`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// Every link.
    All,
    /// A frame's (`embed=1`, [`EMBED`]).
    Embeds,
    /// Any other: the page's.
    Pages,
}

/// One reason a link runs the whole page: the links it is about, and the tests of which any one
/// passing sends such a link there.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// Why these links need the whole page (printed as the loader's comment on the rule).
    pub why: &'static str,
    /// The links the rule is about.
    pub links: Links,
    /// Any one passing sends the link to the whole page.
    pub any: &'static [Test],
}

/// What makes a link a frame's: `embed=1` (the frame's and the whole page's readers take
/// `embed=true` too, which the loader leaves to the page's first module to hand over).
pub const EMBED: Test = Test::Is("embed", "1");

/// The textbook algorithms' `algo=` names, from the engine's table of `algo` values
/// ([`ALGO_NAMES`]), in [`Algorithm::TEXTBOOK`]'s order: any other name is a product's.
pub const TEXTBOOK_NAMES: [&str; 5] = {
    let mut out = [""; 5];
    let mut i = 0;
    while i < out.len() {
        let mut j = 0;
        while j < ALGO_NAMES.len() {
            if ALGO_NAMES[j].1.number() == Algorithm::TEXTBOOK[i].number() {
                out[i] = ALGO_NAMES[j].0;
            }
            j += 1;
        }
        assert!(!out[i].is_empty(), "a textbook algorithm has no name in ALGO_NAMES");
        i += 1;
    }
    out
};

/// The links the first modules do not draw, which the loader sends to the whole page. Should
/// these miss one, the first module hands over to the whole page itself (`app::whole_page`):
/// only slower.
pub const WHOLE: [Rule; 6] = [
    Rule {
        why: "A multi-node link, as `cluster::presets::is_cluster` and `LinkView` read it: the first modules \
              draw one server.",
        links: Links::All,
        any: &[Test::Is("view", "cluster"), Test::NumberAbove("nodes", 1), Test::PresentAndNot("store", "local")],
    },
    Rule {
        why: "A frame's Compare all card (`show=compare`): a frame's module draws one server's cards.",
        links: Links::Embeds,
        any: &[Test::ListHas("show", "compare")],
    },
    Rule { why: "The page's Compare all (`view=compare`).", links: Links::Pages, any: &[Test::Is("view", "compare")] },
    Rule {
        why: "A link to a product model (`algo=nginx` and the like) or to the leaky bucket's queue: neither \
              first module's capabilities have their models (`present::modules`). Any `algo` that is not a textbook \
              algorithm's name is one of these (or unknown, which the whole page explains), so a product \
              added to the registry needs nothing here.",
        links: Links::All,
        any: &[Test::NotIn("algo", &TEXTBOOK_NAMES)],
    },
    Rule {
        why: "A page link to a moment (`t=`: an embed's \"Open in the playground\"), which the whole page opens on.",
        links: Links::Pages,
        any: &[Test::Present("t")],
    },
    Rule {
        why: "The learner's tour (`tour=path&step=N`): its steps run a cluster as well as one server, and the \
              whole page draws the tour.",
        links: Links::Pages,
        any: &[Test::Present("tour")],
    },
];

impl Module {
    /// The module the loader starts for a link whose query is `query` (`location.search`, with
    /// or without its `?`): the whole page for one a [`WHOLE`] rule sends there, else a frame's
    /// for an embed link, else the page's first module.
    ///
    /// ```
    /// use ratelimit_playground::present::share::route::Module;
    /// assert_eq!(Module::of("?algo=gcra&rate=3"), Module::Page);
    /// assert_eq!(Module::of("?algo=nginx"), Module::Whole);
    /// assert_eq!(Module::of("?embed=1&algo=nginx"), Module::Whole);
    /// assert_eq!(Module::of("?embed=1&show=state,compare"), Module::Whole);
    /// assert_eq!(Module::of("?nodes=%204"), Module::Whole);
    /// ```
    pub fn of(query: &str) -> Module {
        let query = Query::read(query);
        let embed = query.passes(EMBED);
        let whole = WHOLE.iter().any(|rule| rule.links.include(embed) && rule.any.iter().any(|&t| query.passes(t)));
        match (whole, embed) {
            (true, _) => Module::Whole,
            (false, true) => Module::Frame,
            (false, false) => Module::Page,
        }
    }

    /// What the loader's `route` returns for it.
    pub fn key(self) -> &'static str {
        match self {
            Module::Page => "page",
            Module::Frame => "frame",
            Module::Whole => "whole",
        }
    }
}

impl Links {
    /// Whether a link, a frame's or not, is one of these.
    fn include(self, embed: bool) -> bool {
        match self {
            Links::All => true,
            Links::Embeds => embed,
            Links::Pages => !embed,
        }
    }

    /// The condition in JavaScript, `None` for every link.
    fn js(self) -> Option<&'static str> {
        match self {
            Links::All => None,
            Links::Embeds => Some("embed"),
            Links::Pages => Some("!embed"),
        }
    }
}

/// A query's pairs, each key and value percent-decoded, in order, as `URLSearchParams` holds
/// them (a key without `=` has the empty value).
struct Query(Vec<(String, String)>);

impl Query {
    fn read(query: &str) -> Query {
        Query(pairs(query).collect())
    }

    /// The first value of `key` (`URLSearchParams.get`).
    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn passes(&self, test: Test) -> bool {
        match test {
            Test::Is(key, value) => self.get(key) == Some(value),
            Test::NumberAbove(key, least) => self.get(key).map_or(0.0, js_number) > f64::from(least),
            Test::Present(key) => self.get(key).is_some(),
            Test::PresentAndNot(key, value) => self.get(key).is_some_and(|v| v != value),
            Test::ListHas(key, item) => self.get(key).unwrap_or_default().split(',').any(|v| v == item),
            Test::NotIn(key, values) => self.get(key).is_some_and(|v| !values.contains(&v)),
        }
    }
}

/// `text` as JavaScript's `Number(text)` reads it: surrounding white space ignored, empty as 0,
/// a decimal literal, `Infinity` with its sign, an unsigned `0x`, `0o` or `0b` integer; NaN for
/// anything else (which is above no number).
///
/// ```
/// # use ratelimit_playground::present::share::route::js_number;
/// assert_eq!(js_number(" 2\n"), 2.0);
/// assert_eq!(js_number(""), 0.0);
/// assert_eq!(js_number("0x10"), 16.0);
/// assert_eq!(js_number("-Infinity"), f64::NEG_INFINITY);
/// assert!(js_number("inf").is_nan() && js_number("2abc").is_nan() && js_number("-0x1").is_nan());
/// ```
pub fn js_number(text: &str) -> f64 {
    // JavaScript's white space and line terminators: Unicode's White_Space but U+0085, and U+FEFF.
    let space = |c: char| c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}');
    let text = text.trim_matches(space);
    let radix = |digits: &str, radix: u32| {
        let value = digits.chars().try_fold(0.0, |n, c| c.to_digit(radix).map(|d| n * f64::from(radix) + f64::from(d)));
        value.filter(|_| !digits.is_empty()).unwrap_or(f64::NAN)
    };
    match text.get(..2) {
        _ if text.is_empty() => 0.0,
        Some("0x" | "0X") => radix(&text[2..], 16),
        Some("0o" | "0O") => radix(&text[2..], 8),
        Some("0b" | "0B") => radix(&text[2..], 2),
        _ => match text.strip_prefix(['+', '-']).unwrap_or(text) {
            "Infinity" if text.starts_with('-') => f64::NEG_INFINITY,
            "Infinity" => f64::INFINITY,
            // Rust's float syntax is JavaScript's decimal literal plus `inf` and `NaN`, which the
            // characters allowed here rule out.
            _ if text.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) => text.parse().unwrap_or(f64::NAN),
            _ => f64::NAN,
        },
    }
}

/// The loader's routing, scripts/loader/route.js: [`WHOLE`] printed as a JavaScript function
/// `route(search)` that returns what [`Module::of`] does, as [`Module::key`] names it.
pub fn route_js() -> String {
    let mut js = String::from(
        "// Which module serves a link: \"whole\" (ratelimit-full, the whole page), \"frame\" (ratelimit-frame)\n\
         // or \"page\" (the page's first module), from the link's query (`location.search`).\n\
         // Printed from src/present/share/route.rs, where `Module::of` is the same decision in Rust:\n\
         // change that file and run `make loader-route`, do not edit this one.\n\
         const route = (search) => {\n  const query = new URLSearchParams(search);\n",
    );
    js += &format!("  const embed = {};\n", test_js(EMBED));
    for rule in WHOLE {
        for line in wrap(rule.why, 96) {
            js += &format!("  // {line}\n");
        }
        let tests: Vec<String> = rule.any.iter().map(|&t| test_js(t)).collect();
        let tests = tests.join(" || ");
        let condition = match rule.links.js() {
            Some(links) if rule.any.len() > 1 => format!("{links} && ({tests})"),
            Some(links) => format!("{links} && {tests}"),
            None => tests,
        };
        js += &format!("  if ({condition}) return \"{}\";\n", Module::Whole.key());
    }
    js += &format!("  return embed ? \"{}\" : \"{}\";\n}};\n", Module::Frame.key(), Module::Page.key());
    js
}

/// `test` as a JavaScript expression on `query`, a `URLSearchParams`.
fn test_js(test: Test) -> String {
    match test {
        Test::Is(key, value) => format!("query.get({}) === {}", string_js(key), string_js(value)),
        Test::NumberAbove(key, least) => format!("Number(query.get({})) > {least}", string_js(key)),
        Test::Present(key) => format!("query.has({})", string_js(key)),
        Test::PresentAndNot(key, value) => {
            format!("(query.has({k}) && query.get({k}) !== {})", string_js(value), k = string_js(key))
        }
        Test::ListHas(key, item) => {
            format!("(query.get({}) || \"\").split(\",\").includes({})", string_js(key), string_js(item))
        }
        Test::NotIn(key, values) => {
            let values: Vec<String> = values.iter().map(|v| string_js(v)).collect();
            format!("(query.has({k}) && ![{}].includes(query.get({k})))", values.join(", "), k = string_js(key))
        }
    }
}

/// `text` as a JavaScript string literal. The table's keys and values are plain words.
///
/// # Panics
/// On any character other than an ASCII letter, digit or `_`.
fn string_js(text: &str) -> String {
    assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "not a plain word: {text:?}");
    format!("\"{text}\"")
}

/// `text`'s words in lines of at most `width` characters (a longer word alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Scenario;

    #[test]
    fn the_textbook_names_are_those_the_first_modules_run() {
        for (name, algo) in ALGO_NAMES {
            assert_eq!(TEXTBOOK_NAMES.contains(&name), algo.in_first_modules(), "{name}");
        }
        assert_eq!(Module::of("?algo=leaky_bucket"), Module::Whole);
        for (name, algo) in TEXTBOOK_NAMES.iter().zip(Algorithm::TEXTBOOK) {
            assert_eq!(Scenario::from_query(&format!("algo={name}")).map(|sc| sc.algo), Ok(algo));
        }
    }

    #[test]
    fn a_key_is_read_as_url_search_params_reads_it() {
        // The first value counts, decoded; a key without `=` is given, empty.
        assert_eq!(Module::of("?nodes=1&nodes=4"), Module::Page);
        assert_eq!(Module::of("?nodes=4&nodes=1"), Module::Whole);
        assert_eq!(Module::of("?vi%65w=cluster"), Module::Whole);
        assert_eq!(Module::of("?algo=gcr%61"), Module::Page);
        assert_eq!(Module::of("?algo=token+bucket"), Module::Whole);
        assert_eq!(Module::of("?store"), Module::Whole);
        assert_eq!(Module::of("store=local"), Module::Page);
        assert_eq!(Module::of("??view=cluster"), Module::Page);
        assert_eq!(Module::of("?embed=1&embed=0"), Module::Frame);
        assert_eq!(Module::of("?embed=true"), Module::Page);
    }

    #[test]
    fn a_rule_about_frames_or_pages_leaves_the_others_alone() {
        assert_eq!(Module::of("?show=compare"), Module::Page);
        assert_eq!(Module::of("?embed=1&view=compare"), Module::Frame);
        assert_eq!(Module::of("?embed=1&algo=envoy"), Module::Whole);
        assert_eq!(Module::of("?embed=1&algo=gcra"), Module::Frame);
        assert_eq!(Module::of("?embed=1&view=cluster"), Module::Whole);
    }

    #[test]
    fn a_number_is_read_as_javascript_s_number_reads_it() {
        for (text, number) in [
            ("1", 1.0),
            ("  +1.5e1\t", 15.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("0b11", 3.0),
            ("0O17", 15.0),
            ("0XfF", 255.0),
            ("\u{feff}2\u{3000}", 2.0),
            ("Infinity", f64::INFINITY),
            ("+Infinity", f64::INFINITY),
            ("-0", 0.0),
        ] {
            assert_eq!(js_number(text), number, "{text:?}");
        }
        for text in ["NaN", "infinity", "inf", "1e", "e1", ".", "+", "0x", "-0x1", "1_000", "\u{85}2", "2 2", "٣"] {
            assert!(js_number(text).is_nan(), "{text:?}");
        }
    }

    #[test]
    fn the_printed_function_carries_each_rule_s_why_and_the_engine_s_names() {
        let js = route_js();
        for rule in WHOLE {
            assert!(js.contains(&wrap(rule.why, 96)[0]), "{}", rule.why);
        }
        let names: Vec<String> = TEXTBOOK_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
        assert!(js.contains(&format!("![{}].includes(query.get(\"algo\"))", names.join(", "))), "{js}");
    }
}
