//! The group commit (`src/store/group.rs`) on a store whose writes complete only when the test
//! says so, with its commit task run by the test: concurrent operations share a transaction,
//! each resolves only once its own changes are durable, a failure fails every waiter and every
//! later operation, and relaxed durability answers before the commit.

use azqueue::engine::{
    Change, Emulator, MessageText, Metadata, QueueName, SeededEntropy, TimeToLive, Timestamp,
    VisibilityTimeout,
};
use azqueue::store::group::{Durability, GroupCommit, Runtime, Task};
use azqueue::store::{KeyValueStore, Loaded, RecordOp, Store, StoreError};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A key-value store whose writes wait at a gate: each write is pending until the test opens
/// the gate, then completes (or fails, if told to).
#[derive(Debug, Default)]
struct Gated {
    records: KeyValueStore,
    open: Rc<Cell<bool>>,
    fail: Rc<Cell<bool>>,
    writes: Rc<Cell<u32>>,
}

struct Gate(Rc<Cell<bool>>);

impl Future for Gate {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0.get() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Store for Gated {
    async fn load(&self) -> Result<Loaded, StoreError> {
        self.records.load().await
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        Gate(self.open.clone()).await;
        if self.fail.get() {
            return Err(StoreError::Failed("the disk is gone".into()));
        }
        self.writes.set(self.writes.get() + 1);
        self.records.write(ops).await
    }
}

/// Runs spawned tasks when the test calls [`Tasks::run`]; records reported failures.
#[derive(Clone, Default)]
struct Tasks {
    queue: Rc<RefCell<Vec<Task>>>,
    failures: Rc<RefCell<Vec<StoreError>>>,
}

impl Tasks {
    /// Polls every task until none makes progress (a task blocked at a closed gate stays).
    fn run(&self) {
        loop {
            let tasks = std::mem::take(&mut *self.queue.borrow_mut());
            let before = tasks.len();
            let mut left = Vec::new();
            for mut task in tasks {
                if poll(&mut task).is_pending() {
                    left.push(task);
                }
            }
            let done = left.len() == before && self.queue.borrow().is_empty();
            self.queue.borrow_mut().extend(left);
            if done {
                return;
            }
        }
    }
}

impl Runtime for Tasks {
    fn spawn(&self, task: Task) {
        self.queue.borrow_mut().push(task);
    }
    fn wall_millis(&self) -> u64 {
        1_700_000_000_000
    }
    fn commit_failed(&self, error: &StoreError) {
        self.failures.borrow_mut().push(error.clone());
    }
}

fn poll<F: Future + ?Sized>(f: &mut Pin<Box<F>>) -> Poll<F::Output> {
    f.as_mut().poll(&mut Context::from_waker(Waker::noop()))
}

/// One operation's changes: a message put on queue `q` (created on first use).
fn changes(emu: &mut Emulator, text: &str) -> Vec<Change> {
    let t = Timestamp::from_secs(1_700_000_000);
    let q = QueueName::parse("group").unwrap();
    let _ = emu.create_queue(t, "acct", &q, Metadata::default());
    let text = MessageText::new(text).unwrap();
    let vis = VisibilityTimeout::new(0).unwrap();
    emu.put_message(t, "acct", &q, text, vis, TimeToLive::Never)
        .unwrap();
    emu.take_changes()
}

fn setup(durability: Durability) -> (GroupCommit<Rc<Gated>, Tasks>, Rc<Gated>, Tasks) {
    let store = Rc::new(Gated::default());
    let tasks = Tasks::default();
    let group = GroupCommit::new(Some(store.clone()), durability, tasks.clone());
    (group, store, tasks)
}

#[test]
fn operations_that_arrive_during_a_commit_share_the_next_one() {
    let (group, store, tasks) = setup(Durability::Strict);
    group.set_clock(Rc::new(|| Timestamp::from_secs(5)));
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let mut first = Box::pin(group.commit(changes(&mut emu, "one")));
    assert!(poll(&mut first).is_pending());
    tasks.run(); // the first commit is now in flight, blocked at the gate
    let mut later: Vec<_> = ["two", "three", "four"]
        .into_iter()
        .map(|t| Box::pin(group.commit(changes(&mut emu, t))))
        .collect();
    for op in &mut later {
        assert!(poll(op).is_pending(), "nothing is durable yet");
    }
    store.open.set(true);
    tasks.run();
    assert!(matches!(poll(&mut first), Poll::Ready(Ok(()))));
    for op in &mut later {
        assert!(matches!(poll(op), Poll::Ready(Ok(()))));
    }
    assert_eq!(
        store.writes.get(),
        2,
        "one commit, then the three that waited"
    );
    assert_eq!(group.transactions(), 2);
    assert_eq!(group.committed(), 5, "the queue and four messages");
    let mut loaded = pollster::block_on(store.load()).unwrap();
    loaded.snapshot.accounts[0].queues[0]
        .messages
        .sort_by_key(|m| m.seq);
    let mut want = emu.snapshot().unwrap();
    want.accounts[0].properties = None;
    assert_eq!(loaded.snapshot, want);
    let clock = loaded.clock.expect("each commit saves the clock");
    assert_eq!((clock.now, clock.wall), (5_000, 1_700_000_000_000));
}

#[test]
fn a_failed_commit_fails_its_waiters_and_every_later_operation() {
    let (group, store, tasks) = setup(Durability::Strict);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(2)));
    let mut first = Box::pin(group.commit(changes(&mut emu, "one")));
    let mut read = Box::pin(group.commit(Vec::new()));
    assert!(poll(&mut first).is_pending() && poll(&mut read).is_pending());
    store.fail.set(true);
    store.open.set(true);
    tasks.run();
    for op in [&mut first, &mut read] {
        assert!(matches!(poll(op), Poll::Ready(Err(StoreError::Failed(_)))));
    }
    assert!(group.failure().is_some());
    assert_eq!(tasks.failures.borrow().len(), 1, "reported once");
    assert!(group.enqueue(Vec::new()).is_err());
    assert_eq!(store.writes.get(), 0);
}

