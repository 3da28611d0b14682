//! The stored-bytes bound (`capacity.rs`) across many queues and accounts: admission reads a
//! running total, so these check that it never drifts from the charge recomputed over every
//! stored message, whatever the operations (puts, receives, deletes, updates, clears, expiry
//! purged by reads, queue deletes, restores), and that the bound refuses and admits exactly.
//!
//! `PROPTEST_CASES=5000` runs deeper.

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::capacity::message_cost;
use azqueue::engine::{
    Capacity, Emulator, MessageCount, MessageId, Metadata, PopReceipt, QueueError, QueueName,
    TimeToLive, Timestamp,
};
use proptest::prelude::*;
use proptest::sample::Index;

const ACCOUNTS: [&str; 2] = ["devstoreaccount1", "other"];
const QUEUES: [&str; 3] = ["alpha", "beta", "gamma"];

#[derive(Clone, Debug)]
enum Op {
    Create {
        at: Index,
    },
    Put {
        at: Index,
        len: u16,
        ttl: Option<u8>,
    },
    Get {
        at: Index,
        n: u8,
    },
    Peek {
        at: Index,
    },
    Count {
        at: Index,
    },
    Delete {
        pick: Index,
    },
    Update {
        pick: Index,
        len: Option<u16>,
    },
    Clear {
        at: Index,
    },
    DeleteQueue {
        at: Index,
    },
    Restore,
    Advance {
        secs: u8,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let at = any::<Index>;
    prop_oneof![
        2 => at().prop_map(|at| Op::Create { at }),
        6 => (at(), 0u16..2000, proptest::option::weighted(0.6, 1u8..60))
            .prop_map(|(at, len, ttl)| Op::Put { at, len, ttl }),
        3 => (at(), 1u8..=8).prop_map(|(at, n)| Op::Get { at, n }),
        1 => at().prop_map(|at| Op::Peek { at }),
        1 => at().prop_map(|at| Op::Count { at }),
        3 => any::<Index>().prop_map(|pick| Op::Delete { pick }),
        3 => (any::<Index>(), proptest::option::of(0u16..3000))
            .prop_map(|(pick, len)| Op::Update { pick, len }),
        1 => at().prop_map(|at| Op::Clear { at }),
        1 => at().prop_map(|at| Op::DeleteQueue { at }),
        1 => Just(Op::Restore),
        3 => (0u8..40).prop_map(|secs| Op::Advance { secs }),
    ]
}

struct Run {
    emu: Emulator,
    now: Timestamp,
    bound: u64,
    /// Messages received, with the receipt last issued, for deletes and updates to pick from.
    held: Vec<(usize, MessageId, PopReceipt)>,
}

impl Run {
    fn place(at: &Index) -> (usize, &'static str, QueueName) {
        let i = at.index(ACCOUNTS.len() * QUEUES.len());
        (i, ACCOUNTS[i / QUEUES.len()], q(QUEUES[i % QUEUES.len()]))
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        let now = self.now;
        let before = self.emu.stored_bytes();
        match op {
            Op::Create { at } => {
                let (_, acct, name) = Self::place(at);
                self.emu
                    .create_queue(now, acct, &name, Metadata::default())
                    .unwrap();
            }
            Op::Put { at, len, ttl } => {
                let (_, acct, name) = Self::place(at);
                let ttl = ttl.map_or(TimeToLive::Never, |s| TimeToLive::Secs(u64::from(s)));
                let body = "x".repeat(usize::from(*len));
                match self
                    .emu
                    .put_message(now, acct, &name, text(&body), vis(0), ttl)
                {
                    Ok(_) => prop_assert!(self.emu.stored_bytes() <= self.bound),
                    Err(QueueError::ServerBusy) => {
                        // Refused only when it did not fit after the purge of expired ones.
                        let after_purge = self.emu.stored_bytes();
                        prop_assert!(after_purge + message_cost(body.len()) > self.bound);
                    }
                    Err(e) => prop_assert_eq!(e, QueueError::QueueNotFound(name)),
                }
            }
            Op::Get { at, n } => {
                let (i, acct, name) = Self::place(at);
                let count = MessageCount::new(i64::from(*n)).unwrap();
                if let Ok(got) = self.emu.get_messages(now, acct, &name, count, get_vis(30)) {
                    for m in got {
                        self.held.retain(|(_, id, _)| *id != m.id);
                        self.held.push((i, m.id, m.pop_receipt));
                    }
                }
            }
            Op::Peek { at } => {
                let (_, acct, name) = Self::place(at);
                let _ = self
                    .emu
                    .peek_messages(now, acct, &name, MessageCount::new(32).unwrap());
            }
            Op::Count { at } => {
                let (_, acct, name) = Self::place(at);
                let _ = self.emu.queue_properties(now, acct, &name);
            }
            Op::Delete { pick } => {
                if !self.held.is_empty() {
                    let (i, id, receipt) = self.held.remove(pick.index(self.held.len()));
                    let (acct, name) = (ACCOUNTS[i / QUEUES.len()], q(QUEUES[i % QUEUES.len()]));
                    let _ = self.emu.delete_message(now, acct, &name, &id, &receipt);
                }
            }
            Op::Update { pick, len } => {
                if !self.held.is_empty() {
                    let k = pick.index(self.held.len());
                    let (i, id, receipt) = self.held[k].clone();
                    let (acct, name) = (ACCOUNTS[i / QUEUES.len()], q(QUEUES[i % QUEUES.len()]));
                    let body = len.map(|l| text(&"y".repeat(usize::from(l))));
                    let res =
                        self.emu
                            .update_message(now, acct, &name, &id, &receipt, body, vis(0));
                    match res {
                        Ok(up) => {
                            self.held[k].2 = up.pop_receipt;
                            prop_assert!(self.emu.stored_bytes() <= self.bound.max(before));
                        }
                        Err(_) => {
                            self.held.remove(k);
                        }
                    }
                }
            }
            Op::Clear { at } => {
                let (_, acct, name) = Self::place(at);
                let _ = self.emu.clear_messages(now, acct, &name);
            }
            Op::DeleteQueue { at } => {
                let (_, acct, name) = Self::place(at);
                let _ = self.emu.delete_queue(now, acct, &name);
            }
            Op::Restore => {
                let snapshot = self.emu.snapshot().unwrap();
                self.emu.replace_state(snapshot).unwrap();
                prop_assert_eq!(
                    self.emu.stored_bytes(),
                    before,
                    "restore changed the charge"
                );
            }
            Op::Advance { secs } => self.now = now.plus_secs(u64::from(*secs)),
        }
        self.emu.take_changes();
        prop_assert_eq!(
            self.emu.stored_bytes(),
            recounted_charge(&self.emu.snapshot().unwrap()),
            "running total after {:?}",
            op
        );
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(), ..ProptestConfig::default() })]

    #[test]
    fn the_running_total_equals_the_charge_recounted_over_every_queue(
        seed in any::<u64>(),
        bound_messages in 2u64..12,
        ops in prop::collection::vec(op(), 1..120),
    ) {
        let mut emu = emulator(seed);
        // Room for a few messages, so refusals happen and deletes make room again.
        let bound = bound_messages * message_cost(1000);
        emu.set_capacity(Capacity { stored_bytes: bound, ..Capacity::default() });
        let mut run = Run { emu, now: t0(), bound, held: Vec::new() };
        for op in &ops {
            run.step(op)?;
        }
    }
}

