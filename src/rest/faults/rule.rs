//! One fault rule: what it matches, when it fires, what it does, and its counts; and the
//! checks that turn a rule as sent ([`RuleSpec`]) into one the service keeps ([`Rule`]).
//!
//! What a rule does is one of three shapes, each checked here so that a rule the service keeps
//! always means something:
//!
//! | fields                          | the operation          | the answer                      |
//! |---------------------------------|------------------------|---------------------------------|
//! | `status`/`code` (`when` before) | not applied            | the error                       |
//! | `status`/`code`, `when: after`  | applied and committed  | the error                       |
//! | `drop`, no status, `when: after`| applied and committed  | its own, cut off                |
//! | `drop: reset`, no status, before| not applied            | none (the connection is reset)  |
//! | `delayMs` alone                 | applied                | its own                         |
//!
//! `delayMs` delays whichever answer is sent; `drop` cuts off whichever is sent (the error when
//! the rule has one). `when` defaults to `before` for a rule with an error, and to `after` for
//! one without (a delay delays the operation's own answer; http-fault-injector's modes forward
//! the request, then cut the answer off).

use super::json::{Json, ObjectWriter};
use super::operation::{name_of, names_list, operation_named};
use crate::engine::QueueName;
use crate::rest::error::ErrorCode;
use crate::rest::route::Operation;
use std::borrow::Cow;

/// Whether the operation is applied before the fault answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Nothing changes: the fault answers instead of the operation.
    Before,
    /// The operation is applied and committed, then the fault answers, as a write that timed
    /// out after it took effect does on Azure.
    After,
}

/// How the connection is cut (a host with sockets only: the Node server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropMode {
    /// The connection is reset; no answer at all.
    Reset,
    /// The status line, the headers and half the body, then the connection closes.
    Partial,
}

/// The error a fault answers: Azure's error XML with this status, code and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultError {
    pub status: u16,
    pub code: String,
    /// Borrowed when it is one of the service's own texts (the error table's, a limit's),
    /// which then also stands in the status line, as Azure's messages do.
    pub message: Cow<'static, str>,
}

/// A rule as the service keeps it: validated, with its id and counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub id: String,
    pub account: Option<String>,
    pub queue: Option<String>,
    pub operation: Option<Operation>,
    /// The chance each match past `skip` fires, in millionths ([`PER_MILLION`] always fires).
    pub chance: u32,
    pub skip: u64,
    /// Retired after firing this many times; `None` never retires.
    pub times: Option<u64>,
    pub error: Option<FaultError>,
    pub when: When,
    pub delay_ms: u64,
    pub drop: Option<DropMode>,
    /// Requests that reached this rule and matched it.
    pub matched: u64,
    /// Of those, the ones it fired on.
    pub injected: u64,
}

impl Rule {
    /// Whether the rule has fired its `times` and so matches nothing more.
    pub fn retired(&self) -> bool {
        self.times.is_some_and(|t| self.injected >= t)
    }

    /// Whether the rule's filters take a request on `account`, `queue`, `op`.
    pub fn matches(&self, account: &str, queue: Option<&str>, op: Operation) -> bool {
        self.operation.is_none_or(|o| o == op)
            && self.account.as_deref().is_none_or(|a| a == account)
            && self.queue.as_deref().is_none_or(|q| queue == Some(q))
    }
}

/// A rule as a client sends it, each field as given (`None`: not given, or `null`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleSpec {
    pub id: Option<String>,
    pub account: Option<String>,
    pub queue: Option<String>,
    pub operation: Option<String>,
    pub probability: Option<f64>,
    pub skip: Option<u64>,
    pub times: Option<u64>,
    pub status: Option<u64>,
    pub code: Option<String>,
    pub message: Option<String>,
    pub when: Option<When>,
    pub delay_ms: Option<u64>,
    pub drop: Option<DropMode>,
}

const FIELDS: &str = "id, account, queue, operation, probability, skip, times, status, code, \
    message, when, delayMs, drop";

impl When {
    pub fn name(self) -> &'static str {
        match self {
            When::Before => "before",
            When::After => "after",
        }
    }
}

impl DropMode {
    pub fn name(self) -> &'static str {
        match self {
            DropMode::Reset => "reset",
            DropMode::Partial => "partial",
        }
    }
}

