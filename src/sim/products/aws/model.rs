//! AWS API Gateway's throttling, as documented ("API Gateway throttles requests to your API
//! using the token bucket algorithm": the rate adds tokens, the burst is the bucket's size;
//! developerguide/api-gateway-request-throttling.html): not run here (a managed service, outside
//! this machine), and documented as best effort across AWS's fleet, which no model can follow.
//! So this is the textbook token bucket with the exported rate and burst, answering as API
//! Gateway does: 429 with `{"message":"Too Many Requests"}`, no `Retry-After`, no rate headers.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter, TokenBucket};
use crate::sim::products::policy::Policy;
use crate::sim::rate::Rate;
use crate::sim::time::SimTime;

/// A stage's or usage plan's `rateLimit` and `burstLimit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AwsThrottle {
    /// `rateLimit`, milli-requests per second (a double in AWS; exact here).
    pub rate_milli: u64,
    /// `burstLimit`.
    pub burst: u64,
}

impl AwsThrottle {
    /// The policy's rate and burst, as they are.
    pub fn of(p: &Policy) -> AwsThrottle {
        AwsThrottle { rate_milli: p.rate_milli.max(1), burst: p.burst.max(1) }
    }
}

/// One throttled API (a method, stage or usage-plan key).
#[derive(Clone, Debug)]
pub struct Aws(TokenBucket);

impl Aws {
    /// A bucket that starts full.
    pub fn new(t: AwsThrottle) -> Self {
        Aws(TokenBucket::new(t.burst, Rate::from_milli(t.rate_milli)))
    }
}

crate::sim::limiter::model!(Aws);

impl Limiter for Aws {
    fn acquire(&mut self, now: SimTime) -> bool {
        self.0.acquire(now)
    }

    fn consume(&mut self, now: SimTime) {
        self.0.consume(now)
    }

    fn status(&self, now: SimTime) -> Status {
        self.0.status(now)
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        self.0.gauge(now)
    }

    fn quota(&self) -> Quota {
        self.0.quota()
    }

    /// API Gateway sends no rate-limit header and no `Retry-After`.
    fn headers(&self, _: &Decision) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}
