//! Group commit: where a service makes each operation's changes durable before answering.
//!
//! An operation runs on the engine, then its changes are appended to the *pending batch*
//! (synchronously, before anything else can run, so batches keep the engine's order) and it
//! waits for the commit that contains them. At most one commit is in flight; when it
//! completes, everything that piled up meanwhile goes out as the next one. So N concurrent
//! requests cost about one store transaction, not N, and every waiter still resolves only after
//! its own changes are durable (docs/architecture.md, invariant 3). An operation that changed nothing
//! (a read) waits for the latest batch too, so it cannot reveal a change that is not yet
//! durable.
//!
//! [`Durability::Relaxed`] answers as soon as the changes are queued and commits them in the
//! background (PGlite's `relaxedDurability`): fast, and a crash may lose the last moments.
//! [`GroupCommit::flush`] and [`GroupCommit::close`] wait for everything either way.
//!
//! # Failure
//! A failed commit means the engine is ahead of what is durable. The group then marks itself
//! failed for good: the waiters of that commit and every later operation get the error, and
//! reopening returns to the last durable state. Nothing is ever acknowledged and then silently
//! dropped.
//!
//! The commit task runs on whatever executor the host injects ([`Runtime::spawn`]): on wasm,
//! `wasm_bindgen_futures::spawn_local`; in `cargo test`, a queue the test drives.

use super::layout::{self, Pending, SavedClock};
use super::{Store, StoreError};
use crate::engine::{Change, Clock, ClockAdjustment, Snapshot};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A background task of the group commit.
pub type Task = Pin<Box<dyn Future<Output = ()>>>;

/// What the group commit needs from its host.
pub trait Runtime {
    /// Runs `task` in the background, on this thread.
    fn spawn(&self, task: Task);
    /// The wall clock (milliseconds since the epoch), saved beside the service clock with each
    /// commit.
    fn wall_millis(&self) -> u64;
    /// A commit failed and the store is failed from now on: say so where a developer looks
    /// (with relaxed durability, nobody may be waiting to hear it).
    fn commit_failed(&self, error: &StoreError);
}

/// When an operation's wait ends relative to its commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// After the commit that contains the operation's changes (the default).
    Strict,
    /// As soon as the changes are queued; the commit follows in the background.
    Relaxed,
}

impl Durability {
    pub fn as_str(self) -> &'static str {
        match self {
            Durability::Strict => "strict",
            Durability::Relaxed => "relaxed",
        }
    }
}

/// The bookkeeping. Batches are numbered from 1 in commit order.
#[derive(Debug)]
struct Group {
    /// Changes waiting for the next commit.
    pending: Vec<Pending>,
    /// The number the pending batch will have.
    next: u64,
    /// The highest batch number known durable.
    durable: u64,
    in_flight: bool,
    failed: Option<StoreError>,
    /// Operations waiting for a commit to complete.
    waiters: Vec<Waker>,
}

struct Inner<S, R> {
    /// `None`: nothing is saved, the engine itself is the state (a memory service always opens
    /// empty; a second copy of every record would cost each request for a copy nobody reads).
    backend: Option<S>,
    runtime: R,
    durability: Durability,
    /// The service clock, saved with each commit so a virtual timeline can resume.
    clock: RefCell<Option<Rc<dyn Clock>>>,
    saved_clock: Cell<Option<SavedClock>>,
    /// The clock adjustment to save with every commit ([`SavedClock::adjustment`]).
    adjustment: Cell<Option<ClockAdjustment>>,
    group: RefCell<Group>,
    committed: Cell<u64>,
    transactions: Cell<u64>,
    closed: Cell<bool>,
}

/// A store plus the group commit in front of it; one per service.
pub struct GroupCommit<S, R> {
    inner: Rc<Inner<S, R>>,
}

impl<S: fmt::Debug, R> fmt::Debug for GroupCommit<S, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupCommit")
            .field("backend", &self.inner.backend)
            .field("durability", &self.inner.durability)
            .field("group", &self.inner.group)
            .finish_non_exhaustive()
    }
}

impl<S: Store + 'static, R: Runtime + 'static> GroupCommit<S, R> {
    /// A group commit in front of `backend` (`None`: nothing is saved).
    pub fn new(backend: Option<S>, durability: Durability, runtime: R) -> Self {
        GroupCommit {
            inner: Rc::new(Inner {
                backend,
                runtime,
                durability,
                clock: RefCell::new(None),
                saved_clock: Cell::new(None),
                adjustment: Cell::new(None),
                group: RefCell::new(Group {
                    pending: Vec::new(),
                    next: 1,
                    durable: 0,
                    in_flight: false,
                    failed: None,
                    waiters: Vec::new(),
                }),
                committed: Cell::new(0),
                transactions: Cell::new(0),
                closed: Cell::new(false),
            }),
        }
    }

