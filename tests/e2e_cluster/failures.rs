//! "When the store fails" (issue #38) driven as a reader would: the failover story loads its
//! scenario in the multi-node view and says what to watch; a run past the failover shows the
//! increments it lost as over-admission; the replica's knobs change the run (no failover: exact;
//! a shorter lag: less lost); replica reads show stale reads; the panel fits a phone and dark mode
//! (screenshots `failures-*.png`).

use super::*;

/// The number at the start of an element's text ("35 increments lost in the failover").
async fn leading_number(client: &Client, selector: &str) -> u64 {
    let t = text(client, selector).await;
    t.split(' ').next().unwrap_or_default().replace(',', "").parse().unwrap_or_else(|_| panic!("{selector}: {t}"))
}

/// Presses the story `id`, waits for its link (which includes `marker`), pauses and computes 60 s.
async fn play_story(client: &Client, id: &str, marker: &str) {
    click(client, &format!("#{id}")).await;
    let linked = format!("location.search.includes('{marker}')");
    wait_until(client, &linked, Duration::from_secs(5), "the story's link").await;
    click(client, "#play").await; // pause
    run_for(client, 60).await;
}

#[test]
fn the_failing_store_stories_show_what_they_say() {
    one_browser_at_a_time(failing_store());
}

async fn failing_store() {
    let (server, browser, client) = launch().await;
    open_cluster(&client, &server, true).await;
    // Both panels start folded; opened, they stay open in this view for the rest of the visit.
    unfold(&client, "failures").await;
    unfold(&client, "code-card").await;
    js(&client, "document.querySelector('#failures').scrollIntoView(); return null;").await;
    assert_eq!(text(&client, "#failures-title").await, "When the store fails");
    // What a real Redis with a replica measured, beside the simulation (`make redis-table`).
    let measured = text(&client, "#failures-measured").await;
    assert!(measured.starts_with("Measured on a real Redis") && measured.contains("simulated"), "{measured}");

    // The failover story: exact until 11 s, then the lost increments pass again.
    click(&client, "#failure-failover").await;
    wait_until(&client, "location.search.includes('failover=11')", Duration::from_secs(5), "the story's link").await;
    assert!(text(&client, "#failures-watch").await.contains("Over-admitted jumps by the lost increments"));
    assert_eq!(
        js(&client, "return document.querySelector('#failure-failover').getAttribute('aria-pressed');").await,
        json!("true")
    );
    let hint = text(&client, "#replica-hint").await;
    assert!(hint.contains("At 11 s the primary dies"), "{hint}");
    click(&client, "#play").await; // pause
    run_for(&client, 10).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert_eq!(admitted, exact, "before the failover the atomic script is exact");
    run_for(&client, 60).await;
    let lost = leading_number(&client, "#lost-increments").await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!((30..=40).contains(&lost), "{lost} lost");
    assert_eq!(admitted - exact, lost, "over-admitted = lost increments");
    js(&client, "document.querySelector('#failures').scrollIntoView(); return null;").await;
    screenshot(&client, "failures-failover.png").await;

    // A replica 100 ms behind loses a tenth as much; no failover, nothing.
    set_control(&client, "#replica-lag-field", "100", "change").await;
    run_for(&client, 60).await;
    let less = leading_number(&client, "#lost-increments").await;
    assert!(less * 5 < lost && less > 0, "lag 100 ms: {less} lost (1 s: {lost})");
    assert!(text(&client, "#failures-watch").await.contains("The run has changed since"));
    click(&client, "#failover-on").await;
    wait_until(&client, "!location.search.includes('failover=')", Duration::from_secs(5), "no failover").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert_eq!(admitted, exact);

    // Reads from a replica 200 ms behind: stale reads, about ten too many per window.
    play_story(&client, "failure-replica-reads", "store=replica_read").await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!((50..=70).contains(&(admitted - exact)), "{admitted} admitted, exact {exact}");
    assert!(leading_number(&client, "#stale-reads").await > 0);
    assert!(text(&client, "#node-code").await.contains("replica.get(key)"));

    // Clocks 300 ms apart: too many at every window's edge, until the store's clock stamps them.
    play_story(&client, "failure-skew", "skew=300").await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!((36..=54).contains(&(admitted - exact)), "{admitted} admitted, exact {exact}");
    set_control(&client, "#now", "server", "change").await;
    wait_until(&client, "location.search.includes('now=server')", Duration::from_secs(5), "the store's clock").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert_eq!(admitted, exact, "the store's clock, one for every node");

    // One hot key, or four: the keys' uneven shares admit fewer than one exact limiter; one key
    // is exact again.
    play_story(&client, "failure-shards", "shards=4").await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!((-28..=-20).contains(&(admitted as i64 - exact as i64)), "{admitted} admitted, exact {exact}");
    assert!(text(&client, "#shards-hint").await.starts_with("4 keys on different hash slots"));
    js(&client, "document.querySelector('#topology').scrollIntoView(); return null;").await;
    screenshot(&client, "failures-shards.png").await;
    set_control(&client, "#shards-field", "1", "change").await;
    wait_until(&client, "!location.search.includes('shards=')", Duration::from_secs(5), "one key").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert_eq!(admitted, exact, "one key, one exact limiter");
    assert!(text(&client, "#shards-hint").await.contains("hot key"));

    // The swimlane marks the writes a failover lost: at 10 s, the failover 0.2 s before is in view.
    let q = "capacity=1000&refill=100&rate=40&nodes=4&store=atomic&rtt=2&failover=9.8&replica_lag=1000&traffic=poisson";
    client.goto(&format!("{}?{q}", server.url)).await.expect("open the link");
    wait_until(&client, "document.querySelector('#swimlane')", Duration::from_secs(15), "the multi-node view").await;
    click(&client, "#play").await; // pause
    run_for(&client, 10).await;
    let lost = text(&client, "#lost-in-view").await;
    assert!(lost.contains("writes in view lost at the failover"), "{lost}");
    js(&client, "document.querySelector('#swimlane').scrollIntoView(); return null;").await;
    screenshot(&client, "failures-swimlane.png").await;

    // A phone, then dark mode.
    page::phone(&client).await;
    js(&client, "document.querySelector('#failures').scrollIntoView(); return null;").await;
    screenshot(&client, "failures-mobile.png").await;
    js(&client, "document.querySelector('.replica-group').scrollIntoView(); return null;").await;
    screenshot(&client, "failures-replica-mobile.png").await;
    page::desktop_dark(&client).await;
    js(&client, "document.querySelector('#failures').scrollIntoView(); return null;").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "failures-dark.png").await;

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
