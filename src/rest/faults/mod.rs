//! Failure on demand: the rules a test sets to make the service fail as Azure does (an error
//! instead of the operation, an error after it took effect, a late or cut-off answer), and
//! Azure's scalability targets as limits. One concept of the REST service, so every face (the
//! Node server, the in-process JS service, `InProcessQueues`, the edge Worker) behaves alike.
//!
//! The rule set's wire form is `wire.rs`'s, a rule's meaning `rule.rs`'s, the limits
//! `throttle.rs`'s, which rules a request can match `index.rs`'s. What this file holds is the set itself and the one decision every request
//! asks of it ([`Faults::decide`]):
//!
//! 1. The limits first, as Azure's front end throttles before anything runs: a request over
//!    one is answered `503 ServerBusy` with that limit's text, and no rule sees it.
//! 2. Then the rules, in the order they were added. A retired rule (it fired its `times`) is
//!    passed over. A rule whose filters take the request counts it (`matched`); it fires when
//!    it has let its first `skip` matches through and its `probability` is drawn, and the first
//!    rule that fires decides the answer. A rule that matches and does not fire leaves the
//!    request to the rules after it, so rules layer (a 5 % error before, then a 5 % error after).
//!
//! Draws come from a seeded generator, reseeded by every `"seed"` a client sends (0 until one
//! does), and only rules with a probability strictly between 0 and 1 draw (kept to a
//! millionth). So the same seed,
//! rules and requests give the same answers, run after run.
//!
//! Rules are test state: they live as long as the service (a process, a page, a Durable
//! Object) and are never stored.

pub mod index;
pub mod json;
pub mod operation;
pub mod rule;
pub mod throttle;
pub mod wire;

pub use rule::{DropMode, FaultError, Rule, RuleSpec, When};
pub use throttle::{Limit, Limits};

use crate::engine::{Entropy, SeededEntropy, Timestamp};
use crate::rest::route::Operation;
use index::RuleIndex;
use json::ObjectWriter;
use std::borrow::Cow;
use std::cell::OnceCell;
use throttle::Throttle;

/// The most rules kept at once, retired ones included: a test's set is a handful, and the cost
/// of a request that matches none grows with the count.
pub const MAX_RULES: usize = 1000;

/// What decided a fault: a rule, by its id, or a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Rule(String),
    Limit(Limit),
}

/// What the service does to one request instead of answering it plainly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub source: Source,
    pub when: When,
    /// The error answered (before or after the operation); `None` answers the operation's own.
    pub error: Option<FaultError>,
    /// Real milliseconds the answer waits: a network's delay, not the queues' clock.
    pub delay_ms: u64,
    pub drop: Option<DropMode>,
}

impl Fault {
    /// Whether the operation runs (and its changes commit) before the answer.
    pub fn applies(&self) -> bool {
        self.when == When::After
    }
}

/// A response extension the REST layer attaches to an answer a fault decided to deliver late
/// or cut off; the host that writes the answer does that (`delayMs` everywhere, `drop` only
/// where there is a socket to cut).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub delay_ms: u64,
    pub drop: Option<DropMode>,
}

impl Fault {
    /// How the answer is delivered, when not plainly.
    pub fn delivery(&self) -> Option<Delivery> {
        (self.delay_ms > 0 || self.drop.is_some()).then_some(Delivery {
            delay_ms: self.delay_ms,
            drop: self.drop,
        })
    }
}

/// One fault as it happened, for the event stream (`{"type": "fault", …}`) and a debug log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Injected {
    pub at: Timestamp,
    pub account: String,
    pub queue: Option<String>,
    pub operation: Operation,
    pub fault: Fault,
}

/// Injections kept for a host that has not taken them: a host that never does (a bare
/// `Service`) keeps only the latest.
const KEPT_INJECTED: usize = 1024;

/// The request a decision is asked for: where it goes, which operation, and how many messages
/// it moves (Get and Peek: the number asked; any other request: 1).
#[derive(Clone, Copy, Debug)]
pub struct FaultRequest<'a> {
    pub account: &'a str,
    pub queue: Option<&'a str>,
    pub operation: Operation,
    pub messages: u32,
}

