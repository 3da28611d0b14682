//! Azure Queue Storage's numbers, in one place.
//!
//! See <https://learn.microsoft.com/rest/api/storageservices/queue-service-rest-api> and the
//! per-operation pages linked on each constant.

/// Largest message text in UTF-8 bytes, counted after XML decoding.
/// <https://learn.microsoft.com/rest/api/storageservices/put-message>
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Most messages one Get or Peek returns.
/// <https://learn.microsoft.com/rest/api/storageservices/get-messages>
pub const MAX_MESSAGES_PER_GET: u32 = 32;

/// Longest visibility timeout and the default TTL: seven days.
pub const MAX_VISIBILITY_SECS: u32 = 7 * 24 * 3600;

/// TTL when `messagettl` is absent: seven days.
pub const DEFAULT_TTL_SECS: u32 = 7 * 24 * 3600;

/// Visibility timeout when Get Messages omits `visibilitytimeout`.
pub const DEFAULT_GET_VISIBILITY_SECS: u32 = 30;

/// Largest `maxresults` List Queues honours; larger values are reduced to it.
/// <https://learn.microsoft.com/rest/api/storageservices/list-queues1>
pub const MAX_LIST_RESULTS: u32 = 5000;

/// Stored access policies per queue.
/// <https://learn.microsoft.com/rest/api/storageservices/set-queue-acl>
pub const MAX_SIGNED_IDENTIFIERS: usize = 5;

/// Longest signed identifier `Id`.
pub const MAX_SIGNED_IDENTIFIER_ID: usize = 64;

/// CORS rules per service.
/// <https://learn.microsoft.com/rest/api/storageservices/cross-origin-resource-sharing--cors--support-for-the-azure-storage-services>
pub const MAX_CORS_RULES: usize = 5;

/// All of an account's CORS rule text together, tags excluded.
pub const MAX_CORS_TEXT: usize = 2048;

/// Longest CORS origin or header entry.
pub const MAX_CORS_ENTRY: usize = 256;

/// Per allowed/exposed header list: literal names, and `prefix*` entries.
pub const MAX_LITERAL_CORS_HEADERS: usize = 64;
pub const MAX_PREFIXED_CORS_HEADERS: usize = 2;

/// The methods a CORS rule may allow (PATCH was added to the docs later; accepting it is
/// harmless). Compared ignoring case, as HTTP methods are.
pub const CORS_METHODS: [&str; 8] = [
    "DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH",
];

/// Days a logging or metrics retention policy keeps data, when enabled.
/// <https://learn.microsoft.com/rest/api/storageservices/set-queue-service-properties>
pub const RETENTION_DAYS: std::ops::RangeInclusive<i64> = 1..=365;

/// Total size of a queue's metadata (names plus values).
/// <https://learn.microsoft.com/rest/api/storageservices/set-queue-metadata>
pub const MAX_METADATA_BYTES: usize = 8 * 1024;

/// Queue name length bounds.
/// <https://learn.microsoft.com/rest/api/storageservices/naming-queues-and-metadata>
pub const MIN_QUEUE_NAME: usize = 3;
pub const MAX_QUEUE_NAME: usize = 63;

/// Azure's scalability targets, which the service enforces only when asked
/// (`src/rest/faults/throttle.rs`, `--throttle`): messages per second one queue serves and
/// requests per second one account serves.
/// <https://learn.microsoft.com/azure/storage/queues/scalability-targets>
pub const QUEUE_MESSAGES_PER_SECOND: u32 = 2_000;
pub const ACCOUNT_REQUESTS_PER_SECOND: u32 = 20_000;
