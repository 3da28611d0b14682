//! The `QueueService` class: one in-process Azure Queue service (all accounts, all queues), the
//! JS counterpart of `QueueServiceClient`, plus the fetch handler that serves the same queues to
//! the official SDKs over the REST protocol.

use super::clock::ServiceClock;
#[cfg(feature = "socket")]
use super::connection::Connection;
use super::error::invalid_input;
use super::faulted::Ask;
#[cfg(feature = "faults")]
use super::faults::FaultRules;
use super::inspect;
use super::instance::Instance;
use super::js_object::{JsObject, date};
use super::options::{self, ListQueuesOptions, OpenOptions, ServicePropertiesInput};
use super::queue::{Queue, queue_name};
use super::raw;
use super::results;
use super::serve;
use super::sql_host::SqlHost;
use super::store::store_error_to_js;
use super::types::{
    JsEventListener, JsListQueuesOptions, JsOpenOptions, JsQueueCreateOptions,
    JsQueueServiceProperties,
};
use crate::engine::{Emulator, Entropy, QueueName, ServicePropertiesUpdate, Snapshot, Timestamp};
use crate::rest::{Operation, Service};
use crate::store::document;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The engine of `open({ sql })`: every queue's messages in a SQL table of the host's.
#[cfg(feature = "sql-host")]
fn sql_emulator(
    host: &SqlHost,
    snapshot: Snapshot,
    entropy: Box<dyn Entropy>,
) -> Result<Emulator, JsValue> {
    use crate::engine::Capacity;
    use crate::store::sql::{SqlExecutor, SqlTables};
    let exec: Rc<dyn SqlExecutor> = host.sql.clone();
    // The host drops a deleted queue's table with its record (`dropQueueTable`), in one
    // transaction, so a Delete Queue that fails between its steps changes nothing.
    let tables = SqlTables::new(exec, super::sql_host::MESSAGE_TABLES).dropped_by_host();
    let mut emulator = Emulator::from_snapshot_in(snapshot, entropy, tables)?;
    // The tables keep the messages; the store keeps queues and properties.
    emulator.record_message_changes(false);
    // What bounds a queue is the host's storage: a full store answers 503 ServerBusy
    // (`TableError::Full`), as the bound on stored bytes would.
    emulator.set_capacity(Capacity {
        stored_bytes: u64::MAX,
        ..Capacity::default()
    });
    Ok(emulator)
}

/// Without the `sql-host` feature no `SqlHost` is ever made (`open` refuses the option), and no
/// SQL table is linked into the wasm.
#[cfg(not(feature = "sql-host"))]
fn sql_emulator(_: &SqlHost, _: Snapshot, _: Box<dyn Entropy>) -> Result<Emulator, JsValue> {
    Err(invalid_input("this build has no SQL tables"))
}

/// An Azure Queue service running in this JS realm.
///
/// ```js
/// const service = await QueueService.open({ store: "memory" });
/// const orders = await service.createQueue("orders", { metadata: { team: "web" } });
/// await orders.sendMessage("hello");
/// const handler = service.fetchHandler();   // (Request) => Promise<Response>, for the SDKs
/// ```
#[wasm_bindgen]
#[derive(Debug)]
pub struct QueueService {
    instance: Rc<Instance>,
}

