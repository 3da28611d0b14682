//! Writes a bundle of the modules of consecutive seeds (`src/lib.rs` says what they are):
//!   tierup-differential [--no-floats | --rust-like] <first seed> <modules> <bundle file>
use tierup_differential::{Kind, bundle, module};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (kind, args) = match args.get(1).and_then(|flag| Kind::from_flag(flag)) {
        Some(kind) => (kind, &args[1..]),
        None => (Kind::Floats, &args[..]),
    };
    let [_, first, count, out] = args else {
        eprintln!(
            "usage: tierup-differential [--no-floats | --rust-like] <first seed> <modules> <bundle file>"
        );
        std::process::exit(2);
    };
    let first: u64 = first.parse().expect("first seed");
    let count: u64 = count.parse().expect("module count");
    let mut out_bytes = Vec::new();
    for seed in first..first + count {
        bundle(&mut out_bytes, &module(seed, kind));
    }
    std::fs::write(out, out_bytes).expect("write bundle");
}
