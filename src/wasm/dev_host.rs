//! The development paths this side answers (`rest::dev::host`): the ones that need the store
//! (export, import and reset the whole state; its counters) or the queues' clock. The router
//! routed and admitted them; this does the work and says how it went.

use super::instance::Instance;
use super::store;
use super::thrown;
use crate::engine::Snapshot;
use crate::rest::dev::{HostDone, HostWork, StoreInfo};
use crate::store::document::from_document;
use wasm_bindgen::JsValue;

/// Does `work` (`body`: the request's). Never fails: a failure is a [`HostDone::Failed`].
pub(crate) async fn answer(instance: &Instance, work: HostWork, body: &[u8]) -> HostDone {
    let done = match work {
        HostWork::ExportSnapshot => instance.export_document().await.map(HostDone::Json),
        HostWork::ImportSnapshot => {
            let parsed = std::str::from_utf8(body)
                .map_err(|_| "the body is not UTF-8".to_owned())
                .and_then(from_document);
            match parsed {
                Ok(snapshot) => instance
                    .replace_state(snapshot)
                    .await
                    .map(|()| HostDone::Done),
                Err(why) => Ok(HostDone::BadInput(why)),
            }
        }
        HostWork::Reset => instance
            .replace_state(Snapshot::default())
            .await
            .map(|()| HostDone::Done),
        HostWork::StoreInfo => {
            let s = instance.store();
            let info = StoreInfo {
                committed_changes: s.committed(),
                durability: s.durability().as_str(),
                failed: s.failure().map(|e| e.to_string()),
                kind: store::kind(s),
                transactions: s.transactions(),
            };
            Ok(HostDone::Json(info.to_json()))
        }
        #[cfg(feature = "server-clock")]
        HostWork::Clock => Ok(HostDone::Json(instance.clock().reading().to_json())),
        #[cfg(feature = "server-clock")]
        HostWork::SetClock(changes) => instance.set_clock(&changes).await.map(HostDone::Json),
    };
    done.unwrap_or_else(|e: JsValue| HostDone::Failed(thrown::message_of(&e)))
}