#[wasm_bindgen]
impl QueueService {
    /// Opens a service: loads what the store saved, then serves it. (A static `open`, because
    /// async constructors are deprecated in wasm-bindgen.)
    ///
    /// ```js
    /// const service = await QueueService.open({ accounts: "acct:a2V5MQ==", now: () => clock.now() });
    /// ```
    pub async fn open(options: Option<JsOpenOptions>) -> Result<QueueService, JsValue> {
        let options: JsValue = options.map(Into::into).unwrap_or(JsValue::UNDEFINED);
        if !(options.is_undefined() || options.is_null() || options.is_object()) {
            return Err(invalid_input("open() takes an options object"));
        }
        let store = super::store::open(&options).await.map_err(|e| e.to_js())?;
        let OpenOptions {
            sql,
            config,
            account,
            clock,
            entropy,
            cors,
            faults,
        } = OpenOptions::read(&options)?;
        let clock = Rc::new(ServiceClock::new(clock));
        store.set_clock(clock.clone());

        let snapshot = store
            .load()
            .await
            .map_err(|e| super::open_error::store_unreadable(&e))?;
        // A clock moved through `/_azqueue/clock` stays moved across a restart.
        if let Some(adjustment) = store.saved_clock().and_then(|c| c.adjustment()) {
            clock.set_adjustment(adjustment);
            store.keep_adjustment(adjustment);
        }
        let mut emulator = match &sql {
            None => Emulator::from_snapshot(snapshot, entropy),
            Some(host) => sql_emulator(host, snapshot, entropy)?,
        };
        // The memory store keeps nothing but the engine itself: no change is ever committed.
        emulator.record_changes(store.backend().is_some());
        let names: Vec<String> = config.accounts.iter().map(|a| a.name.clone()).collect();
        let instance = Rc::new(Instance::new(
            Service::new(config, emulator).with_faults(faults),
            clock,
            store,
            account,
            sql,
        ));
        if let Some(rules) = cors {
            instance
                .run_internal(|emu, _, _| {
                    for name in &names {
                        emu.set_service_properties(
                            name,
                            ServicePropertiesUpdate {
                                cors: Some(rules.clone()),
                                ..Default::default()
                            },
                        );
                    }
                    Ok(())
                })
                .await?;
        }
        Ok(QueueService { instance })
    }

    /// True once a SQL statement failed (`open({ sql })`): the request's writes were rolled
    /// back, and the service's kept counts may not match what is stored, so open it again.
    #[cfg(feature = "sql-host")]
    #[wasm_bindgen(getter, js_name = needsReopen)]
    pub fn needs_reopen(&self) -> bool {
        self.instance.needs_reopen()
    }

    /// Removes at most `limit` of the queue's expired messages (earliest expiry first) and
    /// returns how many: housekeeping in bounded steps, such as a Durable Object's alarm.
    ///
    /// # Errors
    /// `QueueNotFound` (404).
    #[cfg(feature = "sql-host")]
    #[wasm_bindgen(js_name = purgeExpired)]
    pub async fn purge_expired(&self, queue: String, limit: u32) -> Result<u32, JsValue> {
        let name = queue_name(&queue)?;
        self.instance
            .run_internal(|emu, now, account| {
                let purged = emu.purge_expired(now, account, &name, limit as usize)?;
                Ok(purged as u32)
            })
            .await
    }

    /// The account the JS methods act on.
    #[wasm_bindgen(getter)]
    pub fn account(&self) -> String {
        self.instance.account().to_owned()
    }

    /// Creates a queue (or finds it, if it exists with the same metadata) and returns it.
    ///
    /// ```js
    /// const q = await service.createQueue("orders", { metadata: { team: "web" } });
    /// ```
    ///
    /// # Errors
    /// `QueueAlreadyExists` (409) when it exists with different metadata; `InvalidResourceName`
    /// or `OutOfRangeInput` (400) for a bad name.
    #[wasm_bindgen(js_name = createQueue)]
    pub async fn create_queue(
        &self,
        name: String,
        options: Option<JsQueueCreateOptions>,
    ) -> Result<Queue, JsValue> {
        let queue = self.queue(&name)?;
        queue.create(options).await?;
        Ok(queue)
    }

    /// Deletes a queue and all its messages.
    ///
    /// # Errors
    /// `QueueNotFound` (404).
    #[wasm_bindgen(js_name = deleteQueue)]
    pub async fn delete_queue(&self, name: String) -> Result<(), JsValue> {
        self.queue(&name)?.delete().await
    }

