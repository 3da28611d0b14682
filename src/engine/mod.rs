//! Azure Queue Storage semantics, pure and deterministic.
//!
//! Accounts own queues; queues own messages. This layer never reads a clock or an RNG: every
//! time-dependent method takes `now`, and ids and pop receipts come from the [`Entropy`] the
//! emulator was built with. It knows nothing of HTTP, JavaScript or storage (it may not import
//! `crate::rest`, `crate::store`, `crate::wasm`, `web_sys`, `js_sys` or `wasm_bindgen`).
//!
//! # Invariants
//! - A message is visible iff `time_next_visible <= now < expiration_time`.
//! - A message leaves only by Delete Message with its current pop receipt, Clear Messages,
//!   Delete Queue, or expiry. Every Get and Update issues a fresh receipt.
//! - An operation that returns `Err` changed nothing observable. Expired messages may have
//!   been purged on the way (their deletions are queued), so drain the outbox after errors too.
//! - Every state change is appended to the outbox ([`Emulator::take_changes`]) in order.

pub mod acl;
pub mod capacity;
pub mod change;
pub mod clock_adjust;
pub mod cors;
#[cfg(feature = "inspector")]
pub mod dev_actions;
pub mod error;
pub mod event;
pub mod ids;
pub mod inspection;
pub mod inspection_page;
pub mod limits;
pub mod message;
mod message_operations;
pub mod metadata;
pub mod name;
pub mod params;
pub mod properties;
mod properties_error;
pub mod queue;
mod queue_operations;
pub mod table;
pub mod time;

pub use acl::{
    AccessPolicy, AclError, PolicyTime, QueuePermissions, SignedIdentifier, signed_identifiers,
};
pub use capacity::{Capacity, MESSAGE_OVERHEAD_BYTES};
pub use change::{AccountSnapshot, Change, QueueRecord, QueueSnapshot, Snapshot};
pub use clock_adjust::{ClockAdjustment, ClockChange};
pub use cors::{CorsRule, cors_rules};
#[cfg(feature = "inspector")]
pub use dev_actions::ActionError;
pub use error::{QueueError, TableError};
pub use event::{Event, EventKind};
pub use ids::{Entropy, MessageId, OsEntropy, PopReceipt, SeededEntropy};
pub use inspection::{MessageInspection, MessageState, QueueInspection};
pub use inspection_page::{InspectedPage, PageQuery, StateCounts, StateFilter};
pub use message::{MessageOrigin, MessageRecord};
pub use message_operations::Updated;
pub use metadata::{Metadata, MetadataError};
pub use name::{NameError, QueueName};
pub use params::{MessageCount, MessageText, RangeError, TextError, TimeToLive, VisibilityTimeout};
pub use properties::{
    Logging, Metrics, PropertiesError, RetentionPolicy, ServiceProperties, ServicePropertiesUpdate,
};
pub use queue::Queue;
pub use queue_operations::{Created, QueuePage, QueueProperties};
pub use table::{AnyTable, MemoryTable, MessageTable, Tables};
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub use table::{HostBox, HostTable, SharedTableSource, TableSource};
#[cfg(not(target_arch = "wasm32"))]
pub use time::SystemClock;
pub use time::{Clock, ManualClock, NEVER, Timestamp};

use std::collections::BTreeMap;

#[derive(Debug, Default)]
struct Account {
    queues: BTreeMap<QueueName, Queue>,
    properties: ServiceProperties,
}

/// Appends the change `make` builds to the outbox, when recording.
fn record(outbox: &mut Option<Vec<Change>>, make: impl FnOnce() -> Change) {
    if let Some(outbox) = outbox.as_mut() {
        outbox.push(make());
    }
}

/// [`record`], for a change to messages: only while those are recorded.
fn record_message(on: bool, outbox: &mut Option<Vec<Change>>, make: impl FnOnce() -> Change) {
    if on {
        record(outbox, make);
    }
}

/// The whole service: accounts → queues → messages, plus the outbox of changes.
pub struct Emulator {
    accounts: BTreeMap<String, Account>,
    entropy: Box<dyn Entropy>,
    /// Where each queue's messages are kept (memory unless the host gave SQL tables).
    tables: Tables,
    /// Changes since the last drain; `None` while not recording (a memory-only host, which
    /// has nowhere to commit them, is spared building them).
    outbox: Option<Vec<Change>>,
    events: Option<Vec<Event>>,
    /// Whether changes to messages go to the outbox too (not when their table keeps them).
    message_changes: bool,
    /// Bounds on queues and stored bytes (`capacity.rs`).
    capacity: Capacity,
    /// The sum of every queue's [`Queue::stored_bytes`], kept as they change so admitting a
    /// Put costs O(1), not a walk over every queue. Only [`Emulator::with_queue`] lends a queue
    /// out mutably, and it moves this total by the queue's own before/after; the other writers
    /// (create, delete and restore of whole queues) add or take a queue's whole count.
    charged_bytes: u64,
}

impl std::fmt::Debug for Emulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emulator")
            .field("accounts", &self.accounts.keys().collect::<Vec<_>>())
            .field("pending_changes", &self.outbox.as_ref().map(Vec::len))
            .finish()
    }
}