#[test]
fn relaxed_durability_answers_before_the_commit_and_flush_waits_for_it() {
    let (group, store, tasks) = setup(Durability::Relaxed);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
    let mut op = Box::pin(group.commit(changes(&mut emu, "one")));
    assert!(matches!(poll(&mut op), Poll::Ready(Ok(()))));
    let mut flush = Box::pin(group.flush());
    tasks.run();
    assert!(
        poll(&mut flush).is_pending(),
        "the commit is still at the gate"
    );
    store.open.set(true);
    tasks.run();
    assert!(matches!(poll(&mut flush), Poll::Ready(Ok(()))));
    assert_eq!(store.writes.get(), 1);
}

#[test]
fn without_a_store_every_commit_is_immediate_and_closing_fails_later_ones() {
    let tasks = Tasks::default();
    let group: GroupCommit<KeyValueStore, Tasks> =
        GroupCommit::new(None, Durability::Strict, tasks.clone());
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(4)));
    let mut op = Box::pin(group.commit(changes(&mut emu, "one")));
    assert!(matches!(poll(&mut op), Poll::Ready(Ok(()))));
    assert_eq!((group.transactions(), group.committed()), (1, 2));
    assert!(tasks.queue.borrow().is_empty(), "no task was needed");
    let (closed, flushed) = pollster::block_on(group.close());
    assert!(closed && flushed.is_ok());
    assert!(
        !pollster::block_on(group.close()).0,
        "closing twice is fine"
    );
    assert!(pollster::block_on(group.commit(Vec::new())).is_err());
}

/// `settled_now` says without waiting what `settle` would: at once without a store or with
/// relaxed durability, only after its commit with strict durability, and the failure once the
/// store has failed (the JS `Queue` answers with an already settled Promise when it is `Some`).
#[test]
fn settled_now_tells_when_an_operation_need_not_wait() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(4)));
    let none: GroupCommit<Rc<Gated>, Tasks> =
        GroupCommit::new(None, Durability::Strict, Tasks::default());
    let ticket = none.enqueue_changes(changes(&mut emu, "m")).unwrap();
    assert!(matches!(none.settled_now(ticket), Some(Ok(()))));

    let (relaxed, _, _) = setup(Durability::Relaxed);
    let ticket = relaxed.enqueue_changes(changes(&mut emu, "r")).unwrap();
    assert!(matches!(relaxed.settled_now(ticket), Some(Ok(()))));

    let (strict, store, tasks) = setup(Durability::Strict);
    let ticket = strict.enqueue_changes(changes(&mut emu, "s")).unwrap();
    tasks.run();
    assert!(
        strict.settled_now(ticket).is_none(),
        "its commit is at the gate"
    );
    store.open.set(true);
    tasks.run();
    assert!(matches!(strict.settled_now(ticket), Some(Ok(()))));

    store.open.set(false);
    store.fail.set(true);
    let ticket = strict.enqueue_changes(changes(&mut emu, "f")).unwrap();
    tasks.run();
    store.open.set(true);
    tasks.run();
    assert!(matches!(strict.settled_now(ticket), Some(Err(_))));
}
