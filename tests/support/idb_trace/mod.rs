//! IndexedDB as JavaScript saw it, for `tests/wasm_idb.rs` (`trace.js`): when a browser test
//! fails with a value that looks corrupt, the trace tells whether IndexedDB answered other
//! records than were written (the browser's database) or answered the right ones and wasm
//! went wrong with them (the wasm heap).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/tests/support/idb_trace/trace.js")]
extern "C" {
    /// Starts tracing the database `name` (empty so far).
    #[wasm_bindgen(js_name = traceDatabase)]
    pub fn trace_database(name: &str);
    /// Logs a line among the trace's events.
    #[wasm_bindgen(js_name = traceNote)]
    pub fn trace_note(line: &str);
    /// The hash the events show for `value` (its UTF-16 length and FNV-1a).
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(value: &str) -> String;
    /// `[wrong answers, reads]` so far.
    #[wasm_bindgen(js_name = traceWrong)]
    fn trace_wrong_js(name: &str) -> Vec<u32>;
    /// Prints every record the database should hold: whole when `full`, else their hashes.
    #[wasm_bindgen(js_name = traceDump)]
    pub fn trace_dump(name: &str, full: bool);
    #[wasm_bindgen(js_name = traceEnd)]
    pub fn trace_end(name: &str);
}

/// How many IndexedDB answers differed from what was written, of how many reads.
pub fn trace_wrong(name: &str) -> (u32, u32) {
    match trace_wrong_js(name)[..] {
        [wrong, reads] => (wrong, reads),
        _ => (0, 0),
    }
}
