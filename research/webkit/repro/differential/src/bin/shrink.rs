//! Shrinks a module that V8 and JavaScriptCore disagree on (wasm-shrink), keeping only changes
//! after which they still disagree, and writes the smallest it found (and, beside it with `.bin`
//! added, a bundle of it for `differential.js`, whose `detail` shows each engine's record):
//!   shrink [--no-floats | --rust-like] <seed or .wasm file> <out.wasm> [NAME=VALUE ...]
//! The NAME=VALUE pairs are JavaScriptCore's settings (`JSC_useOMGJIT=0`, …). Both engines run
//! the module as `run.sh` does (`differential.js`, 20 rounds); a candidate counts only if both
//! finish it, neither overflows its stack, and their records differ.
use std::path::Path;
use std::process::Command;
use tierup_differential::{Kind, bundle, module};

const ROUNDS: &str = "20";

/// The module's line of `differential.js`'s output (`m0 <hash> <calls> <traps> <overflows>`),
/// when the run finished.
fn line(output: std::io::Result<std::process::Output>) -> Option<Vec<String>> {
    let text = String::from_utf8(output.ok()?.stdout).ok()?;
    let mut lines = text.lines();
    (lines.next()? == "ok").then_some(())?;
    let fields: Vec<String> = lines.next()?.split(' ').map(String::from).collect();
    (fields.len() == 5).then_some(fields)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kind, args) = match args.first().and_then(|flag| Kind::from_flag(flag)) {
        Some(kind) => (kind, &args[1..]),
        None => (Kind::Floats, &args[..]),
    };
    let [seed, out, settings @ ..] = args else {
        anyhow::bail!(
            "usage: shrink [--no-floats | --rust-like] <seed or .wasm> <out.wasm> [NAME=VALUE ...]"
        );
    };
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidate = std::env::temp_dir().join(format!("shrink-{}.bin", std::process::id()));
    let disagree = |wasm: &[u8]| -> anyhow::Result<bool> {
        let mut one = Vec::new();
        bundle(&mut one, wasm);
        std::fs::write(&candidate, one)?;
        let v8 = line(
            Command::new("node")
                .arg(here.join("../node-run.mjs"))
                .args([
                    candidate.as_os_str(),
                    ROUNDS.as_ref(),
                    "differential/differential.js".as_ref(),
                ])
                .output(),
        );
        let mut jsc = Command::new(here.join("../jsc-run"));
        jsc.args([
            candidate.as_os_str(),
            here.join("differential.js").as_os_str(),
            ROUNDS.as_ref(),
        ]);
        // The settings named are all of JavaScriptCore's options that differ from its defaults.
        for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("JSC_")) {
            jsc.env_remove(name);
        }
        for pair in settings {
            if let Some((name, value)) = pair.split_once('=') {
                jsc.env(name, value);
            }
        }
        let jsc = line(jsc.output());
        Ok(match (v8, jsc) {
            (Some(a), Some(b)) => {
                a[4] == "0" && b[4] == "0" && a[1] != "compile-error" && a[1] != b[1]
            }
            _ => false,
        })
    };
    let attempts = std::env::var("SHRINK_ATTEMPTS").map_or(Ok(2_000), |a| a.parse())?;
    let start = match seed.parse() {
        Ok(seed) => module(seed, kind),
        Err(_) => std::fs::read(seed)?,
    };
    anyhow::ensure!(disagree(&start)?, "the engines agree on {seed}");
    let info = wasm_shrink::WasmShrink::default()
        .attempts(attempts)
        .run(start, disagree)?;
    let _ = std::fs::remove_file(&candidate);
    std::fs::write(out, &info.output)?;
    let mut one = Vec::new();
    bundle(&mut one, &info.output);
    std::fs::write(format!("{out}.bin"), one)?;
    println!(
        "{seed}: {} bytes shrunk to {}",
        info.input_size, info.output_size
    );
    Ok(())
}