    /// The store behind the group, if anything is saved.
    pub fn backend(&self) -> Option<&S> {
        self.inner.backend.as_ref()
    }

    /// Saves the service clock's reading with every commit from now on.
    pub fn set_clock(&self, clock: Rc<dyn Clock>) {
        *self.inner.clock.borrow_mut() = Some(clock);
    }

    /// Saves `adjustment` with every commit from now on (one restored at `open()`).
    pub fn keep_adjustment(&self, adjustment: ClockAdjustment) {
        self.inner.adjustment.set(Some(adjustment));
    }

    /// [`GroupCommit::keep_adjustment`], and a commit of its own: resolves when it is durable.
    pub async fn save_adjustment(&self, adjustment: ClockAdjustment) -> Result<(), StoreError> {
        self.keep_adjustment(adjustment);
        if self.inner.backend.is_none() {
            return Ok(());
        }
        let ticket = self.enqueue(vec![Pending::Clock])?;
        self.durable(ticket).await
    }

    /// What the store saved, to rebuild the engine at `open()`. A store nobody has written to,
    /// or one an older schema wrote, gets this build's schema record now: records written from
    /// here on may be in the newer form, and an older build must refuse them rather than
    /// misread them.
    pub async fn load(&self) -> Result<Snapshot, StoreError> {
        let Some(backend) = &self.inner.backend else {
            return Ok(Snapshot::default());
        };
        let loaded = backend.load().await?;
        self.inner.saved_clock.set(loaded.clock);
        if loaded.schema.is_none_or(|v| v < layout::SCHEMA_VERSION) {
            backend.write(vec![layout::schema_op()?]).await?;
        }
        Ok(loaded.snapshot)
    }

    /// Makes one operation's changes durable, all or nothing, sharing the commit with whatever
    /// else is pending. Awaited before the operation's Promise (or HTTP response) resolves: the
    /// flush barrier of docs/architecture.md, invariant 3. An empty batch waits for the latest commit.
    pub async fn commit(&self, batch: Vec<Change>) -> Result<(), StoreError> {
        let ticket = self.enqueue_changes(batch)?;
        self.settle(ticket).await
    }

    /// [`GroupCommit::enqueue`] for one operation's changes.
    pub fn enqueue_changes(&self, batch: Vec<Change>) -> Result<u64, StoreError> {
        self.enqueue(batch.into_iter().map(Pending::Change).collect())
    }

    /// Appends to the pending batch and starts a commit if none is in flight. Returns the
    /// number of the batch that will contain these items (or the latest one, for none).
    /// Synchronous, so a caller holding the engine can enqueue in the engine's order.
    pub fn enqueue(&self, items: Vec<Pending>) -> Result<u64, StoreError> {
        let ticket = {
            let mut g = self.inner.group.borrow_mut();
            if let Some(e) = &g.failed {
                return Err(e.clone());
            }
            if self.inner.backend.is_none() {
                if !items.is_empty() {
                    g.durable = g.next;
                    g.next += 1;
                    self.inner.count(items.len());
                }
                return Ok(g.durable);
            }
            g.pending.extend(items);
            if g.pending.is_empty() {
                g.next - 1
            } else {
                g.next
            }
        };
        Inner::kick(&self.inner);
        Ok(ticket)
    }

    /// Waits for batch `ticket` under this group's durability.
    pub async fn settle(&self, ticket: u64) -> Result<(), StoreError> {
        match self.inner.durability {
            Durability::Strict => self.durable(ticket).await,
            Durability::Relaxed => match &self.inner.group.borrow().failed {
                Some(e) => Err(e.clone()),
                None => Ok(()),
            },
        }
    }

    /// [`GroupCommit::settle`] without waiting, when it would not wait: `Some` once batch
    /// `ticket` is as durable as this group promises (at once with no backend or with relaxed
    /// durability), `None` while its commit is still to come. Lets a host answer at once
    /// instead of through an async task.
    pub fn settled_now(&self, ticket: u64) -> Option<Result<(), StoreError>> {
        let g = self.inner.group.borrow();
        match (&g.failed, self.inner.durability) {
            (Some(e), _) => Some(Err(e.clone())),
            (None, Durability::Relaxed) => Some(Ok(())),
            (None, Durability::Strict) => (g.durable >= ticket).then_some(Ok(())),
        }
    }