impl Emulator {
    /// An empty service drawing ids and receipts from `entropy`.
    pub fn new(entropy: Box<dyn Entropy>) -> Self {
        Emulator::with_tables(entropy, Tables::Memory)
    }

    /// An empty service whose queues keep their messages in the tables `tables` opens.
    pub fn with_tables(entropy: Box<dyn Entropy>, tables: impl Into<Tables>) -> Self {
        Emulator {
            accounts: BTreeMap::new(),
            entropy,
            tables: tables.into(),
            outbox: Some(Vec::new()),
            events: None,
            message_changes: true,
            capacity: Capacity::default(),
            charged_bytes: 0,
        }
    }

    /// Rebuilds the service from what a store saved. The outbox starts empty.
    pub fn from_snapshot(snapshot: Snapshot, entropy: Box<dyn Entropy>) -> Self {
        let mut emu = Emulator::new(entropy);
        // Memory tables cannot fail, so every message of the snapshot is in.
        let _ = emu.replace_state(snapshot);
        emu
    }

    /// [`Emulator::from_snapshot`] into the tables `tables` opens.
    ///
    /// # Errors
    /// What a table reported while the snapshot was stored in it.
    pub fn from_snapshot_in(
        snapshot: Snapshot,
        entropy: Box<dyn Entropy>,
        tables: impl Into<Tables>,
    ) -> Result<Self, QueueError> {
        let mut emu = Emulator::with_tables(entropy, tables);
        emu.replace_state(snapshot)?;
        Ok(emu)
    }

    /// Adds a queue whose record and messages are already kept by this emulator's table source
    /// (a SQL table at the edge): its messages stay where they are, nothing is queued to store.
    ///
    /// # Errors
    /// What the table source reported when opening the queue's table.
    pub fn attach_queue(&mut self, account: &str, record: QueueRecord) -> Result<(), QueueError> {
        let table = self.tables.open(account, &record.name)?;
        let queue = Queue::new(record, table);
        self.charged_bytes += queue.stored_bytes();
        let acct = self.accounts.entry(account.to_owned()).or_default();
        if let Some(replaced) = acct.queues.insert(queue.name().clone(), queue) {
            self.charged_bytes -= replaced.stored_bytes();
        }
        Ok(())
    }

    /// Replaces every account, queue and message with `snapshot` (an import, a reset), keeping
    /// the entropy source and event recording, so a seeded service stays deterministic. Pending
    /// changes are dropped and none are queued: the caller stores the snapshot as a whole.
    ///
    /// # Errors
    /// What a table reported; the state is then whatever was restored before it.
    pub fn replace_state(&mut self, snapshot: Snapshot) -> Result<(), QueueError> {
        self.charged_bytes = 0;
        if let Some(outbox) = self.outbox.as_mut() {
            outbox.clear();
        }
        for (_, account) in std::mem::take(&mut self.accounts) {
            for (_, queue) in account.queues {
                queue.destroy()?;
            }
        }
        for a in snapshot.accounts {
            let account = self.accounts.entry(a.name.clone()).or_default();
            if let Some(p) = a.properties {
                account.properties = p;
            }
            for q in a.queues {
                // A snapshot naming a queue twice keeps the last: the one replaced goes whole.
                if let Some(replaced) = account.queues.remove(&q.queue.name) {
                    self.charged_bytes -= replaced.stored_bytes();
                    replaced.destroy()?;
                }
                let table = self.tables.open(&a.name, &q.queue.name)?;
                let mut queue = Queue::new(q.queue, table);
                let restored = q.messages.into_iter().try_for_each(|m| queue.restore(m));
                self.charged_bytes += queue.stored_bytes();
                account.queues.insert(queue.name().clone(), queue);
                restored?;
            }
        }
        Ok(())
    }

    /// The whole state as a store would save it.
    ///
    /// # Errors
    /// What a table reported while its messages were read.
    pub fn snapshot(&self) -> Result<Snapshot, QueueError> {
        let mut accounts = Vec::with_capacity(self.accounts.len());
        for (name, a) in &self.accounts {
            let mut queues = Vec::with_capacity(a.queues.len());
            for q in a.queues.values() {
                queues.push(QueueSnapshot {
                    queue: q.record.clone(),
                    messages: q.messages_in_order()?,
                });
            }
            accounts.push(AccountSnapshot {
                name: name.clone(),
                properties: Some(a.properties.clone()),
                queues,
            });
        }
        Ok(Snapshot { accounts })
    }

