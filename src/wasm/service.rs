//! The `QueueService` class: one in-process Azure Queue service (all accounts, all queues), the
//! JS counterpart of `QueueServiceClient`, plus the fetch handler that serves the same queues to
//! the official SDKs over the REST protocol.

use super::clock::{AnyClock, FnClock, JsClock};
use super::error::invalid_input;
use super::host::Host;
use super::inspect;
use super::js_object::date;
use super::options::{self, ListQueuesOptions, ServicePropertiesInput};
use super::queue::{Queue, queue_name};
use super::results;
use super::types::{
    JsEventListener, JsListQueuesOptions, JsOpenOptions, JsQueueCreateOptions,
    JsQueueServiceProperties,
};
use crate::engine::{Emulator, Entropy, OsEntropy, SeededEntropy, ServicePropertiesUpdate};
use crate::rest::{AccountConfig, OAuth, Service, ServiceConfig};
use base64::Engine as _;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

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
    pub(super) host: Rc<Host>,
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
        let get = |key: &str| -> JsValue {
            if options.is_object() {
                js_sys::Reflect::get(&options, &key.into()).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };

        let store = super::store::open(&options).await.map_err(|e| e.to_js())?;

        let mut config = accounts(&get("accounts"))?;
        if let Some(anonymous) = get("anonymous").as_bool() {
            config.anonymous = anonymous;
        }
        if let Some(bom) = get("emitBom").as_bool() {
            config.emit_bom = bom;
        }
        config.oauth = match get("oauth") {
            v if v.is_undefined() || v.is_null() => OAuth::Off,
            v if v.as_string().as_deref() == Some("basic") => OAuth::Basic,
            _ => return Err(invalid_input("oauth must be \"basic\" when given")),
        };
        let account = match get("account").as_string() {
            None => config.accounts[0].name.clone(),
            Some(name) if config.account(&name).is_some() => name,
            Some(name) => {
                return Err(invalid_input(format!(
                    "account `{name}` is not among the configured accounts"
                )));
            }
        };

        let clock = match get("now") {
            v if v.is_undefined() || v.is_null() => AnyClock::Js(JsClock),
            v => match v.dyn_into::<js_sys::Function>() {
                Ok(f) => AnyClock::Fn(FnClock::new(f)),
                Err(_) => {
                    return Err(invalid_input(
                        "`now` must be a function returning milliseconds or a Date",
                    ));
                }
            },
        };
        let entropy: Box<dyn Entropy> = match get("seed").as_f64() {
            Some(seed) => Box::new(SeededEntropy::new(seed as u64)),
            None => Box::new(OsEntropy),
        };
        let cors = options::cors_option(&get("cors"))?;
        store.set_clock(Rc::new(clock.clone()));

        let snapshot = store
            .load()
            .await
            .map_err(|e| super::store::store_unreadable(&e))?;
        let mut emulator = Emulator::from_snapshot(snapshot, entropy);
        // The memory store keeps nothing but the engine itself: no change is ever committed.
        emulator.record_changes(store.backend().is_some());
        let names: Vec<String> = config.accounts.iter().map(|a| a.name.clone()).collect();
        let host = Rc::new(Host::new(
            Service::new(config, emulator),
            clock,
            store,
            account,
        ));
        if let Some(rules) = cors {
            host.run(|emu, _, _| {
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
        Ok(QueueService { host })
    }

    /// The state shared with this service's queues and handlers (for `raw.rs`).
    pub(super) fn host(&self) -> &Rc<Host> {
        &self.host
    }

    /// The account the JS methods act on.
    #[wasm_bindgen(getter)]
    pub fn account(&self) -> String {
        self.host.account().to_owned()
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
        self.host.read_state(|s| {
            let page = s
                .emulator()
                .list_queues(self.host.account(), &prefix, None, usize::MAX);
            results::queue_items(&page, opts.include_metadata)
        })
    }

    /// The account's service properties (logging, metrics, CORS).
    #[wasm_bindgen(js_name = getProperties, unchecked_return_type = "QueueServiceProperties")]
    pub async fn get_properties(&self) -> Result<JsValue, JsValue> {
        self.host.read_state(|s| {
            results::service_properties(&s.emulator().service_properties(self.host.account()))
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
        self.host
            .run(|emu, _, account| {
                emu.set_service_properties(account, update);
                Ok(())
            })
            .await
    }

    /// A handle on one queue; nothing is created or checked until you call a method.
    ///
    /// # Errors
    /// `InvalidResourceName` or `OutOfRangeInput` (400) for a bad name.
    pub fn queue(&self, name: &str) -> Result<Queue, JsValue> {
        Ok(Queue::new(self.host.clone(), queue_name(name)?))
    }

    /// The REST surface as a fetch handler, `(request: Request) => Promise<Response>`, for a
    /// service worker, an edge worker or a Node HTTP adapter. It answers Azure errors with
    /// Azure error responses and never rejects for them.
    ///
    /// ```js
    /// const handle = service.fetchHandler();
    /// self.addEventListener("fetch", (e) => e.respondWith(handle(e.request)));
    /// ```
    #[wasm_bindgen(js_name = fetchHandler, unchecked_return_type = "(request: Request) => Promise<Response>")]
    pub fn fetch_handler(&self) -> JsValue {
        let host = self.host.clone();
        let handler = Closure::<dyn Fn(web_sys::Request) -> js_sys::Promise>::new(move |request| {
            let host = host.clone();
            wasm_bindgen_futures::future_to_promise(async move {
                host.fetch(request).await.map(JsValue::from)
            })
        });
        handler.into_js_value()
    }

    /// Serves one REST request (the same as calling `fetchHandler()`'s function).
    pub async fn fetch(&self, request: web_sys::Request) -> Result<web_sys::Response, JsValue> {
        self.host.fetch(request).await
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
        let id = self.host.subscribe(listener)?;
        let host = Rc::downgrade(&self.host);
        let stop = Closure::<dyn Fn()>::new(move || {
            if let Some(host) = host.upgrade() {
                host.unsubscribe(id);
            }
        });
        Ok(stop.into_js_value())
    }

    /// Every account, queue and message as stored — invisible and expired-but-not-yet-purged
    /// messages included, with `visible`/`expired` flags evaluated at the service clock's now.
    /// With a queue name, only that queue (in each account that has it): a page that redraws
    /// after every tick need not copy every other queue.
    #[wasm_bindgen(unchecked_return_type = "Inspection")]
    pub fn inspect(&self, queue: Option<String>) -> Result<JsValue, JsValue> {
        let now = self.host.now();
        let store = self.host.store();
        self.host.read_state(|s| {
            let snapshot = match &queue {
                None => s.emulator().snapshot(),
                Some(name) => one_queue(s, name),
            };
            inspect::to_js(&snapshot, now, super::store::kind(store), store.committed())
        })
    }

    /// When the account's queues next change by themselves (a message reappears or expires),
    /// or `undefined`: lets a page schedule its next redraw instead of polling.
    #[wasm_bindgen(js_name = nextDeadline, unchecked_return_type = "Date | undefined")]
    pub fn next_deadline(&self) -> Result<JsValue, JsValue> {
        let now = self.host.now();
        self.host.read_state(|s| {
            s.emulator()
                .next_deadline(now, self.host.account())
                .map(date)
                .unwrap_or(JsValue::UNDEFINED)
        })
    }

    /// A connection string for the SDKs, given the origin the REST surface is served on
    /// (e.g. `http://127.0.0.1:10001`); path-style, as Azurite's. An `https://` origin gives
    /// `DefaultEndpointsProtocol=https`.
    #[wasm_bindgen(js_name = connectionString)]
    pub fn connection_string(&self, origin: &str) -> Result<String, JsValue> {
        let account = self.host.account().to_owned();
        self.host.read(|s| {
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
        super::store::close(self.host.store())
            .await
            .map_err(|e| super::store::store_error_to_js(&e))
    }
}

/// The `accounts` option: absent → the development account; a string → Azurite's
/// `AZURITE_ACCOUNTS` form; an array → `[{ name, key }]` or `[{ name, keys: [...] }]`.
fn accounts(value: &JsValue) -> Result<ServiceConfig, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(ServiceConfig::dev());
    }
    if let Some(spec) = value.as_string() {
        return ServiceConfig::from_azurite_accounts(&spec)
            .map_err(|e| invalid_input(format!("accounts: {e}")));
    }
    let list = value.dyn_ref::<js_sys::Array>().ok_or_else(|| {
        invalid_input("accounts must be an array of { name, key } or an AZURITE_ACCOUNTS string")
    })?;
    let mut accounts = Vec::new();
    for item in list.iter() {
        let field = |k: &str| js_sys::Reflect::get(&item, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let name = field("name")
            .as_string()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| invalid_input("each account needs a non-empty `name`"))?;
        let mut keys: Vec<String> = field("key").as_string().into_iter().collect();
        if let Some(more) = field("keys").dyn_ref::<js_sys::Array>() {
            keys.extend(more.iter().filter_map(|k| k.as_string()));
        }
        if keys.is_empty() {
            return Err(invalid_input(format!("account `{name}` needs a `key`")));
        }
        if keys
            .iter()
            .any(|k| base64::engine::general_purpose::STANDARD.decode(k).is_err())
        {
            return Err(invalid_input(format!(
                "a key of account `{name}` is not valid base64"
            )));
        }
        accounts.push(AccountConfig { name, keys });
    }
    if accounts.is_empty() {
        return Err(invalid_input("accounts must not be empty"));
    }
    Ok(ServiceConfig {
        accounts,
        ..ServiceConfig::dev()
    })
}

/// A snapshot holding only the queue `name` of each configured account that has it.
fn one_queue(service: &crate::rest::Service, name: &str) -> crate::engine::Snapshot {
    use crate::engine::{AccountSnapshot, QueueName, QueueSnapshot, Snapshot};
    let Ok(name) = QueueName::parse(name) else {
        return Snapshot::default();
    };
    let emu = service.emulator();
    let accounts = service
        .config()
        .accounts
        .iter()
        .filter_map(|a| {
            let q = emu.queue(&a.name, &name).ok()?;
            Some(AccountSnapshot {
                name: a.name.clone(),
                properties: None,
                queues: vec![QueueSnapshot {
                    queue: q.record().clone(),
                    messages: q.messages_in_order().cloned().collect(),
                }],
            })
        })
        .collect();
    Snapshot { accounts }
}