impl RuleSpec {
    /// Reads one rule of a body: an object of the fields above. `Err` names the field and
    /// what it takes.
    pub fn read(value: &Json) -> Result<RuleSpec, String> {
        let Json::Object(members) = value else {
            return Err(format!("a rule is an object, not {}", value.kind()));
        };
        let mut spec = RuleSpec::default();
        for (i, (name, v)) in members.iter().enumerate() {
            if members[..i].iter().any(|(earlier, _)| earlier == name) {
                return Err(format!("`{name}` is given twice"));
            }
            let text = || v.text(name);
            let whole = || v.whole(name);
            match name.as_str() {
                "id" => spec.id = text()?,
                "account" => spec.account = text()?,
                "queue" => spec.queue = text()?,
                "operation" => spec.operation = text()?,
                "probability" => spec.probability = v.number(name)?,
                "skip" => spec.skip = whole()?,
                "times" => spec.times = whole()?,
                "status" => spec.status = whole()?,
                "code" => spec.code = text()?,
                "message" => spec.message = text()?,
                "delayMs" => spec.delay_ms = whole()?,
                "when" => {
                    spec.when = match text()?.as_deref() {
                        None => None,
                        Some("before") => Some(When::Before),
                        Some("after") => Some(When::After),
                        Some(other) => {
                            return Err(format!(
                                "`when` is \"before\" or \"after\", not \"{other}\""
                            ));
                        }
                    }
                }
                "drop" => {
                    spec.drop = match text()?.as_deref() {
                        None => None,
                        Some("reset") => Some(DropMode::Reset),
                        Some("partial") => Some(DropMode::Partial),
                        Some(other) => {
                            return Err(format!(
                                "`drop` is \"reset\" or \"partial\", not \"{other}\""
                            ));
                        }
                    }
                }
                other => return Err(format!("`{other}` is not a rule's field ({FIELDS})")),
            }
        }
        Ok(spec)
    }
}

/// A probability's resolution: rules keep it as a whole number of millionths.
pub const PER_MILLION: u32 = 1_000_000;

/// The longest `delayMs`: five minutes, past every SDK's default timeout.
pub const MAX_DELAY_MS: u64 = 300_000;
/// The longest id, account name, code and message a rule may carry.
pub const MAX_ID: usize = 64;
pub const MAX_ACCOUNT: usize = 256;
pub const MAX_CODE: usize = 64;
pub const MAX_MESSAGE: usize = 1024;

