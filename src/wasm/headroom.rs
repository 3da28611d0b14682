//! Grows the wasm memory ahead of need, in steps proportional to its size.
//!
//! Called after every operation (`Instance::serve_rest`, `Instance::run`, `Instance::run_promise`) and after each socket read.
//!
//! Why: Rust's allocator on wasm32 (dlmalloc) asks for more memory a 64 KiB page at a time,
//! and each `memory.grow` costs time proportional to the whole memory in Node 20's V8 here
//! (measured: about 0.9 ms per one-page grow at 118 MB, 1.4 ms at 144 MB). A queue that keeps
//! filling then pays that every few hundred messages, which more than doubled the cost of a
//! Put Message while the memory grew. Growing by a sixteenth of the memory whenever the
//! allocator has had to grow makes the number of grows logarithmic in the final size, and their
//! total cost about 17 grows' worth of the final size (0.13 µs per KiB allocated at the rate
//! above), for at most a sixteenth more memory than needed.
//!
//! Not a quarter, as it was: memory never shrinks, and on the edge one Worker isolate's 128 MB
//! holds every queue object it runs. A cold load of 100k messages of 1 KiB needed 135 MiB and
//! a quarter more made it 169 MiB after the first operation (`scripts/bench/wasm-memory.mjs`).

use std::cell::Cell;

/// Smallest step: below this the grows are cheap anyway.
const MIN_STEP: usize = 1 << 20;
const PAGE: usize = 64 * 1024;

thread_local! {
    /// The memory size (pages) seen at the last check.
    static SEEN: Cell<usize> = const { Cell::new(0) };
}

/// Call after work that may have allocated: if the allocator grew the memory since the last
/// call, reserve a sixteenth more now (allocated and freed at once, so it stays with the
/// allocator as free space). A failed reservation is ignored: it was only an optimisation.
pub(crate) fn keep_ahead() {
    let pages = core::arch::wasm32::memory_size::<0>();
    if pages == SEEN.get() {
        return;
    }
    let step = (pages * PAGE / 16).max(MIN_STEP);
    let mut reserve: Vec<u8> = Vec::new();
    if reserve.try_reserve_exact(step).is_ok() {
        // Keep the optimiser from eliding an allocation that is freed unused.
        std::hint::black_box(&mut reserve);
    }
    drop(reserve);
    SEEN.set(core::arch::wasm32::memory_size::<0>());
}
