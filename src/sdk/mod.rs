//! The official Rust SDK against an in-process azqueue (feature `azure-sdk`).
//!
//! [`InProcessQueues`] is the development account on a virtual clock, with
//! `azure_storage_queue` clients whose transport is [`InProcessTransport`]: every request is
//! answered by [`Service::handle`] in this process, at the clock's time. Tests move the clock
//! instead of waiting, and need no server, socket or container, so they run the same under
//! `cargo test` and `wasm-pack test` in a browser.

mod dev_sas;
mod transport;

pub use transport::InProcessTransport;

use crate::engine::{Emulator, ManualClock, OsEntropy, Timestamp};
use crate::rest::config::DEV_ACCOUNT;
use crate::rest::faults::Faults;
use crate::rest::{Service, ServiceConfig};
use azure_core::http::{ClientOptions, RetryOptions, Transport, Url};
use azure_storage_queue::{
    QueueClient, QueueClientOptions, QueueServiceClient, QueueServiceClientOptions,
};
use std::sync::Arc;

/// Where [`InProcessQueues::new`]'s clock starts: 2026-01-01T00:00:00Z. Fixed, so a test
/// sees the same dates on every run and on every target (wasm32 has no `SystemTime`).
pub const DEFAULT_START: Timestamp = Timestamp::from_secs(1_767_225_600);

/// The address the clients use. Nothing listens there: the transport never opens a socket,
/// and the service reads the account from the path, as it does for Azurite's address.
const DEV_ENDPOINT: &str = "http://127.0.0.1:10001";

/// An in-memory queue service for the development account (`devstoreaccount1`), its virtual
/// clock, and SDK clients wired to it.
///
/// ```
/// # futures::executor::block_on(async {
/// let queues = azqueue::sdk::InProcessQueues::new();
/// let jobs = queues.queue_client("jobs")?;
/// jobs.create(None).await?;
/// queues.clock().advance_secs(60); // a minute passes, instantly
/// # Ok::<(), azure_core::Error>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct InProcessQueues {
    transport: InProcessTransport,
    service_url: Url,
    retry: RetryOptions,
}

impl Default for InProcessQueues {
    fn default() -> Self {
        Self::new()
    }
}

impl InProcessQueues {
    /// An empty development account with the clock at [`DEFAULT_START`].
    pub fn new() -> Self {
        Self::starting_at(DEFAULT_START)
    }

    /// An empty development account with the clock at `start`.
    pub fn starting_at(start: Timestamp) -> Self {
        let service = Service::new(ServiceConfig::dev(), Emulator::new(Box::new(OsEntropy)));
        InProcessQueues {
            transport: InProcessTransport::new(service, ManualClock::starting_at(start)),
            service_url: dev_service_url(),
            retry: RetryOptions::none(),
        }
    }

    /// The same account, with clients that retry as `retry` says (the SDK's own policy), for
    /// a test of retries against fault rules ([`InProcessQueues::faults`]). The SDK waits
    /// between tries on its async runtime's timer: real time, so keep the delays short. Its
    /// default runtime waits on a thread, which a browser does not have: on wasm32, retry in
    /// the code under test instead (`examples/rust-consumer`).
    pub fn with_retry(mut self, retry: RetryOptions) -> Self {
        self.retry = retry;
        self
    }

    /// The fault rules and limits the service answers by (docs/faults.md): `f` runs on them
    /// between requests, with the JSON API of `/_azqueue/faults`.
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// let queues = azqueue::sdk::InProcessQueues::new();
    /// let jobs = queues.queue_client("jobs")?;
    /// jobs.create(None).await?;
    /// queues
    ///     .faults(|f| f.post(br#"{"rules": [{"operation": "GetMessages", "status": 503}]}"#))
    ///     .expect("a valid rule set");
    /// let busy = jobs.receive_messages(None).await.unwrap_err();
    /// assert_eq!(busy.http_status(), Some(azure_core::http::StatusCode::ServiceUnavailable));
    /// # Ok::<(), azure_core::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn faults<R>(&self, f: impl FnOnce(&mut Faults) -> R) -> R {
        self.transport
            .with_service(|service| f(service.faults_mut()))
    }

    /// The virtual clock: `clock().advance_secs(31)` makes 31 seconds pass for the service.
    pub fn clock(&self) -> &ManualClock {
        self.transport.clock()
    }

    /// The transport the clients send through (also to inspect the engine between requests).
    pub fn transport(&self) -> &InProcessTransport {
        &self.transport
    }

    /// SDK client options with this transport and, unless [`InProcessQueues::with_retry`] said
    /// otherwise, no retries: a retry waits on the wall clock, and the service returns the
    /// transient errors retries are for only when a fault rule says so.
    pub fn client_options(&self) -> ClientOptions {
        ClientOptions {
            transport: Some(Transport::new(Arc::new(self.transport.clone()))),
            retry: self.retry.clone(),
            ..ClientOptions::default()
        }
    }

    /// The account's URL with its SAS, as `QueueServiceClient::new` takes it.
    pub fn service_url(&self) -> &Url {
        &self.service_url
    }

    /// A `QueueServiceClient` for the account.
    pub fn service_client(&self) -> azure_core::Result<QueueServiceClient> {
        let options = QueueServiceClientOptions {
            client_options: self.client_options(),
            ..QueueServiceClientOptions::default()
        };
        QueueServiceClient::new(self.service_url.clone(), None, Some(options))
    }

    /// A `QueueClient` for the queue `name` (which need not exist yet).
    pub fn queue_client(&self, name: &str) -> azure_core::Result<QueueClient> {
        let mut url = self.service_url.clone();
        url.path_segments_mut()
            .map_err(|()| {
                azure_core::Error::with_message(
                    azure_core::error::ErrorKind::Other,
                    "the service URL cannot take a path",
                )
            })?
            .push(name);
        let options = QueueClientOptions {
            client_options: self.client_options(),
            ..QueueClientOptions::default()
        };
        QueueClient::new(url, None, Some(options))
    }
}

fn dev_service_url() -> Url {
    let mut url =
        Url::parse(&format!("{DEV_ENDPOINT}/{DEV_ACCOUNT}")).expect("a constant, valid URL");
    url.set_query(Some(&dev_sas::dev_account_sas()));
    url
}