/// Whether `id` may name a rule: it is a path segment of `DELETE /_azqueue/faults/<id>`.
pub fn valid_id(id: &str) -> bool {
    (1..=MAX_ID).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

impl RuleSpec {
    /// The rule this spec describes, with `id` (its own, checked by the caller for clashes, or
    /// one given to it) and no counts. `Err` says what is wrong, naming the field.
    pub fn validate(&self, id: String) -> Result<Rule, String> {
        if let Some(a) = &self.account {
            if a.is_empty() || a.len() > MAX_ACCOUNT {
                return Err(format!("`account` must be 1 to {MAX_ACCOUNT} characters"));
            }
        }
        if let Some(q) = &self.queue {
            QueueName::parse(q).map_err(|_| format!("`queue`: `{q}` is not a valid queue name"))?;
        }
        let operation = match &self.operation {
            None => None,
            Some(name) => Some(operation_named(name).ok_or_else(|| {
                format!(
                    "`operation`: `{name}` is not an operation (one of {})",
                    names_list()
                )
            })?),
        };
        let probability = self.probability.unwrap_or(1.0);
        if !(0.0..=1.0).contains(&probability) {
            return Err("`probability` must be between 0 and 1".into());
        }
        // Kept to a millionth: whole numbers draw and compare exactly everywhere, and the
        // value `GET` shows reads back as the same (a float written and read again can move by
        // its last digit).
        let chance = (probability * f64::from(PER_MILLION)).round() as u32;
        if self.times == Some(0) {
            return Err("`times` must be at least 1 (leave it out to never retire)".into());
        }
        let delay_ms = self.delay_ms.unwrap_or(0);
        if delay_ms > MAX_DELAY_MS {
            return Err(format!("`delayMs` must be at most {MAX_DELAY_MS}"));
        }
        let error = self.error()?;
        let when = match (self.when, &error, self.drop) {
            (Some(_), None, None) => {
                return Err("`when` needs an error (`status`, `code`) or a `drop` to time".into());
            }
            (Some(when), _, _) => when,
            (None, Some(_), _) => When::Before,
            (None, None, _) => When::After,
        };
        if error.is_none() && self.drop.is_none() && delay_ms == 0 {
            return Err(
                "a rule must do something: give `status`/`code`, `delayMs` or `drop`".into(),
            );
        }
        if error.is_none() && when == When::Before && self.drop == Some(DropMode::Partial) {
            return Err(
                "`drop: \"partial\"` cuts an answer off: give it an error (`status`, `code`) or \
                 `when: \"after\"` to cut the operation's own"
                    .into(),
            );
        }
        Ok(Rule {
            id,
            account: self.account.clone(),
            queue: self.queue.clone(),
            operation,
            chance,
            skip: self.skip.unwrap_or(0),
            times: self.times,
            error,
            when,
            delay_ms,
            drop: self.drop,
            matched: 0,
            injected: 0,
        })
    }

    /// The error the rule answers, from `status`, `code` and `message`, each defaulted from the
    /// others and the error table where it can be.
    fn error(&self) -> Result<Option<FaultError>, String> {
        if let Some(code) = &self.code {
            if code.is_empty()
                || code.len() > MAX_CODE
                || !code.bytes().all(|b| b.is_ascii_alphanumeric())
            {
                return Err(format!(
                    "`code` must be 1 to {MAX_CODE} letters and digits, as Azure's codes are"
                ));
            }
        }
        if let Some(message) = &self.message {
            if message.chars().count() > MAX_MESSAGE || message.chars().any(char::is_control) {
                return Err(format!(
                    "`message` must be at most {MAX_MESSAGE} characters, none of them control \
                     characters (it is also the status line's reason phrase)"
                ));
            }
        }
        let known = self.code.as_deref().and_then(ErrorCode::named);
        let status = match (self.status, known) {
            (Some(s), _) if !(400..=599).contains(&s) => {
                return Err(format!("`status` must be an error, 400 to 599, not {s}"));
            }
            (Some(s), _) => s as u16,
            (None, Some(code)) => code.status(),
            (None, None) => match &self.code {
                Some(code) => {
                    return Err(format!(
                        "`code` `{code}` is not one the service knows: give its `status` too"
                    ));
                }
                None if self.message.is_some() => {
                    return Err("`message` needs a `status` or a `code`".into());
                }
                None => return Ok(None),
            },
        };
        let code = match (&self.code, status) {
            (Some(code), _) => code.clone(),
            (None, 500) => ErrorCode::InternalError.as_str().to_owned(),
            (None, 503) => ErrorCode::ServerBusy.as_str().to_owned(),
            (None, s) => {
                return Err(format!(
                    "give a `code` for status {s} (only 500 and 503 have a default: \
                     InternalError and ServerBusy)"
                ));
            }
        };
        let message = match (&self.message, ErrorCode::named(&code)) {
            (Some(m), _) => Cow::Owned(m.clone()),
            (None, Some(known)) => Cow::Borrowed(known.message()),
            (None, None) => {
                return Err(format!(
                    "`code` `{code}` is not one the service knows: give its `message` too"
                ));
            }
        };
        Ok(Some(FaultError {
            status,
            code,
            message,
        }))
    }
}

impl Rule {
    /// The rule as `GET` shows it: every field with its value in effect, so that the spec read
    /// back describes the same rule.
    pub fn spec(&self) -> RuleSpec {
        RuleSpec {
            id: Some(self.id.clone()),
            account: self.account.clone(),
            queue: self.queue.clone(),
            operation: self.operation.and_then(name_of).map(str::to_owned),
            probability: Some(f64::from(self.chance) / f64::from(PER_MILLION)),
            skip: Some(self.skip),
            times: self.times,
            status: self.error.as_ref().map(|e| u64::from(e.status)),
            code: self.error.as_ref().map(|e| e.code.clone()),
            message: self.error.as_ref().map(|e| e.message.to_string()),
            when: (self.error.is_some() || self.drop.is_some()).then_some(self.when),
            delay_ms: Some(self.delay_ms),
            drop: self.drop,
        }
    }

    /// Writes [`Rule::spec`] and the counts as `GET` answers them. The probability is written
    /// from its millionths (`0.25`, `1`), digits a reader reads back exactly.
    pub fn write(&self, w: &mut ObjectWriter) {
        w.str("id", &self.id);
        if let Some(account) = &self.account {
            w.str("account", account);
        }
        if let Some(queue) = &self.queue {
            w.str("queue", queue);
        }
        if let Some(name) = self.operation.and_then(name_of) {
            w.str("operation", name);
        }
        let probability = match self.chance {
            PER_MILLION => "1".to_owned(),
            chance => {
                let digits = format!("0.{chance:06}");
                digits
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_owned()
            }
        };
        w.raw("probability", &probability).number("skip", self.skip);
        if let Some(times) = self.times {
            w.number("times", times);
        }
        if let Some(e) = &self.error {
            w.number("status", u64::from(e.status))
                .str("code", &e.code)
                .str("message", &e.message);
        }
        if self.error.is_some() || self.drop.is_some() {
            w.str("when", self.when.name());
        }
        w.number("delayMs", self.delay_ms);
        if let Some(drop) = self.drop {
            w.str("drop", drop.name());
        }
        w.number("matched", self.matched)
            .number("injected", self.injected)
            .raw("retired", if self.retired() { "true" } else { "false" });
    }
}
