//! The queue operations of the REST API: create, delete and list queues, their metadata and
//! access policies. Each changes a queue's record, never its messages, and queues that change
//! for the store.

use super::acl::SignedIdentifier;
use super::change::{Change, QueueRecord};
use super::error::QueueError;
use super::event::EventKind;
use super::metadata::Metadata;
use super::name::QueueName;
use super::queue::Queue;
use super::time::Timestamp;
use super::{Emulator, record};

/// What Create Queue found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Created {
    /// A new queue (201).
    New,
    /// The queue existed with identical metadata (204).
    AlreadyExisted,
}

/// One page of List Queues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePage {
    pub queues: Vec<(QueueName, Metadata)>,
    /// The first queue of the next page, if there is one.
    pub next: Option<QueueName>,
}

/// Get Queue Metadata's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueProperties {
    pub metadata: Metadata,
    pub approximate_message_count: usize,
}

impl Emulator {
    /// [Create Queue](https://learn.microsoft.com/rest/api/storageservices/create-queue4).
    ///
    /// # Errors
    /// `QueueAlreadyExists` when the queue exists with different metadata.
    pub fn create_queue(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        metadata: Metadata,
    ) -> Result<Created, QueueError> {
        let exists = self.queue(account, name).is_ok();
        if !exists {
            self.admit_queue(account)?;
        }
        let acct = self.accounts.entry(account.to_owned()).or_default();
        if let Some(q) = acct.queues.get(name) {
            return if q.metadata().same_as(&metadata) {
                Ok(Created::AlreadyExisted)
            } else {
                Err(QueueError::QueueAlreadyExists(name.clone()))
            };
        }
        let table = self.tables.open(account, name)?;
        let q = Queue::new(
            QueueRecord {
                name: name.clone(),
                metadata,
                acl: Vec::new(),
            },
            table,
        );
        let acct = self.accounts.entry(account.to_owned()).or_default();
        record(&mut self.outbox, || Change::QueuePut {
            account: account.to_owned(),
            queue: q.record.clone(),
        });
        acct.queues.insert(name.clone(), q);
        self.emit(now, account, name, EventKind::QueueCreated);
        Ok(Created::New)
    }

    /// [Delete Queue](https://learn.microsoft.com/rest/api/storageservices/delete-queue3):
    /// the queue and all its messages.
    pub fn delete_queue(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
    ) -> Result<(), QueueError> {
        let removed = self
            .accounts
            .get_mut(account)
            .and_then(|a| a.queues.remove(name))
            .ok_or_else(|| QueueError::QueueNotFound(name.clone()))?;
        self.charged_bytes -= removed.stored_bytes();
        removed.release()?;
        record(&mut self.outbox, || Change::QueueDeleted {
            account: account.to_owned(),
            queue: name.clone(),
        });
        self.emit(now, account, name, EventKind::QueueDeleted);
        Ok(())
    }

    /// [List Queues](https://learn.microsoft.com/rest/api/storageservices/list-queues1):
    /// names starting with `prefix`, from `marker` (inclusive), at most `max` of them.
    pub fn list_queues(
        &self,
        account: &str,
        prefix: &str,
        marker: Option<&str>,
        max: usize,
    ) -> QueuePage {
        let Some(acct) = self.accounts.get(account) else {
            return QueuePage {
                queues: Vec::new(),
                next: None,
            };
        };
        let start = marker.unwrap_or("").max(prefix);
        let mut matching = acct
            .queues
            .iter()
            .skip_while(|(n, _)| n.as_str() < start)
            .take_while(|(n, _)| n.as_str().starts_with(prefix));
        let queues: Vec<_> = matching
            .by_ref()
            .take(max)
            .map(|(n, q)| (n.clone(), q.metadata().clone()))
            .collect();
        let next = matching.next().map(|(n, _)| n.clone());
        QueuePage { queues, next }
    }

    /// [Get Queue Metadata](https://learn.microsoft.com/rest/api/storageservices/get-queue-metadata),
    /// with the approximate message count (expired messages are purged first, so not counted).
    pub fn queue_properties(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
    ) -> Result<QueueProperties, QueueError> {
        self.purge(now, account, name)?;
        let q = self.queue(account, name)?;
        Ok(QueueProperties {
            metadata: q.metadata().clone(),
            approximate_message_count: q.len(),
        })
    }

    /// [Set Queue Metadata](https://learn.microsoft.com/rest/api/storageservices/set-queue-metadata):
    /// replaces the whole set.
    pub fn set_queue_metadata(
        &mut self,
        account: &str,
        name: &QueueName,
        metadata: Metadata,
    ) -> Result<(), QueueError> {
        self.rewrite_queue_record(account, name, |q| q.set_metadata(metadata))
    }

    /// [Get Queue ACL](https://learn.microsoft.com/rest/api/storageservices/get-queue-acl).
    pub fn queue_acl(
        &self,
        account: &str,
        name: &QueueName,
    ) -> Result<Vec<SignedIdentifier>, QueueError> {
        Ok(self.queue(account, name)?.acl().to_vec())
    }

    /// [Set Queue ACL](https://learn.microsoft.com/rest/api/storageservices/set-queue-acl):
    /// replaces the stored access policies (the REST layer enforces at most five).
    pub fn set_queue_acl(
        &mut self,
        account: &str,
        name: &QueueName,
        acl: Vec<SignedIdentifier>,
    ) -> Result<(), QueueError> {
        self.rewrite_queue_record(account, name, |q| q.set_acl(acl))
    }

    /// Changes a queue's own record (not its messages) and queues the rewrite.
    fn rewrite_queue_record(
        &mut self,
        account: &str,
        name: &QueueName,
        change: impl FnOnce(&mut Queue),
    ) -> Result<(), QueueError> {
        let queue = self.with_queue(account, name, |q, _| {
            change(q);
            Ok(q.record.clone())
        })?;
        record(&mut self.outbox, || Change::QueuePut {
            account: account.to_owned(),
            queue,
        });
        Ok(())
    }
}
