//! Kong's own store mode in the multi-node view: its `policy: redis`, offered for Kong only,
//! over-admitting with `sync_rate` and exact when every request waits for Redis.

use super::*;

#[test]
fn kongs_policy_redis_over_admits_with_sync_rate_and_is_exact_at_minus_one() {
    one_browser_at_a_time(kong_sync());
}

async fn kong_sync() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    let link = "?algo=kong&limit=100&window=60&rate=200&nodes=4&store=sync&sync_rate=1&rtt=5";
    client.goto(&format!("{}{link}", server.url)).await.expect("open a Kong link");
    let drawn = "document.querySelector('#topology') && document.querySelector('#topology').width > 0 && document.querySelector('#store')";
    wait_until(&client, drawn, Duration::from_secs(15), "the multi-node view").await;
    assert_eq!(js(&client, "return document.querySelector('#store').value;").await, json!("sync"));
    assert_eq!(js(&client, "return document.querySelector('#sync-rate-field').value;").await, json!("1"));
    let hint = text(&client, "#store-hint").await;
    assert!(hint.contains("policy: redis") && hint.contains("not run here"), "{hint}");
    unfold(&client, "code-card").await;
    assert!(text(&client, "#node-code").await.contains("redis.incrby(key, delta[win])"));

    // Each node decides on its own count between syncs: more than one exact limiter.
    run_for(&client, 10).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!(admitted > exact + 100, "sync_rate 1 s, 4 nodes at 200/s: {admitted} admitted, exact {exact}");

    // sync_rate -1: every request INCRs and waits; exact.
    click(&client, "#sync-every-request").await;
    wait_until(&client, "!document.querySelector('#sync-rate')", Duration::from_secs(2), "no rate to set, none shown")
        .await;
    run_for(&client, 10).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert_eq!(admitted, exact, "every request waits for Redis");
    assert!(client.current_url().await.unwrap().as_str().contains("store=sync"), "the link keeps the mode");

    // Another algorithm has no Kong mode: the store falls back to the edge design, said so.
    js(
        &client,
        "const s = document.querySelector('#algo-product'); s.value = ''; s.dispatchEvent(new Event('change'));",
    )
    .await;
    click(&client, "#algo-fixed_window").await;
    let edge =
        "document.querySelector('#store').value === 'async' && !document.querySelector('#store option[value=sync]')";
    wait_until(&client, edge, Duration::from_secs(3), "the edge design, without Kong's option").await;

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