/// The rule set, the limits and the generator the draws come from.
#[derive(Debug)]
pub struct Faults {
    rules: Vec<Rule>,
    /// Where in `rules` a request's candidates are; follows every change to `rules`.
    index: RuleIndex,
    /// Rules not retired: with none and no limits, a decision is one comparison.
    live: usize,
    throttle: Throttle,
    /// The limits the service started with (`--throttle`), which `DELETE` puts back.
    started: Limits,
    seed: u64,
    draws: SeededEntropy,
    next_id: u64,
    injected: Vec<Injected>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults::new(Limits::OFF)
    }
}

impl Faults {
    /// No rules, `limits` in force.
    pub fn new(limits: Limits) -> Self {
        Faults {
            rules: Vec::new(),
            index: RuleIndex::default(),
            live: 0,
            throttle: Throttle::new(limits),
            started: limits,
            seed: 0,
            draws: SeededEntropy::new(0),
            next_id: 1,
            injected: Vec::new(),
        }
    }

    /// A set as a host starts it from its configuration (`QueueService.open({ faults })`, the
    /// edge's `AZQUEUE_FAULTS`, `--throttle`): `body` as a `POST` takes it, its limits the ones
    /// `DELETE` puts back. `Err` says what is wrong with it.
    pub fn starting_with(body: &[u8]) -> Result<Faults, String> {
        let mut faults = Faults::default();
        faults.post(body)?;
        faults.started = faults.limits();
        Ok(faults)
    }

    /// What to do to `req` at `now` (the queues' clock), counting it and keeping the fault for
    /// [`Faults::take_injected`]; `None` serves it plainly.
    pub fn decide(&mut self, now: Timestamp, req: &FaultRequest) -> Option<Fault> {
        self.decide_reading(|| now, req)
    }

    /// [`Faults::decide`] for a caller whose clock costs a call to read (the in-process
    /// service's is JavaScript's): `clock` is read only when a limit is set or a fault is
    /// injected, so rules that match nothing cost no clock reading.
    pub fn decide_reading(
        &mut self,
        clock: impl Fn() -> Timestamp,
        req: &FaultRequest,
    ) -> Option<Fault> {
        if self.is_idle() {
            return None;
        }
        let read = OnceCell::new();
        let now = || *read.get_or_init(&clock);
        let fault = self.choose(now, req)?;
        if self.injected.len() == KEPT_INJECTED {
            self.injected.remove(0);
        }
        self.injected.push(Injected {
            at: now(),
            account: req.account.to_owned(),
            queue: req.queue.map(str::to_owned),
            operation: req.operation,
            fault: fault.clone(),
        });
        Some(fault)
    }

    /// No live rule and no limit: a decision is `None` whatever it is asked.
    fn is_idle(&self) -> bool {
        self.live == 0 && self.throttle.limits().is_off()
    }

    /// The faults injected since the last call, oldest first.
    pub fn take_injected(&mut self) -> Vec<Injected> {
        self.injected.drain(..).collect()
    }

    fn choose(&mut self, now: impl Fn() -> Timestamp, req: &FaultRequest) -> Option<Fault> {
        // With no limits set the throttle admits everything: no clock to read for it.
        if !self.throttle.limits().is_off()
            && let Err(limit) = self
                .throttle
                .admit(now(), req.account, req.queue, req.messages)
        {
            return Some(Fault {
                source: Source::Limit(limit),
                when: When::Before,
                error: Some(FaultError {
                    status: Limit::CODE.status(),
                    code: Limit::CODE.as_str().to_owned(),
                    message: Cow::Borrowed(limit.message()),
                }),
                delay_ms: 0,
                drop: None,
            });
        }
        let Faults {
            rules,
            index,
            draws,
            live,
            ..
        } = self;
        for i in index.candidates(req.queue) {
            let rule = &mut rules[i];
            if rule.retired() || !rule.matches(req.account, req.queue, req.operation) {
                continue;
            }
            rule.matched += 1;
            if rule.matched <= rule.skip {
                continue;
            }
            let fires = match rule.chance {
                rule::PER_MILLION => true,
                0 => false,
                chance => millionth_draw(draws) < chance,
            };
            if !fires {
                continue;
            }
            rule.injected += 1;
            if rule.retired() {
                *live -= 1;
            }
            return Some(Fault {
                source: Source::Rule(rule.id.clone()),
                when: rule.when,
                error: rule.error.clone(),
                delay_ms: rule.delay_ms,
                drop: rule.drop,
            });
        }
        None
    }

