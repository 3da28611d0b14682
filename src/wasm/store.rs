//! Where a `QueueService` makes each operation's changes durable before answering: the backend
//! chosen at `open()` and the group commit in front of it.
//!
//! # Group commit
//! An operation runs on the engine, then its changes are appended to the *pending batch*
//! (synchronously, before anything else can run, so batches keep the engine's order) and it
//! waits for the commit that contains them. At most one commit is in flight; when it
//! completes, everything that piled up meanwhile goes out as the next one. So N concurrent
//! requests cost about one store transaction, not N, and every waiter still resolves only after
//! its own changes are durable (design.md, invariant 3). An operation that changed nothing
//! (a read) waits for the latest batch too, so it cannot reveal a change that is not yet
//! durable.
//!
//! `durability: "relaxed"` answers as soon as the changes are queued and commits them in the
//! background (PGlite's `relaxedDurability`): fast, and a crash may lose the last moments.
//! `flush()` and `close()` wait for everything either way.
//!
//! # Failure
//! A failed commit means the engine is ahead of what is durable. The store then marks itself
//! failed for good: the waiters of that commit and every later operation get
//! `InternalError` (500), and reopening returns to the last durable state. Nothing is ever
//! acknowledged and then silently dropped.

use super::adapter::AdapterStore;
use super::clock::AnyClock;
use super::error::{coded, invalid_input, js_error};
use super::idb::IdbStore;
use crate::engine::{Change, Clock, Snapshot};
use crate::rest::ErrorCode;
use crate::store::StoreError;
use crate::store::layout::{self, Loaded, Pending, RecordOp, SavedClock};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::JsValue;

/// When a Promise resolves relative to its commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Durability {
    /// After the commit that contains the operation's changes (the default).
    Strict,
    /// As soon as the changes are queued; the commit follows in the background.
    Relaxed,
}

/// Why `open()` could not set up the store.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// No such backend here (no IndexedDB in this realm, Web Locks refused).
    Unavailable(String),
    /// Another tab or worker holds the database.
    Locked(String),
    /// The options are wrong.
    Invalid(String),
    /// The backend failed while opening or loading.
    Store(StoreError),
}

impl OpenError {
    pub(crate) fn into_store_error(self) -> StoreError {
        match self {
            OpenError::Store(e) => e,
            OpenError::Unavailable(m) | OpenError::Locked(m) | OpenError::Invalid(m) => {
                StoreError::Failed(m)
            }
        }
    }

    /// The error `QueueService.open()` rejects with.
    pub(crate) fn to_js(&self) -> JsValue {
        match self {
            OpenError::Unavailable(m) => js_error("StoreUnavailable", 501, m, &[]),
            OpenError::Locked(m) => js_error("StoreLocked", 409, m, &[]),
            OpenError::Invalid(m) => invalid_input(m),
            OpenError::Store(e) => js_error(
                "StoreUnavailable",
                500,
                &format!("the store could not be read: {e}"),
                &[],
            ),
        }
    }
}

/// The error an operation rejects with when the store has failed.
pub(crate) fn store_error_to_js(e: &StoreError) -> JsValue {
    coded(
        ErrorCode::InternalError,
        format!("the store could not save the change: {e}"),
    )
}

/// The backend chosen at `open()`. An enum rather than `dyn Store`: async trait methods are not
/// object-safe, and a handful of variants do not justify boxing (style.md 3.4).
#[derive(Debug)]
enum AnyStore {
    /// Nothing is saved: the engine itself is the state, and a memory service always opens
    /// empty. (A second copy of every record would cost each request time and memory for a
    /// copy nobody ever reads.)
    Memory,
    Idb(IdbStore),
    Adapter(AdapterStore),
}

impl AnyStore {
    async fn load(&self) -> Result<Loaded, StoreError> {
        match self {
            AnyStore::Memory => Ok(Loaded::default()),
            AnyStore::Idb(s) => s.load_all().await,
            AnyStore::Adapter(s) => s.load_all().await,
        }
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        match self {
            AnyStore::Memory => Ok(()),
            AnyStore::Idb(s) => s.commit_ops(ops).await,
            AnyStore::Adapter(s) => s.commit_ops(ops).await,
        }
    }

    async fn commit(
        &self,
        batch: Vec<Pending>,
        clock: Option<SavedClock>,
    ) -> Result<(), StoreError> {
        if let AnyStore::Memory = self {
            return Ok(());
        }
        let mut ops = layout::ops(batch)?;
        if let Some(clock) = clock {
            ops.push(layout::clock_op(clock)?);
        }
        self.write(ops).await
    }

