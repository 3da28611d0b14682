//! TypeScript declarations for the option bags and results, so the generated `.d.ts` is
//! precise (loro's pattern): interfaces in a custom section, and extern types that name them
//! for parameters. Results are typed with `unchecked_return_type` on each method.
//!
//! Names and shapes follow `@azure/storage-queue` (12.x), so habits and types carry over.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** An account and its key(s); keys are base64, as in Azure. */
export interface AccountSpec { name: string; key?: string; keys?: string[] }

export interface OpenOptions {
  /** Where messages are kept: "memory" (default), "indexeddb" (browsers and workers), or a
   *  StorageAdapter the host supplies (the Node journal, a Durable Object's storage). */
  store?: "memory" | "indexeddb" | StorageAdapter;
  /** Database name for the "indexeddb" store. Default "azqueue". */
  name?: string;
  /** "strict" (default): every Promise and response resolves only after its changes are
   *  durable; concurrent operations share one store transaction. "relaxed": resolves at once
   *  and commits in the background — faster, but a crash can lose the last moments; `flush()`
   *  waits for everything. */
  durability?: "strict" | "relaxed";
  /** IndexedDB allows one writer per database (a Web Lock): a second tab's open() rejects with
   *  code StoreLocked, or with waitForLock: true waits until the first closes. */
  waitForLock?: boolean;
  /** Accounts for the REST surface: a list, or Azurite's `AZURITE_ACCOUNTS` form
   *  "name:key1[:key2];name2:key". Default: devstoreaccount1 with its well-known key. */
  accounts?: AccountSpec[] | string;
  /** The account the JS methods act on. Default: the first account. */
  account?: string;
  /** A clock: milliseconds since the epoch (or a Date). Default: Date.now. */
  now?: () => number | Date;
  /** Serve REST requests without credentials (for an in-tab queue only). Default false. */
  anonymous?: boolean;
  /** "basic": accept Entra ID bearer tokens over HTTPS, checking audience, issuer and
   *  lifetime but not the signature (Azurite's --oauth basic). Default: bearer refused. */
  oauth?: "basic";
  /** true: allow any origin, method and header; or explicit CORS rules for every account. */
  cors?: boolean | CorsRule[];
  /** Web origins (e.g. "http://127.0.0.1:8080") whose pages may read and steer the development
   *  paths under /_azqueue/ (CORS for exactly these): an inspector served by another azqueue.
   *  Default: none. The Node build's (pkg/node): pkg/web and pkg/edge opt in to no origin. */
  devOrigins?: string[];
  /** Start XML bodies with a UTF-8 byte-order mark, as Azure does. Default true. */
  emitBom?: boolean;
  /** Seed for message ids and pop receipts (reproducible runs). Default: crypto randomness. */
  seed?: number;
  /** Fault rules and limits to start with (docs/faults.md): the body `POST /_azqueue/faults`
   *  takes, as an object or JSON text. Its limits are the ones `faults.clear()` puts back.
   *  The Node and edge builds' (pkg/node, pkg/edge): pkg/web refuses it. */
  faults?: FaultRuleSet | string;
  /** Keep each queue's messages as rows of the host's SQL (a Durable Object's SQLite) rather
   *  than in memory; `store` then keeps queues and properties only. */
  sql?: SqlHost;
}