    /// Changes since the last call, oldest first. Drain after every operation that must be
    /// durable before it is acknowledged.
    pub fn take_changes(&mut self) -> Vec<Change> {
        self.outbox.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Starts (the default) or stops recording [`Change`]s for [`Emulator::take_changes`].
    /// Only a host that keeps nothing but the engine itself (the memory store) turns it off:
    /// building each change (a copy of every message put) is then pure cost.
    pub fn record_changes(&mut self, on: bool) {
        self.outbox = on.then(Vec::new);
    }

    /// Whether message changes (`MessagePut`, `MessageDeleted`, `QueueCleared`) are recorded
    /// with the others (the default). A host whose messages live in a table that stores them
    /// itself (the edge's SQL table, which it brings as a `TableSource`) needs only the queues'
    /// and the service's changes.
    pub fn record_message_changes(&mut self, on: bool) {
        self.message_changes = on;
    }

    /// Starts (or stops) recording [`Event`]s for [`Emulator::take_events`].
    pub fn record_events(&mut self, on: bool) {
        self.events = on.then(Vec::new);
    }

    /// Events since the last call, oldest first (empty unless recording).
    pub fn take_events(&mut self) -> Vec<Event> {
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn emit(&mut self, at: Timestamp, account: &str, queue: &QueueName, kind: EventKind) {
        if let Some(events) = self.events.as_mut() {
            events.push(Event {
                at,
                account: account.to_owned(),
                queue: queue.clone(),
                kind,
            });
        }
    }

    /// Runs `change` on the queue, with the entropy source beside it, and moves
    /// [`Emulator::charged_bytes`] by what the queue's charge moved. The only place a queue is
    /// borrowed mutably after it was created, so the running total cannot drift from the queues'.
    fn with_queue<R>(
        &mut self,
        account: &str,
        name: &QueueName,
        change: impl FnOnce(&mut Queue, &mut dyn Entropy) -> Result<R, TableError>,
    ) -> Result<R, QueueError> {
        let q = self
            .accounts
            .get_mut(account)
            .and_then(|a| a.queues.get_mut(name))
            .ok_or_else(|| QueueError::QueueNotFound(name.clone()))?;
        let before = q.stored_bytes();
        let out = change(q, self.entropy.as_mut());
        // The total includes `before`, so this cannot underflow.
        self.charged_bytes = self.charged_bytes - before + q.stored_bytes();
        Ok(out?)
    }

    /// A read-only view of a queue, for inspection (no purging, no side effects).
    pub fn queue(&self, account: &str, name: &QueueName) -> Result<&Queue, QueueError> {
        self.accounts
            .get(account)
            .and_then(|a| a.queues.get(name))
            .ok_or_else(|| QueueError::QueueNotFound(name.clone()))
    }

    /// Names of every queue in `account`, in order.
    pub fn queue_names(&self, account: &str) -> Vec<QueueName> {
        self.accounts
            .get(account)
            .map(|a| a.queues.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Removes `name`'s expired messages, recording each as deleted (and as expired, for
    /// subscribers). Its own lookup, so operations that look the queue up again anyway (with
    /// the entropy, after checking capacity) do not pay for a third.
    fn purge(&mut self, now: Timestamp, account: &str, name: &QueueName) -> Result<(), QueueError> {
        self.purge_expired(now, account, name, usize::MAX).map(drop)
    }

    /// Removes at most `limit` of `name`'s expired messages, earliest expiry first, recording
    /// each as deleted (and as expired, for subscribers); returns how many. Housekeeping in
    /// bounded steps (an edge alarm); the operations purge what they need themselves.
    ///
    /// # Errors
    /// `QueueNotFound`, or what the queue's table reported.
    pub fn purge_expired(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        limit: usize,
    ) -> Result<usize, QueueError> {
        let gone = self.with_queue(account, name, |q, _| q.purge_expired_at_most(now, limit))?;
        let count = gone.len();
        for id in gone {
            record_message(self.message_changes, &mut self.outbox, || {
                Change::MessageDeleted {
                    account: account.to_owned(),
                    queue: name.clone(),
                    id,
                }
            });
            self.emit(now, account, name, EventKind::Expired { id });
        }
        Ok(count)
    }

    /// [Get Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/get-queue-service-properties).
    pub fn service_properties(&self, account: &str) -> ServiceProperties {
        self.accounts
            .get(account)
            .map(|a| a.properties.clone())
            .unwrap_or_default()
    }

    /// The account's service properties without copying them (CORS runs on every request).
    pub fn service_properties_ref(&self, account: &str) -> &ServiceProperties {
        static DEFAULT: std::sync::OnceLock<ServiceProperties> = std::sync::OnceLock::new();
        match self.accounts.get(account) {
            Some(a) => &a.properties,
            None => DEFAULT.get_or_init(ServiceProperties::default),
        }
    }

    /// [Set Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/set-queue-service-properties):
    /// parts absent from `update` keep their stored value.
    pub fn set_service_properties(&mut self, account: &str, update: ServicePropertiesUpdate) {
        let acct = self.accounts.entry(account.to_owned()).or_default();
        acct.properties.apply(update);
        let properties = acct.properties.clone();
        record(&mut self.outbox, || Change::ServicePropertiesSet {
            account: account.to_owned(),
            properties,
        });
    }

    /// The earliest future moment at which any queue of `account` changes by itself.
    pub fn next_deadline(&self, now: Timestamp, account: &str) -> Option<Timestamp> {
        self.accounts
            .get(account)?
            .queues
            .values()
            // A table that cannot be read has no deadline to offer; the requests that read it
            // report its failure.
            .filter_map(|q| q.next_deadline(now).ok().flatten())
            .min()
    }
}