    fn durable(&self, ticket: u64) -> Durable<S, R> {
        Durable {
            inner: self.inner.clone(),
            ticket,
        }
    }

    /// Waits until everything queued so far is durable, whatever the durability mode.
    pub async fn flush(&self) -> Result<(), StoreError> {
        let ticket = self.enqueue(Vec::new())?;
        self.durable(ticket).await
    }

    /// Flushes, then fails every later operation ("the service was closed"). Returns whether
    /// this call closed it (closing twice is fine) and how the flush went; the host closes the
    /// backend after.
    pub async fn close(&self) -> (bool, Result<(), StoreError>) {
        if self.inner.closed.replace(true) {
            return (false, Ok(()));
        }
        let flushed = self.flush().await;
        let mut g = self.inner.group.borrow_mut();
        g.failed
            .get_or_insert_with(|| StoreError::Failed("the service was closed".into()));
        g.pending.clear();
        (true, flushed)
    }

    /// Why the store failed, if it has.
    pub fn failure(&self) -> Option<StoreError> {
        self.inner.group.borrow().failed.clone()
    }

    /// Changes committed since `open()`.
    pub fn committed(&self) -> u64 {
        self.inner.committed.get()
    }

    /// Store transactions (group commits) since `open()`.
    pub fn transactions(&self) -> u64 {
        self.inner.transactions.get()
    }

    /// The clock reading saved by the last commit before this `open()`.
    pub fn saved_clock(&self) -> Option<SavedClock> {
        self.inner.saved_clock.get()
    }

    pub fn durability(&self) -> Durability {
        self.inner.durability
    }
}

impl<S: Store + 'static, R: Runtime + 'static> Inner<S, R> {
    fn count(&self, changes: usize) {
        self.committed.set(self.committed.get() + changes as u64);
        self.transactions.set(self.transactions.get() + 1);
    }

    /// Starts the commit task unless one is running or there is nothing to do.
    fn kick(this: &Rc<Self>) {
        {
            let mut g = this.group.borrow_mut();
            if g.in_flight || g.pending.is_empty() || g.failed.is_some() {
                return;
            }
            g.in_flight = true;
        }
        this.runtime
            .spawn(Box::pin(Inner::run_commits(this.clone())));
    }

    /// Commits pending batches one at a time until none is left (or the store fails), waking
    /// every waiter after each.
    async fn run_commits(this: Rc<Self>) {
        loop {
            let (batch, number) = {
                let mut g = this.group.borrow_mut();
                if g.pending.is_empty() || g.failed.is_some() {
                    g.in_flight = false;
                    return;
                }
                let number = g.next;
                g.next += 1;
                (std::mem::take(&mut g.pending), number)
            };
            let changes = batch.len();
            let result = this.write(batch).await;
            let waiters = {
                let mut g = this.group.borrow_mut();
                match result {
                    Ok(()) => {
                        g.durable = number;
                        this.count(changes);
                    }
                    Err(e) => {
                        this.runtime.commit_failed(&e);
                        g.failed = Some(e);
                    }
                }
                std::mem::take(&mut g.waiters)
            };
            for waiter in waiters {
                waiter.wake();
            }
        }
    }

    /// One batch as record operations, with the clock reading, in one write.
    async fn write(&self, batch: Vec<Pending>) -> Result<(), StoreError> {
        let Some(backend) = &self.backend else {
            return Ok(());
        };
        let mut ops = layout::ops(batch)?;
        let clock = self.clock.borrow().clone();
        let adjustment = self.adjustment.get();
        if let Some(clock) = clock {
            ops.push(layout::clock_op(SavedClock {
                now: clock.now().as_millis(),
                wall: self.runtime.wall_millis(),
                offset_ms: adjustment.map(|a| a.offset_ms),
                paused_at: adjustment.and_then(|a| a.paused_at),
            })?);
        }
        backend.write(ops).await
    }
}

/// Resolves when batch `ticket` is durable, or with the error that failed the store.
struct Durable<S, R> {
    inner: Rc<Inner<S, R>>,
    ticket: u64,
}

impl<S, R> Future for Durable<S, R> {
    type Output = Result<(), StoreError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut g = self.inner.group.borrow_mut();
        if g.durable >= self.ticket {
            return Poll::Ready(Ok(()));
        }
        if let Some(e) = &g.failed {
            return Poll::Ready(Err(e.clone()));
        }
        g.waiters.push(cx.waker().clone());
        Poll::Pending
    }
}