#[test]
fn a_put_past_the_bound_is_refused_anywhere_and_admitted_once_a_delete_frees_room() {
    let mut emu = emulator(7);
    let (a, b) = (q("alpha"), q("beta"));
    for (acct, name) in [(ACCOUNTS[0], &a), (ACCOUNTS[1], &b)] {
        emu.create_queue(t0(), acct, name, Metadata::default())
            .unwrap();
    }
    let body = "z".repeat(100);
    let cost = message_cost(body.len());
    emu.set_capacity(Capacity {
        stored_bytes: 3 * cost,
        ..Capacity::default()
    });
    let put = |emu: &mut Emulator, acct, name: &QueueName| {
        emu.put_message(t0(), acct, name, text(&body), vis(0), TimeToLive::Never)
    };
    put(&mut emu, ACCOUNTS[0], &a).unwrap();
    put(&mut emu, ACCOUNTS[0], &a).unwrap();
    put(&mut emu, ACCOUNTS[1], &b).unwrap();
    assert_eq!(emu.stored_bytes(), 3 * cost);

    // Full: refused in either account, and the refusal stored nothing.
    assert_eq!(put(&mut emu, ACCOUNTS[1], &b), Err(QueueError::ServerBusy));
    assert_eq!(put(&mut emu, ACCOUNTS[0], &a), Err(QueueError::ServerBusy));
    assert_eq!(emu.stored_bytes(), 3 * cost);

    // A growing update is refused too; one that keeps the size is not.
    let got = emu
        .get_messages(
            t0(),
            ACCOUNTS[1],
            &b,
            MessageCount::new(1).unwrap(),
            get_vis(30),
        )
        .unwrap();
    let (id, receipt) = (got[0].id, got[0].pop_receipt.clone());
    let longer = Some(text(&"z".repeat(101)));
    let res = emu.update_message(t0(), ACCOUNTS[1], &b, &id, &receipt, longer, vis(0));
    assert_eq!(res, Err(QueueError::ServerBusy));
    let same = Some(text(&body));
    let receipt = emu
        .update_message(t0(), ACCOUNTS[1], &b, &id, &receipt, same, vis(0))
        .unwrap()
        .pop_receipt;

    // Deleting in one account frees room for a put in the other.
    emu.delete_message(t0(), ACCOUNTS[1], &b, &id, &receipt)
        .unwrap();
    assert_eq!(emu.stored_bytes(), 2 * cost);
    put(&mut emu, ACCOUNTS[0], &a).unwrap();
    assert_eq!(put(&mut emu, ACCOUNTS[0], &a), Err(QueueError::ServerBusy));

    // Deleting a whole queue frees all it held.
    emu.delete_queue(t0(), ACCOUNTS[0], &a).unwrap();
    assert_eq!(emu.stored_bytes(), 0);
    put(&mut emu, ACCOUNTS[1], &b).unwrap();
    assert_eq!(emu.stored_bytes(), cost);
}