    /// Applies a `POST` body: reseeds, sets limits, adds rules, all or nothing. `Ok` holds the
    /// answer (`{"ids": […]}`); `Err` the 400's reason, with nothing changed.
    pub fn post(&mut self, body: &[u8]) -> Result<String, String> {
        let body = wire::read_body(body)?;
        let limits = match &body.limits {
            Some(spec) => spec.apply_to(self.throttle.limits())?,
            None => self.throttle.limits(),
        };
        if self.rules.len() + body.rules.len() > MAX_RULES {
            return Err(format!(
                "at most {MAX_RULES} rules are kept at once (delete some first)"
            ));
        }
        let mut added: Vec<Rule> = Vec::with_capacity(body.rules.len());
        let mut next_id = self.next_id;
        for (i, spec) in body.rules.iter().enumerate() {
            let taken = |id: &str| self.rules.iter().chain(&added).any(|r| r.id == id);
            let id = match &spec.id {
                Some(id) if !rule::valid_id(id) => {
                    return Err(format!(
                        "rules[{i}].id: `{id}` must be 1 to {} letters, digits, `-`, `_` or `.`",
                        rule::MAX_ID
                    ));
                }
                Some(id) if taken(id) => {
                    return Err(format!("rules[{i}].id: `{id}` is already a rule's id"));
                }
                Some(id) => id.clone(),
                None => loop {
                    let id = next_id.to_string();
                    next_id += 1;
                    if !taken(&id) {
                        break id;
                    }
                },
            };
            added.push(
                spec.validate(id)
                    .map_err(|why| format!("rules[{i}]: {why}"))?,
            );
        }
        // Checked: now change.
        if let Some(seed) = body.seed {
            self.reseed(seed);
        }
        self.throttle.set_limits(limits);
        self.next_id = next_id;
        let ids: Vec<String> = added.iter().map(|r| r.id.clone()).collect();
        self.live += added.len();
        self.rules.extend(added);
        self.index = RuleIndex::new(&self.rules);
        Ok(wire::ids(&ids))
    }

    /// `DELETE /_azqueue/faults`: no rules, the limits the service started with, the draws
    /// from seed 0 again, the counts at zero: as the service started.
    pub fn clear(&mut self) {
        *self = Faults::new(self.started);
    }

    /// `DELETE /_azqueue/faults/<id>`: whether there was such a rule.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(i) = self.rules.iter().position(|r| r.id == id) else {
            return false;
        };
        let rule = self.rules.remove(i);
        self.index = RuleIndex::new(&self.rules);
        if !rule.retired() {
            self.live -= 1;
        }
        true
    }

    /// The rules in order, retired ones included.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn limits(&self) -> Limits {
        self.throttle.limits()
    }

    /// `GET /_azqueue/faults`.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(128 + 256 * self.rules.len());
        let mut w = ObjectWriter::new(&mut out);
        let rules = w.member("rules");
        rules.push('[');
        for (i, rule) in self.rules.iter().enumerate() {
            if i > 0 {
                rules.push(',');
            }
            let mut r = ObjectWriter::new(rules);
            rule.write(&mut r);
            r.close();
        }
        rules.push(']');
        wire::write_limits(w.member("limits"), self.throttle.limits());
        let mut throttled = ObjectWriter::new(w.member("throttled"));
        throttled
            .number("queueMessagesPerSecond", self.throttle.refused_queue)
            .number("accountRequestsPerSecond", self.throttle.refused_account);
        throttled.close();
        w.number("seed", self.seed);
        w.close();
        out
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.draws = SeededEntropy::new(seed);
    }
}

/// A draw in 0..1,000,000, evenly: the next 64 bits scaled down (multiply and shift).
fn millionth_draw(draws: &mut SeededEntropy) -> u32 {
    let mut bytes = [0u8; 8];
    draws.fill(&mut bytes);
    ((u128::from(u64::from_le_bytes(bytes)) * u128::from(rule::PER_MILLION)) >> 64) as u32
}
