//! AWS API Gateway: a stage's default method throttling in CloudFormation, and the same for a
//! usage plan. The numbers come from [`AwsThrottle`], which `algo=aws` runs.

use super::model::AwsThrottle;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::products::product::Config;
use crate::sim::support::decimal::format_fixed;

pub(super) fn config(p: &Policy) -> Config {
    let AwsThrottle { rate_milli, burst } = AwsThrottle::of(p);
    let rate = format_fixed(rate_milli, 3);
    let snippet = format!(
        "# CloudFormation: every method of a REST API stage\n\
         ApiStage:\n\
        \x20 Type: AWS::ApiGateway::Stage\n\
        \x20 Properties:\n\
        \x20   RestApiId: !Ref Api\n\
        \x20   DeploymentId: !Ref Deployment\n\
        \x20   StageName: prod\n\
        \x20   MethodSettings:\n\
        \x20     - ResourcePath: \"/*\"\n\
        \x20       HttpMethod: \"*\"\n\
        \x20       ThrottlingRateLimit: {rate}\n\
        \x20       ThrottlingBurstLimit: {burst}\n\
         # Per client instead: a usage plan with API keys (AWS::ApiGateway::UsagePlan,\n\
         # Throttle: {{ RateLimit: {rate}, BurstLimit: {burst} }})\n"
    );
    let mut notes = vec![
        format!(
            "A token bucket of {burst} refilled at {rate}/s, as AWS documents it; a request without a token gets 429 \
             {{\"message\":\"Too Many Requests\"}} and no Retry-After: clients must back off on their own."
        ),
        "Stage throttling counts every client together; per-client limits need a usage plan and API keys. The \
         account's regional limit (10 000/s, burst 5 000 by default) applies on top of both."
            .into(),
        "AWS calls throttling best effort: limits are targets, not guaranteed ceilings. Not run here: algo=aws is the \
         documented bucket, not the service."
            .into(),
    ];
    if p.shape != Shape::Bucket {
        notes.push("API Gateway has no window limiter: this is the bucket with the window's burst and rate.".into());
    }
    Config { target: "AWS API Gateway", language: "yaml", snippet, notes }
}