#[test]
fn expiry_purged_by_a_read_frees_room_for_the_next_put() {
    let mut emu = emulator(8);
    let (a, b) = (q("alpha"), q("beta"));
    for name in [&a, &b] {
        emu.create_queue(t0(), ACCOUNTS[0], name, Metadata::default())
            .unwrap();
    }
    let cost = message_cost(10);
    emu.set_capacity(Capacity {
        stored_bytes: cost,
        ..Capacity::default()
    });
    let ten = "0123456789";
    emu.put_message(
        t0(),
        ACCOUNTS[0],
        &a,
        text(ten),
        vis(0),
        TimeToLive::Secs(5),
    )
    .unwrap();
    // Expired but not purged yet: still charged, so a put elsewhere is refused.
    let later = at(10);
    let res = emu.put_message(later, ACCOUNTS[0], &b, text(ten), vis(0), TimeToLive::Never);
    assert_eq!(res, Err(QueueError::ServerBusy));
    // A peek of the queue holding it purges it, and the room is free again.
    let peeked = emu
        .peek_messages(later, ACCOUNTS[0], &a, MessageCount::new(1).unwrap())
        .unwrap();
    assert!(peeked.is_empty());
    assert_eq!(emu.stored_bytes(), 0);
    emu.put_message(later, ACCOUNTS[0], &b, text(ten), vis(0), TimeToLive::Never)
        .unwrap();
}

#[test]
fn an_update_sees_the_room_expiry_freed_and_an_expired_message_is_not_found() {
    let mut emu = emulator(9);
    let a = q("alpha");
    emu.create_queue(t0(), ACCOUNTS[0], &a, Metadata::default())
        .unwrap();
    let ten = "0123456789";
    emu.set_capacity(Capacity {
        stored_bytes: 2 * message_cost(ten.len()),
        ..Capacity::default()
    });
    let expiring_id = emu
        .put_message(
            t0(),
            ACCOUNTS[0],
            &a,
            text(ten),
            vis(0),
            TimeToLive::Secs(5),
        )
        .unwrap()
        .id;
    emu.put_message(t0(), ACCOUNTS[0], &a, text(ten), vis(0), TimeToLive::Never)
        .unwrap();
    let got = emu
        .get_messages(
            t0(),
            ACCOUNTS[0],
            &a,
            MessageCount::new(2).unwrap(),
            get_vis(1),
        )
        .unwrap();
    let expiring = got.iter().find(|m| m.id == expiring_id).unwrap();
    let lasting = got.iter().find(|m| m.id != expiring_id).unwrap();

    // At 10 s the first message has expired: an update of it is not found, however long its text.
    let later = at(10);
    let longer = Some(text(&"z".repeat(20)));
    let res = emu.update_message(
        later,
        ACCOUNTS[0],
        &a,
        &expiring.id,
        &expiring.pop_receipt,
        longer.clone(),
        vis(0),
    );
    assert_eq!(res, Err(QueueError::MessageNotFound(expiring.id)));
    // Its bytes are free, so the other message may grow into them.
    emu.update_message(
        later,
        ACCOUNTS[0],
        &a,
        &lasting.id,
        &lasting.pop_receipt,
        longer,
        vis(0),
    )
    .unwrap();
    assert_eq!(emu.stored_bytes(), message_cost(20));
}
