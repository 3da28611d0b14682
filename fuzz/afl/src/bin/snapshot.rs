//! The snapshot importer on raw documents: a document it accepts rebuilds an engine whose own
//! snapshot reads back the same.

use azqueue::engine::{Emulator, SeededEntropy, Snapshot};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(snapshot) = serde_json::from_slice::<Snapshot>(data) else {
            return;
        };
        let emu = Emulator::from_snapshot(snapshot, Box::new(SeededEntropy::new(1)));
        let again = emu.snapshot().expect("a memory engine's snapshot");
        let text = serde_json::to_vec(&again).expect("a snapshot encodes");
        let reread: Snapshot = serde_json::from_slice(&text).expect("a re-export reads");
        assert!(
            reread == again,
            "an imported snapshot does not read back the same"
        );
    });
}