    async fn close(&self) {
        match self {
            AnyStore::Memory | AnyStore::Adapter(_) => {}
            AnyStore::Idb(s) => s.close_and_wait().await,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            AnyStore::Memory => "memory",
            AnyStore::Idb(_) => "indexeddb",
            AnyStore::Adapter(_) => "adapter",
        }
    }
}

/// The group-commit bookkeeping. Batches are numbered from 1 in commit order.
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

#[derive(Debug)]
struct Inner {
    backend: AnyStore,
    durability: Durability,
    /// The service clock, saved with each commit so a virtual timeline can resume.
    clock: RefCell<Option<AnyClock>>,
    saved_clock: Cell<Option<SavedClock>>,
    group: RefCell<Group>,
    committed: Cell<u64>,
    transactions: Cell<u64>,
    closed: Cell<bool>,
}

/// A backend plus its group commit; one per `QueueService`.
#[derive(Debug)]
pub(crate) struct HostStore {
    inner: Rc<Inner>,
}

/// Reads one property of the `open()` options bag.
fn option(options: &JsValue, key: &str) -> JsValue {
    if options.is_object() {
        js_sys::Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

impl HostStore {
    fn with_backend(backend: AnyStore, durability: Durability) -> Self {
        HostStore {
            inner: Rc::new(Inner {
                backend,
                durability,
                clock: RefCell::new(None),
                saved_clock: Cell::new(None),
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

    /// The store named by `open()`'s options: `store` (`"memory"`, `"indexeddb"` or a storage
    /// adapter object), `name`, `durability` and `waitForLock`. Opens (and locks) it, but does
    /// not load it yet.
    pub(crate) async fn open(options: &JsValue) -> Result<Self, OpenError> {
        let durability = match option(options, "durability").as_string().as_deref() {
            None | Some("strict") => Durability::Strict,
            Some("relaxed") => Durability::Relaxed,
            Some(other) => {
                return Err(OpenError::Invalid(format!(
                    "durability must be \"strict\" or \"relaxed\", not {other:?}"
                )));
            }
        };
        let store = option(options, "store");
        let backend = if store.is_undefined() || store.is_null() {
            AnyStore::Memory
        } else if let Some(kind) = store.as_string() {
            match kind.as_str() {
                "memory" => AnyStore::Memory,
                "indexeddb" => {
                    let name = match option(options, "name") {
                        v if v.is_undefined() || v.is_null() => "azqueue".to_owned(),
                        v => v.as_string().filter(|n| !n.is_empty()).ok_or_else(|| {
                            OpenError::Invalid("name must be a non-empty string".into())
                        })?,
                    };
                    let wait = option(options, "waitForLock").as_bool().unwrap_or(false);
                    let idb = IdbStore::with_options(&name, durability == Durability::Strict, wait);
                    idb.open().await?;
                    AnyStore::Idb(idb)
                }
                other => {
                    return Err(OpenError::Invalid(format!(
                        "store must be \"memory\", \"indexeddb\" or a storage adapter \
                         {{ load, commit }}, not {other:?}"
                    )));
                }
            }
        } else {
            AnyStore::Adapter(AdapterStore::new(store).map_err(OpenError::Invalid)?)
        };
        Ok(HostStore::with_backend(backend, durability))
    }

    /// Saves the service clock's reading with every commit from now on.
    pub(crate) fn set_clock(&self, clock: AnyClock) {
        *self.inner.clock.borrow_mut() = Some(clock);
    }

    /// What the store saved, to rebuild the engine at `open()`. A store nobody has written to,
    /// or one an older schema wrote, gets this build's schema record now: records written from
    /// here on may be in the newer form, and an older build must refuse them rather than
    /// misread them.
    pub(crate) async fn load(&self) -> Result<Snapshot, StoreError> {
        let loaded = self.inner.backend.load().await?;
        self.inner.saved_clock.set(loaded.clock);
        let outdated = loaded.schema.is_none_or(|v| v < layout::SCHEMA_VERSION);
        if outdated && !matches!(self.inner.backend, AnyStore::Memory) {
            self.inner.backend.write(vec![layout::schema_op()?]).await?;
        }
        Ok(loaded.snapshot)
    }

    /// Makes one operation's changes durable, all or nothing, sharing the commit with whatever
    /// else is pending. Awaited before the operation's Promise (or HTTP response) resolves: the
    /// flush barrier of design.md, invariant 3. An empty batch waits for the latest commit.
    pub(crate) async fn commit(&self, batch: Vec<Change>) -> Result<(), StoreError> {
        let ticket = self.enqueue(batch.into_iter().map(Pending::Change).collect())?;
        self.settle(ticket).await
    }

    /// Appends to the pending batch and starts a commit if none is in flight. Returns the
    /// number of the batch that will contain these items (or the latest one, for none).
    /// Synchronous, so a caller holding the engine can enqueue in the engine's order.
    pub(crate) fn enqueue(&self, items: Vec<Pending>) -> Result<u64, StoreError> {
        let ticket = {
            let mut g = self.inner.group.borrow_mut();
            if let Some(e) = &g.failed {
                return Err(e.clone());
            }
            if let AnyStore::Memory = &self.inner.backend {
                if !items.is_empty() {
                    let n = items.len() as u64;
                    g.durable = g.next;
                    g.next += 1;
                    self.inner.committed.set(self.inner.committed.get() + n);
                    self.inner
                        .transactions
                        .set(self.inner.transactions.get() + 1);
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

    /// Waits for batch `ticket` under this store's durability.
    pub(crate) async fn settle(&self, ticket: u64) -> Result<(), StoreError> {
        match self.inner.durability {
            Durability::Strict => self.durable(ticket).await,
            Durability::Relaxed => match &self.inner.group.borrow().failed {
                Some(e) => Err(e.clone()),
                None => Ok(()),
            },
        }
    }

    fn durable(&self, ticket: u64) -> Durable {
        Durable {
            inner: self.inner.clone(),
            ticket,
        }
    }

    /// Waits until everything queued so far is durable, whatever the durability mode.
    pub(crate) async fn flush(&self) -> Result<(), StoreError> {
        let ticket = self.enqueue(Vec::new())?;
        self.durable(ticket).await
    }

    /// Flushes, then closes the backend (releasing an IndexedDB database and its lock). Later
    /// operations fail. Closing twice is fine.
    pub(crate) async fn close(&self) -> Result<(), StoreError> {
        if self.inner.closed.replace(true) {
            return Ok(());
        }
        let flushed = self.flush().await;
        {
            let mut g = self.inner.group.borrow_mut();
            g.failed
                .get_or_insert_with(|| StoreError::Failed("the service was closed".into()));
            g.pending.clear();
        }
        self.inner.backend.close().await;
        flushed
    }

    /// Why the store failed, if it has.
    pub(crate) fn failure(&self) -> Option<StoreError> {
        self.inner.group.borrow().failed.clone()
    }

    /// Changes committed since `open()`.
    pub(crate) fn committed(&self) -> u64 {
        self.inner.committed.get()
    }

    /// Store transactions (group commits) since `open()`.
    pub(crate) fn transactions(&self) -> u64 {
        self.inner.transactions.get()
    }

    /// The clock reading saved by the last commit before this `open()`.
    pub(crate) fn saved_clock(&self) -> Option<SavedClock> {
        self.inner.saved_clock.get()
    }

    pub(crate) fn durability(&self) -> Durability {
        self.inner.durability
    }

    pub(crate) fn kind(&self) -> &'static str {
        self.inner.backend.kind()
    }
}

impl Inner {
    /// Starts the commit task unless one is running or there is nothing to do.
    fn kick(this: &Rc<Inner>) {
        {
            let mut g = this.group.borrow_mut();
            if g.in_flight || g.pending.is_empty() || g.failed.is_some() {
                return;
            }
            g.in_flight = true;
        }
        wasm_bindgen_futures::spawn_local(Inner::run_commits(this.clone()));
    }

    /// Commits pending batches one at a time until none is left (or the store fails), waking
    /// every waiter after each.
    async fn run_commits(this: Rc<Inner>) {
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
            let changes = batch.len() as u64;
            let clock = this.clock_now();
            let result = this.backend.commit(batch, clock).await;
            let waiters = {
                let mut g = this.group.borrow_mut();
                match result {
                    Ok(()) => {
                        g.durable = number;
                        this.committed.set(this.committed.get() + changes);
                        this.transactions.set(this.transactions.get() + 1);
                    }
                    Err(e) => {
                        web_sys::console::error_1(
                            &format!(
                                "azqueue: a commit failed, so the store is now failed and every \
                                 later operation answers InternalError: {e}"
                            )
                            .into(),
                        );
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

    fn clock_now(&self) -> Option<SavedClock> {
        if matches!(self.backend, AnyStore::Memory) {
            return None;
        }
        let clock = self.clock.borrow().clone()?;
        Some(SavedClock {
            now: clock.now().as_millis(),
            wall: js_sys::Date::now().max(0.0) as u64,
        })
    }
}

/// Resolves when batch `ticket` is durable, or with the error that failed the store.
struct Durable {
    inner: Rc<Inner>,
    ticket: u64,
}

impl Future for Durable {
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