export interface QueueCreateOptions { metadata?: Record<string, string> }
export interface QueueCreateResult { /** false when the queue already existed with the same metadata */ succeeded: boolean }
export interface SendMessageOptions { visibilityTimeout?: number; messageTimeToLive?: number }
export interface SentMessage { messageId: string; popReceipt: string; insertedOn: Date; expiresOn: Date; nextVisibleOn: Date }
export interface ReceiveMessagesOptions { numberOfMessages?: number; visibilityTimeout?: number }
export interface ReceivedMessageItem { messageId: string; insertedOn: Date; expiresOn: Date; popReceipt: string; nextVisibleOn: Date; dequeueCount: number; messageText: string }
export interface ReceivedMessages { receivedMessageItems: ReceivedMessageItem[] }
export interface PeekMessagesOptions { numberOfMessages?: number }
export interface PeekedMessageItem { messageId: string; insertedOn: Date; expiresOn: Date; dequeueCount: number; messageText: string }
export interface PeekedMessages { peekedMessageItems: PeekedMessageItem[] }
export interface UpdatedMessage { popReceipt: string; nextVisibleOn: Date }
export interface QueueProperties { metadata: Record<string, string>; approximateMessagesCount: number }
export interface AccessPolicy { startsOn?: Date; expiresOn?: Date; permissions?: string }
export interface SignedIdentifier { id: string; accessPolicy: AccessPolicy }
export interface QueueAccessPolicy { signedIdentifiers: SignedIdentifier[] }
export interface ListQueuesOptions { prefix?: string; includeMetadata?: boolean }
export interface QueueItem { name: string; metadata?: Record<string, string> }
export interface RetentionPolicy { enabled: boolean; days?: number }
export interface Logging { version: string; deleteProperty: boolean; read: boolean; write: boolean; retentionPolicy: RetentionPolicy }
export interface Metrics { version?: string; enabled: boolean; includeAPIs?: boolean; retentionPolicy?: RetentionPolicy }
export interface CorsRule { allowedOrigins: string; allowedMethods: string; allowedHeaders: string; exposedHeaders: string; maxAgeInSeconds: number }
export interface QueueServiceProperties { queueAnalyticsLogging?: Logging; hourMetrics?: Metrics; minuteMetrics?: Metrics; cors?: CorsRule[] }

/** What subscribers hear, after the change is durable. */
export type QueueEvent =
  | { type: "queueCreated" | "queueDeleted"; at: Date; account: string; queue: string }
  | { type: "sent" | "updated"; at: Date; account: string; queue: string; messageId: string; visibleAt: Date }
  | { type: "received"; at: Date; account: string; queue: string; messageId: string; dequeueCount: number; visibleAt: Date }
  | { type: "deleted" | "expired"; at: Date; account: string; queue: string; messageId: string }
  | { type: "cleared"; at: Date; account: string; queue: string; count: number }
  | { type: "clock"; at: Date; offsetMs: number; paused: boolean }
  | FaultEvent;

/** What `takeChanges()` answers: one line per changed queue (`events`: how many changes), every
 *  `clock` event and the newest faults. */
export type ChangedEvent =
  | { type: "changed"; account: string; queue: string; events: number }
  | Extract<QueueEvent, { type: "clock" }>
  | FaultEvent
  | { type: "requests"; requests: LoggedRequest[]; leftOut: number };

/** One Azure request as the request log recorded it (`logRequests`); `at` is the wall clock. */
export interface LoggedRequest {
  at: Date; operation?: string; method: string; path: string; status: number; code?: string;
  durationMs: number;
}

/** A fault a rule or a limit injected (docs/faults.md); `at` is the queues' clock. `status`,
 *  `code` and `message` are the error answered, absent when the operation's own answer was
 *  delayed or cut off. */
export interface FaultEvent {
  type: "fault"; at: Date; account: string; queue?: string; operation: FaultOperation;
  rule?: string; limit?: "queueMessagesPerSecond" | "accountRequestsPerSecond";
  status?: number; code?: string; message?: string;
  when: "before" | "after"; delayMs: number; drop?: "reset" | "partial";
}

