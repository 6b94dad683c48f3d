//! Fuzzing the query parser and scenario validation: random mixes of real keys, plausible and
//! hostile values, and raw noise. No input may panic; every leniently parsed scenario must
//! validate and survive a round trip through its printed query; the CLI's strict reading accepts
//! exactly the queries read without a problem. There is one reader (`sim::query::read_query`);
//! the first modules use it through `Clean`, which makes no problem, so the fuzz pins that the
//! page's (`Link::read_page`) and the frame's (`Link::read_frame`) accept exactly the links the
//! whole page reads without a problem, and every problem has words for the notice and the CLI.
//!
//! `make test` runs `FUZZ_CASES` (default 5 000) cases; `make fuzz` runs a million in release.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use ratelimit_playground::present::modules;
use ratelimit_playground::present::share::link::{Frame, Link, LinkView, APP_KEYS};
use ratelimit_playground::sim::query::{known_keys, percent_decode};
use ratelimit_playground::sim::{Capabilities, Rate, Scenario, TrafficShape};

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,24}",
        "-?[0-9]{0,6}\\.[0-9]{0,12}",
        "[0-9]{1,4}(e|E)[+-]?[0-9]{1,3}",
        "(NaN|nan|inf|-inf|Infinity|0x1F|1_000|１２)",
        "[0-9.]{0,3}-[0-9.]{0,6}",
        "%[0-9A-Fa-f]{0,2}[a-z_]{0,8}",
        "[a-z_]{0,16}",
        ".{0,24}",
    ]
}

fn query() -> impl Strategy<Value = String> {
    let key = prop_oneof![8 => prop::sample::select(known_keys().split(", ").map(String::from).collect::<Vec<_>>()), 1 => ".{0,10}"];
    let pair = prop_oneof![
        10 => (key, value()).prop_map(|(k, v)| format!("{k}={v}")),
        1 => ".{0,16}",
        2 => prop::sample::select(vec![
            "view=single", "view=compare", "embed=1", "embed=1", "embed=0", "embed=true", "theme=dark", "theme=blue",
            "t=3", "t=9999", "t=-1", "view=x", "show=state,throughput", "show=bogus", "show=topology", "show=compare",
            "controls=rate,seed", "controls=nope", "caption=Hello%20world", "autoplay=0", "autoplay=2",
        ])
        .prop_map(String::from),
    ];
    (prop::collection::vec(pair, 0..14), prop::sample::select(vec!["&", "&&", ";", "&?"]))
        .prop_map(|(pairs, sep)| pairs.join(sep))
}

#[test]
fn the_query_parser_never_panics_and_lenient_results_always_validate() {
    let cases: u32 = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let base = Scenario { rate: Rate::per_sec(8), ..Scenario::default() };
    let start = std::time::Instant::now();
    runner
        .run(&query(), |q| {
            let strict = Scenario::from_query(&q);
            let (lenient, notices) = Scenario::read(&q);
            prop_assert_eq!(strict.is_ok(), notices.is_empty(), "{}: strict and lenient disagree", q);
            let (link, problems) = Link::read(&q, &base);
            for p in &problems {
                prop_assert!(!p.notice().message.is_empty(), "{}: {:?} has no words", q, p);
                prop_assert!(!p.error().message.is_empty(), "{}: {:?} has no words", q, p);
            }
            let clean = problems.is_empty()
                && link.view == LinkView::Single
                && !link.embed
                && link.frame == Frame::default()
                && link.tour.is_none();
            // An embed's keys are the whole page's to read, even at their defaults.
            let embed_keys = q
                .split('&')
                .any(|p| APP_KEYS[1..].contains(&percent_decode(p.split('=').next().unwrap_or("")).as_str()));
            let runs = |caps: Capabilities| caps.check(&link.scenario).is_ok();
            match Link::read_page(&q, &base, modules::PAGE) {
                Some(plain) => prop_assert!(
                    clean && runs(modules::PAGE) && plain == link,
                    "{}: read_page read what read did not",
                    q
                ),
                None => {
                    prop_assert!(!clean || embed_keys || !runs(modules::PAGE), "{}: read_page refused a clean link", q)
                }
            }
            // A frame's first module: exactly the embed links read without a notice.
            let clean_embed = problems.is_empty() && link.view == LinkView::Single && link.embed;
            match Link::read_frame(&q, &base, modules::FRAME) {
                Some(plain) => prop_assert!(
                    clean_embed && runs(modules::FRAME) && plain == link,
                    "{}: read_frame read what read did not",
                    q
                ),
                None => {
                    prop_assert!(!clean_embed || !runs(modules::FRAME), "{}: read_frame refused a clean embed link", q)
                }
            }
            if let Ok(sc) = &strict {
                prop_assert!(notices.is_empty(), "{q}: strict accepted but lenient complained: {notices:?}");
                prop_assert_eq!(sc, &lenient);
            }
            if lenient.traffic != TrafficShape::Trace {
                prop_assert!(lenient.validate().is_ok(), "{}: {:?}", q, lenient.validate());
                prop_assert_eq!(Scenario::from_query(&lenient.to_query()), Ok(lenient.clone()));
            }
            Ok(())
        })
        .unwrap();
    eprintln!("fuzz_query: {cases} cases, 0 panics, {:.1} s", start.elapsed().as_secs_f64());
}
