//! Which rules a request can match, found without comparing it with every rule.
//!
//! A test's rules mostly name a queue (fail the orders queue, not the others). With a hundred
//! of them, comparing each request with each rule costs more than the request itself in
//! process; the rules that name another queue can never match, so they are not looked at. A
//! request sees the rules that name its queue and the rules that name none, in the order they
//! were added, since the first rule that fires decides.

use super::Rule;
use std::collections::HashMap;
use std::iter::Peekable;
use std::slice::Iter;

/// Positions in the rule list, by the queue a rule names. Rebuilt whenever the list changes
/// (an add, a removal, a clear), which a test does a handful of times, not per request.
#[derive(Debug, Default)]
pub struct RuleIndex {
    /// Rules with no queue filter: every request may match them.
    any_queue: Vec<usize>,
    by_queue: HashMap<String, Vec<usize>>,
}

impl RuleIndex {
    pub fn new(rules: &[Rule]) -> Self {
        let mut index = RuleIndex::default();
        for (i, rule) in rules.iter().enumerate() {
            match &rule.queue {
                None => index.any_queue.push(i),
                Some(queue) => index.by_queue.entry(queue.clone()).or_default().push(i),
            }
        }
        index
    }

    /// The positions of the rules a request on `queue` may match, ascending.
    pub fn candidates(&self, queue: Option<&str>) -> Candidates<'_> {
        let named: &[usize] = queue
            .and_then(|q| self.by_queue.get(q))
            .map_or(&[], Vec::as_slice);
        Candidates {
            any_queue: self.any_queue.iter().peekable(),
            named: named.iter().peekable(),
        }
    }
}

/// Two ascending lists read as one, in order.
#[derive(Debug)]
pub struct Candidates<'a> {
    any_queue: Peekable<Iter<'a, usize>>,
    named: Peekable<Iter<'a, usize>>,
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let from_named = match (self.any_queue.peek(), self.named.peek()) {
            (Some(a), Some(n)) => n < a,
            (None, Some(_)) => true,
            _ => false,
        };
        if from_named {
            self.named.next().copied()
        } else {
            self.any_queue.next().copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::faults::RuleSpec;

    fn rule(id: &str, queue: Option<&str>) -> Rule {
        RuleSpec {
            queue: queue.map(str::to_owned),
            status: Some(503),
            ..RuleSpec::default()
        }
        .validate(id.to_owned())
        .unwrap()
    }

    fn ids(rules: &[Rule], queue: Option<&str>) -> Vec<String> {
        RuleIndex::new(rules)
            .candidates(queue)
            .map(|i| rules[i].id.clone())
            .collect()
    }

    #[test]
    fn a_request_sees_its_queue_rules_and_the_unnamed_ones_in_the_order_added() {
        let rules = [
            rule("a", Some("orders")),
            rule("b", None),
            rule("c", Some("bills")),
            rule("d", Some("orders")),
            rule("e", None),
        ];
        assert_eq!(ids(&rules, Some("orders")), ["a", "b", "d", "e"]);
        assert_eq!(ids(&rules, Some("bills")), ["b", "c", "e"]);
        assert_eq!(ids(&rules, Some("other")), ["b", "e"]);
        // A service-level request (List Queues) names no queue.
        assert_eq!(ids(&rules, None), ["b", "e"]);
    }

    #[test]
    fn no_rules_no_candidates() {
        assert!(ids(&[], Some("orders")).is_empty());
    }
}