/** A fault rule (docs/faults.md): which requests it takes, when it fires, what it does. */
export interface FaultRule {
  id?: string; account?: string; queue?: string; operation?: FaultOperation;
  /** Chance each match past `skip` fires, 0 to 1 (kept to a millionth). Default 1. */
  probability?: number;
  /** Matches let through before it fires. Default 0. */
  skip?: number;
  /** Fires this many times, then retires. Default: never retires. */
  times?: number;
  /** The error answered: Azure's error XML with this status, code and message. */
  status?: number; code?: string; message?: string;
  /** "before": nothing changes; "after": the operation is applied and committed first. */
  when?: "before" | "after";
  /** The answer, error or not, comes this many (real) milliseconds later. */
  delayMs?: number;
  /** The Node server only: reset the connection, or send half the answer and close. */
  drop?: "reset" | "partial";
}
/** Azure's scalability targets, enforced on the queues' clock; null lifts one. */
export interface FaultLimits { queueMessagesPerSecond?: number | null; accountRequestsPerSecond?: number | null }
/** What `POST /_azqueue/faults` and `service.faults.add()` take. */
export interface FaultRuleSet { rules?: FaultRule[]; seed?: number; limits?: FaultLimits }
/** A kept rule, every value in effect, with its counts. */
export interface FaultRuleState extends FaultRule {
  id: string; probability: number; skip: number; delayMs: number;
  matched: number; injected: number; retired: boolean;
}
/** What `GET /_azqueue/faults` and `service.faults.get()` answer. */
export interface FaultState {
  rules: FaultRuleState[];
  limits: { queueMessagesPerSecond: number | null; accountRequestsPerSecond: number | null };
  throttled: { queueMessagesPerSecond: number; accountRequestsPerSecond: number };
  seed: number;
}

/** A message as inspected (the same fields as `GET /_azqueue/inspect/<account>/<queue>`, with Dates). */
export interface InspectedMessage {
  messageId: string; messageText: string; state: "visible" | "invisible" | "expired";
  insertedOn: Date; expiresOn: Date | null; nextVisibleOn: Date; dequeueCount: number; popReceipt: string;
  /** A message the inspector moved to `<queue>-poison`: where it came from, and its DequeueCount there. */
  origin?: { queue: string; messageId: string; dequeueCount: number };
}
export interface Inspection {
  now: Date; store: string; committedChanges: number;
  accounts: { name: string; queues: { name: string; metadata: Record<string, string>; nextDeadline: Date | null; messages: InspectedMessage[] }[] }[];
}

/** Errors thrown by QueueService and Queue carry the Azure error code and HTTP status. */
export interface QueueError extends Error { name: "QueueError"; code: ErrorCode; statusCode: number; details?: Record<string, string> }
"#;

/// `ErrorCode`: the union of the codes in the REST layer's one table, written from it.
#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODES: &str = crate::rest::error::ERROR_CODE_TS;

/// `FaultOperation`: the operations a fault rule names, written from their one table.
#[wasm_bindgen(typescript_custom_section)]
const FAULT_OPERATIONS: &str = crate::rest::faults::operation::OPERATION_TS;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "OpenOptions")]
    pub type JsOpenOptions;
    #[wasm_bindgen(typescript_type = "QueueCreateOptions")]
    pub type JsQueueCreateOptions;
    #[wasm_bindgen(typescript_type = "SendMessageOptions")]
    pub type JsSendMessageOptions;
    #[wasm_bindgen(typescript_type = "ReceiveMessagesOptions")]
    pub type JsReceiveMessagesOptions;
    #[wasm_bindgen(typescript_type = "PeekMessagesOptions")]
    pub type JsPeekMessagesOptions;
    #[wasm_bindgen(typescript_type = "Record<string, string>")]
    pub type JsMetadata;
    #[wasm_bindgen(typescript_type = "SignedIdentifier[]")]
    pub type JsSignedIdentifiers;
    #[wasm_bindgen(typescript_type = "ListQueuesOptions")]
    pub type JsListQueuesOptions;
    #[wasm_bindgen(typescript_type = "QueueServiceProperties")]
    pub type JsQueueServiceProperties;
    #[wasm_bindgen(typescript_type = "(event: QueueEvent) => void")]
    pub type JsEventListener;
    #[wasm_bindgen(typescript_type = "FaultRuleSet | string")]
    pub type JsFaultRuleSet;
}