    /// All queues of the account, in name order. Returns an array (not a Promise), which also
    /// works with `for await (const q of service.listQueues())` as written for the SDK.
    #[wasm_bindgen(js_name = listQueues, unchecked_return_type = "QueueItem[]")]
    pub fn list_queues(&self, options: Option<JsListQueuesOptions>) -> Result<JsValue, JsValue> {
        let opts: ListQueuesOptions = options::bag(
            &options.map(Into::into).unwrap_or(JsValue::UNDEFINED),
            "listQueues",
        )?;
        let prefix = opts.prefix.unwrap_or_default();
        self.instance.read_state(|s| {
            let page = s
                .emulator()
                .list_queues(self.instance.account(), &prefix, None, usize::MAX);
            results::queue_items(&page, opts.include_metadata)
        })
    }

    /// The account's service properties (logging, metrics, CORS).
    #[wasm_bindgen(js_name = getProperties, unchecked_return_type = "QueueServiceProperties")]
    pub async fn get_properties(&self) -> Result<JsValue, JsValue> {
        self.instance.read_state(|s| {
            results::service_properties(&s.emulator().service_properties(self.instance.account()))
        })
    }

    /// Replaces the parts of the service properties that are given; absent parts are kept.
    #[wasm_bindgen(js_name = setProperties)]
    pub async fn set_properties(
        &self,
        properties: JsQueueServiceProperties,
    ) -> Result<(), JsValue> {
        let input: ServicePropertiesInput = options::bag(&properties, "setProperties")?;
        let update = input.parse()?;
        self.instance
            .run(
                Ask::service(Operation::SetServiceProperties),
                |emu, _, account| {
                    emu.set_service_properties(account, update);
                    Ok(())
                },
            )
            .await
    }

    /// The fault rules and limits this service answers by (docs/faults.md): the same JSON as
    /// `/_azqueue/faults`, for the `Queue` methods, `httpClient()` and the fetch handler alike.
    /// The `faults` feature's (pkg/node, pkg/edge).
    #[cfg(feature = "faults")]
    #[wasm_bindgen(getter)]
    pub fn faults(&self) -> FaultRules {
        FaultRules::new(self.instance.clone())
    }

    /// A handle on one queue; nothing is created or checked until you call a method.
    ///
    /// # Errors
    /// `InvalidResourceName` or `OutOfRangeInput` (400) for a bad name.
    pub fn queue(&self, name: &str) -> Result<Queue, JsValue> {
        Ok(Queue::new(self.instance.clone(), queue_name(name)?))
    }

