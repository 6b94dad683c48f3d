//! The scopes' tests: counters per instance and per field value against one global counter, and
//! the flags' words.

use super::*;

/// `lines` of (ms, ip, pop) as JSON lines.
fn log(lines: &[(u64, &str, &str)]) -> String {
    lines
        .iter()
        .map(|(ms, ip, pop)| {
            format!(
                "{{\"msec\": {}.{:03}, \"ip\": \"{ip}\", \"pop\": \"{pop}\"}}\n",
                1_700_000_000 + ms / 1000,
                ms % 1000
            )
        })
        .collect()
}

fn run(text: &str, query: &str, scope: Scope) -> (ShadowReport, Option<AgainstGlobal>) {
    let sc = Scenario::from_query(query).unwrap();
    let mut run = Scoped::new(&sc, scope.clone());
    let read = crate::sim::logs::reader::LogReader::new(None, &KeyBy::Ip).with_part_field(scope.field());
    let mut reader = read;
    let mut arrivals = Vec::new();
    reader.feed(text.as_bytes(), &mut |a, from| arrivals.push((a, from.key.to_string(), from.origin_s))).unwrap();
    let summary = reader.finish(&mut |a, from| arrivals.push((a, from.key.to_string(), from.origin_s))).unwrap();
    for (a, key, origin_s) in arrivals {
        run.push(a, Sender { key: &key, origin_s });
    }
    run.finish(summary)
}

#[test]
fn n_instances_round_robin_admit_up_to_n_times_the_burst() {
    // a sends 8 at once under a bucket of 2: one counter admits 2, four instances 8.
    let text = log(&[
        (0, "a", "x"),
        (1, "a", "x"),
        (2, "a", "x"),
        (3, "a", "x"),
        (4, "a", "x"),
        (5, "a", "x"),
        (6, "a", "x"),
        (7, "a", "x"),
    ]);
    let (r, against) = run(&text, "capacity=2&refill=1", Scope::Instances { n: 4, placement: Placement::RoundRobin });
    let against = against.unwrap();
    assert_eq!((r.admitted, r.rejected, against.admitted, against.rejected), (8, 0, 2, 6));
    assert_eq!((against.newly_spared, against.newly_throttled, against.counters), (vec![0], vec![], 4));
    assert_eq!(r.per_key[0].peak_1s, 8, "the key's peak is over all its requests");
    let (hashed, against) = run(&text, "capacity=2&refill=1", Scope::Instances { n: 4, placement: Placement::Hash });
    assert_eq!((hashed.admitted, against.unwrap().counters), (2, 1), "a hash puts a key on one instance");
}

#[test]
fn a_counter_per_pop_counts_each_pops_requests_apart() {
    let text =
        log(&[(0, "a", "fra"), (1, "a", "fra"), (2, "a", "fra"), (3, "a", "iad"), (4, "a", "iad"), (5, "b", "iad")]);
    let (r, against) = run(&text, "capacity=2&refill=1", Scope::Field("pop".into()));
    assert_eq!((r.admitted, r.rejected), (5, 1), "fra refuses its third; iad admits its two");
    let against = against.unwrap();
    assert_eq!((against.admitted, against.keys_throttled, against.counters), (3, 1, 3), "one counter: a gets 2 of 5");
    assert!(against.newly_spared.is_empty() && against.newly_throttled.is_empty());
    assert_eq!(r.first_rejected[0], Some(SimTime(r.first.as_nanos() + 2_000_000)));
}

#[test]
fn random_placement_is_the_same_whatever_else_the_log_holds() {
    let alone = log(&(0..40).map(|i| (i * 10, "a", "x")).collect::<Vec<_>>());
    let mixed = log(&(0..80).map(|i| (i * 5, if i % 2 == 0 { "a" } else { "b" }, "x")).collect::<Vec<_>>());
    let scope = Scope::Instances { n: 3, placement: Placement::Random };
    let (a, _) = run(&alone, "capacity=3&refill=1", scope.clone());
    let (m, _) = run(&mixed, "capacity=3&refill=1", scope);
    assert_eq!(a.per_key[0], m.per_key[0], "key a's counts do not depend on b");
    assert!(a.per_key[0].admitted > 3 && a.per_key[0].admitted < 40);
}

#[test]
fn the_scope_is_read_in_the_clis_words() {
    assert_eq!(
        Scope::named("instance", Some("4"), Some("hash")),
        Ok(Scope::Instances { n: 4, placement: Placement::Hash })
    );
    assert_eq!(Scope::named("instance", None, None), Ok(Scope::Instances { n: 2, placement: Placement::RoundRobin }));
    assert_eq!(Scope::named("field:pop", None, None), Ok(Scope::Field("pop".into())));
    assert!(Scope::named("instance", Some("0"), None).unwrap_err().contains("from 1 to 1024"));
    assert!(Scope::named("global", Some("3"), None).unwrap_err().contains("add --scope instance"));
    assert!(Scope::named("pop", None, None).unwrap_err().contains("global | instance | field:NAME"));
    assert!(Scope::named("instance", None, Some("lc")).unwrap_err().contains("rr | random | hash"));
    for scope in [Scope::Global, Scope::Field("pop".into()), Scope::Instances { n: 7, placement: Placement::Random }] {
        assert_eq!(Scope::parse(&scope.name()), Ok(scope));
    }
}