    /// The REST surface as a fetch handler, `(request: Request) => Promise<Response>`, for a
    /// service worker, an edge worker or a Node HTTP adapter. It answers Azure errors with
    /// Azure error responses and never rejects for them.
    ///
    /// ```js
    /// const handle = service.fetchHandler();
    /// self.addEventListener("fetch", (e) => e.respondWith(handle(e.request)));
    /// ```
    ///
    /// Hosts may pass more arguments (Workers `(request, env, ctx)`, Deno `(request, info)`);
    /// they are ignored.
    #[wasm_bindgen(
        js_name = fetchHandler,
        unchecked_return_type = "(request: Request, ...hostArguments: unknown[]) => Promise<Response>"
    )]
    pub fn fetch_handler(&self) -> JsValue {
        let instance = self.instance.clone();
        let handler = Closure::<dyn Fn(JsValue) -> js_sys::Promise>::new(move |request| {
            let instance = instance.clone();
            wasm_bindgen_futures::future_to_promise(async move {
                serve::fetch(&instance, request).await.map(JsValue::from)
            })
        });
        let handler = handler.into_js_value();
        serve::declare_one_parameter(&handler);
        handler
    }

    /// Serves one REST request (the same as calling `fetchHandler()`'s function).
    pub async fn fetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
    ) -> Result<web_sys::Response, JsValue> {
        serve::fetch(&self.instance, request).await
    }

    /// Calls `listener` with every change (sent, received, updated, deleted, expired, …) made
    /// through any face of this service, after it is durable. Returns an unsubscribe function.
    ///
    /// ```js
    /// const stop = service.subscribe((e) => console.log(e.type, e.queue, e.messageId));
    /// ```
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(&self, listener: JsEventListener) -> Result<JsValue, JsValue> {
        let listener: js_sys::Function = JsValue::from(listener)
            .dyn_into()
            .map_err(|_| invalid_input("subscribe() takes a function"))?;
        let id = self.instance.subscribe(listener)?;
        Ok(self.stopper(move |instance| instance.unsubscribe(id)))
    }

    /// A JS function that calls `stop` on the instance, if it is still there.
    fn stopper(&self, stop: impl Fn(&Instance) + 'static) -> JsValue {
        let instance = Rc::downgrade(&self.instance);
        Closure::<dyn Fn()>::new(move || {
            if let Some(instance) = instance.upgrade() {
                stop(&instance);
            }
        })
        .into_js_value()
    }

    /// Starts keeping a summary of changes, for a host that writes one line per changed queue
    /// (the Node server's `/_azqueue/events?per=queue`): `wake` is called when the summary
    /// stops being empty, and `takeChanges()` empties it. Nothing is built per change but a
    /// count. Returns a function that stops it.
    #[cfg(feature = "event-summary")]
    #[wasm_bindgen(js_name = watchChanges, unchecked_return_type = "() => void")]
    pub fn watch_changes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "() => void")] wake: JsValue,
    ) -> Result<JsValue, JsValue> {
        let wake: js_sys::Function = wake
            .dyn_into()
            .map_err(|_| invalid_input("watchChanges() takes a function"))?;
        let id = self.instance.watch(wake)?;
        Ok(self.stopper(move |instance| instance.unwatch(id)))
    }

    /// What changed since the last call, while `watchChanges` keeps a summary: every `clock`
    /// event, `{ type: "changed", account, queue, events }` per queue that changed (`events`:
    /// how many), then the newest ten `fault` events.
    #[cfg(feature = "event-summary")]
    #[wasm_bindgen(js_name = takeChanges, unchecked_return_type = "ChangedEvent[]")]
    pub fn take_changes(&self) -> js_sys::Array {
        self.instance.take_summary()
    }

    /// Starts (or with `false` stops) recording each Azure request into the summary that
    /// `watchChanges` keeps, as `{ type: "requests", requests, leftOut }`: the newest twenty
    /// since the last `takeChanges()` and how many older ones were left out (docs/inspector.md,
    /// "Request log"). Only while changes are watched; stopping that stops this too.
    #[cfg(feature = "event-summary")]
    #[wasm_bindgen(js_name = logRequests)]
    pub fn log_requests(&self, on: bool) {
        self.instance.log_requests(on);
    }

    /// Every account's queues and their messages in delivery order — invisible and
    /// expired-but-not-yet-purged messages included, each with its `state` at the service
    /// clock's now and its current pop receipt (the inspection model of
    /// `src/engine/inspection.rs`, as the REST development path shows it). With a queue name,
    /// only that queue (in each account that has it): a page that redraws after every tick
    /// need not copy every other queue.
    #[wasm_bindgen(unchecked_return_type = "Inspection")]
    pub fn inspect(&self, queue: Option<String>) -> Result<JsValue, JsValue> {
        let now = self.instance.now();
        let store = self.instance.store();
        let only = queue.map(|name| QueueName::parse(&name));
        self.instance.read_state(|s| {
            let queues = match &only {
                None => s.emulator().inspect(now, None),
                Some(Ok(name)) => s.emulator().inspect(now, Some(name)),
                // No queue has a name that does not parse.
                Some(Err(_)) => Vec::new(),
            };
            inspect::to_js(&queues, now, super::store::kind(store), store.committed())
        })
    }

    /// When the account's queues next change by themselves (a message reappears or expires),
    /// or `undefined`: lets a page schedule its next redraw instead of polling.
    #[wasm_bindgen(js_name = nextDeadline, unchecked_return_type = "Date | undefined")]
    pub fn next_deadline(&self) -> Result<JsValue, JsValue> {
        let now = self.instance.now();
        self.instance.read_state(|s| {
            s.emulator()
                .next_deadline(now, self.instance.account())
                .map(date)
                .unwrap_or(JsValue::UNDEFINED)
        })
    }

    /// A connection string for the SDKs, given the origin the REST surface is served on
    /// (e.g. `http://127.0.0.1:10001`); path-style, as Azurite's. An `https://` origin gives
    /// `DefaultEndpointsProtocol=https`.
    #[wasm_bindgen(js_name = connectionString)]
    pub fn connection_string(&self, origin: &str) -> Result<String, JsValue> {
        let account = self.instance.account().to_owned();
        self.instance.read(|s| {
            let key = s
                .config()
                .account(&account)
                .and_then(|a| a.keys.first().cloned())
                .unwrap_or_default();
            let origin = origin.trim_end_matches('/');
            let protocol = if origin.starts_with("https://") {
                "https"
            } else {
                "http"
            };
            format!(
                "DefaultEndpointsProtocol={protocol};AccountName={account};AccountKey={key};QueueEndpoint={origin}/{account};"
            )
        })
    }

    /// Waits until everything is durable, then closes the store (an IndexedDB database and its
    /// lock are released, so another tab or a new `open()` can take them). Later operations
    /// fail with InternalError. Await it before `free()`.
    pub async fn close(&self) -> Result<(), JsValue> {
        super::store::close(self.instance.store())
            .await
            .map_err(|e| super::store::store_error_to_js(&e))
    }

    /// The whole state (every account, queue and message, invisible ones included) as a
    /// versioned JSON document, once everything in it is durable.
    ///
    /// ```js
    /// const json = await service.exportSnapshot();
    /// await other.importSnapshot(json);
    /// ```
    #[wasm_bindgen(js_name = exportSnapshot)]
    pub async fn export_snapshot(&self) -> Result<String, JsValue> {
        self.instance.export_document().await
    }

    /// Replaces the whole state with a document from `exportSnapshot()` (a string or the
    /// parsed object). Atomic: a crash leaves the old state or the new one.
    ///
    /// # Errors
    /// `InvalidInput` (400) for a document this build cannot rebuild exactly.
    #[wasm_bindgen(js_name = importSnapshot)]
    pub async fn import_snapshot(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | object")] snapshot: JsValue,
    ) -> Result<(), JsValue> {
        let text = match snapshot.as_string() {
            Some(s) => s,
            None => js_sys::JSON::stringify(&snapshot)
                .ok()
                .and_then(|s| s.as_string())
                .ok_or_else(|| invalid_input("importSnapshot takes a string or an object"))?,
        };
        let parsed = document::from_document(&text).map_err(invalid_input)?;
        self.instance.replace_state(parsed).await
    }

    /// Deletes every queue, message and service property, durably.
    pub async fn reset(&self) -> Result<(), JsValue> {
        self.instance.replace_state(Snapshot::default()).await
    }

    /// Waits until every change made so far is durable (with `durability: "relaxed"`, the
    /// way to be sure; with "strict", every Promise already waited).
    pub async fn flush(&self) -> Result<(), JsValue> {
        self.instance
            .store()
            .flush()
            .await
            .map_err(|e| store_error_to_js(&e))
    }

    /// `"strict"` or `"relaxed"`, as opened.
    #[wasm_bindgen(getter)]
    pub fn durability(&self) -> String {
        self.instance.store().durability().as_str().to_owned()
    }

    /// The service clock's reading at the last commit before this `open()`, and how far it was
    /// from the wall clock then: `{ now: Date, offsetMs: number }`, or `undefined` for a new
    /// store. A page running a virtual clock resumes its timeline from `now`, so messages
    /// become visible and expire when they should.
    #[wasm_bindgen(getter = savedClock, unchecked_return_type = "{ now: Date; offsetMs: number } | undefined")]
    pub fn saved_clock(&self) -> JsValue {
        match self.instance.store().saved_clock() {
            None => JsValue::UNDEFINED,
            Some(c) => JsObject::new()
                .set("now", date(Timestamp::from_millis(c.now)))
                .set("offsetMs", c.now as f64 - c.wall as f64)
                .build(),
        }
    }

    /// Serves one REST request given as plain values — for an HTTP server that is not
    /// fetch-native, where building a `Request` and reading a `Response` per call would cost
    /// more than the operation. Never rejects or throws for an Azure error.
    ///
    /// `url` is absolute (`http://host/account/queue`) or origin-form (`/account/queue?…`, the
    /// host then comes from the `Host` header). `headers` holds names and values alternating,
    /// joined by `"\n"` (Node: `req.rawHeaders.join("\n")`), values as byte strings; a repeated
    /// name is joined with `", "`, as the Fetch `Headers` does.
    ///
    /// `clientAddress`, when the host knows it (an edge Worker's `CF-Connecting-IP`), is the
    /// client's IP address: a SAS limited to addresses (`sip`) is then checked against it, as
    /// on the Node server's queue port; without it `sip` is checked for form only.
    ///
    /// `listening` (`host:port`), from a host serving these requests on its own socket (the
    /// Node server's page port), is the address the development paths then answer to: any
    /// other `Host` is refused, as on the queue port (DNS rebinding). Only pkg/node (the
    /// `inspector` feature) takes it: pkg/web, built for pages and workers, which serve no
    /// socket of their own, leaves the check out for its size ceiling and ignores it.
    ///
    /// Returns the response itself when the change is already durable (the memory store), else
    /// a Promise of it that resolves after the commit: send nothing before you have the
    /// response. `await` handles both.
    ///
    /// ```js
    /// const r = await service.handleRaw(req.method, req.url, req.rawHeaders.join("\n"), body);
    /// res.writeHead(r.status, r.statusText, r.headers.split("\n")).end(r.body);
    /// r.free();
    /// ```
    #[wasm_bindgen(js_name = handleRaw, unchecked_return_type = "RawResponse | Promise<RawResponse>")]
    pub fn handle_raw(
        &self,
        method: &str,
        url: &str,
        headers: &str,
        body: Vec<u8>,
        #[wasm_bindgen(js_name = clientAddress)] client_address: Option<String>,
        listening: Option<String>,
    ) -> JsValue {
        // A constant `None` lets the compiler drop the Host check from pkg/web.
        #[cfg(not(feature = "inspector"))]
        let listening = {
            drop(listening);
            None
        };
        raw::handle(
            Rc::clone(&self.instance),
            (method, url, headers, body),
            client_address,
            listening,
        )
    }

    /// A new HTTP/1.1 connection to this service's REST API. `host` (`host:port`) is where
    /// requests without a `Host` header are addressed: the server's own address, the only one its
    /// development paths answer to (DNS rebinding, `rest::dev::guard`). `log` is 0
    /// (nothing recorded), 1 (method, URL, status, error code per request, from
    /// [`Connection::take_log`]) or 2 (also the request headers). `peer` is the client's
    /// address (Node's `socket.remoteAddress`): a SAS limited to addresses (`sip`) is checked
    /// against it, as Azure checks it. `secure` says the socket is TLS (`node:tls`): requests
    /// are then served as HTTPS ones (bearer tokens, `spr=https`).
    #[cfg(feature = "socket")]
    pub fn connection(
        &self,
        host: String,
        log: u8,
        peer: Option<String>,
        secure: Option<bool>,
    ) -> Connection {
        Connection::new(
            Rc::clone(&self.instance),
            host,
            log,
            peer,
            secure.unwrap_or(false),
        )
    }
}
