//! azqueue's fuzzer: a structured random generator over every entry point that takes bytes
//! from outside (the HTTP/1.1 codec, `Service::handle`, the XML readers, SharedKey/SAS parsing,
//! the snapshot importer, the fault rule parser), seeded with requests the official SDKs sent.
//! Stable Rust only (no libFuzzer); deterministic for a given `--seed`.
//!
//! ```text
//! cargo run --release --example fuzz -- run [--target NAME] [--seconds S] [--requests N] [--seed X]
//! cargo run --release --example fuzz -- distill CAPTURE_DIR
//! cargo run --release --example fuzz -- seeds DIR      # per-target seed files for AFL++
//! ```
//!
//! `run` goes round the targets (or one) until the time or the count is reached, then prints
//! `fuzz: N inputs (per target …), C crashes, F oracle failures` and `fuzz: P passed, F failed`
//! (targets), and exits non-zero if any input panicked or broke the oracle; each such input is
//! written to `target/fuzz-failures/`.

mod corpus;
mod faults;
mod mutate;
mod oracle;
mod targets;

use proptest::test_runner::{RngAlgorithm, TestRng};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

struct Options {
    target: Option<String>,
    seconds: Option<u64>,
    requests: Option<u64>,
    seed: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("distill") => {
            let dir = args.get(1).expect("distill needs the capture directory");
            let (read, kept) = corpus::distill(std::path::Path::new(dir));
            println!(
                "fuzz: distilled {read} captured requests to {kept} in {}",
                corpus::SEEDS
            );
        }
        Some("run") => std::process::exit(run(&parse(&args[1..]))),
        Some("seeds") => {
            let dir = args.get(1).expect("seeds needs a directory");
            let t = targets::Targets::new(corpus::load());
            let n = t.write_seeds(std::path::Path::new(dir));
            println!("fuzz: wrote {n} seed files under {dir}");
        }
        _ => {
            eprintln!(
                "usage: fuzz run [--target NAME] [--seconds S] [--requests N] [--seed X] | fuzz distill DIR | fuzz seeds DIR"
            );
            std::process::exit(2);
        }
    }
}

fn parse(args: &[String]) -> Options {
    let mut o = Options {
        target: None,
        seconds: None,
        requests: None,
        seed: 1,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--target" => o.target = Some(value.clone()),
            "--seconds" => o.seconds = Some(value.parse().expect("--seconds takes a number")),
            "--requests" => o.requests = Some(value.parse().expect("--requests takes a number")),
            "--seed" => o.seed = value.parse().expect("--seed takes a number"),
            _ => panic!("unknown flag {flag}"),
        }
    }
    if o.seconds.is_none() && o.requests.is_none() {
        o.seconds = Some(10);
    }
    o
}

/// How often each target runs in a round: the service most, as it holds everything else.
fn weight(name: &str) -> u64 {
    match name {
        "service" => 6,
        "http1" => 2,
        "snapshot" => 1,
        _ => 1,
    }
}

fn run(o: &Options) -> i32 {
    let names: Vec<&str> = match &o.target {
        Some(t) if targets::NAMES.contains(&t.as_str()) => vec![t.as_str()],
        Some(t) => {
            eprintln!(
                "fuzz: no target {t}; targets: {}",
                targets::NAMES.join(", ")
            );
            return 2;
        }
        None => targets::NAMES.to_vec(),
    };
    let schedule: Vec<&str> = names
        .iter()
        .flat_map(|n| std::iter::repeat_n(*n, weight(n) as usize))
        .collect();
    let mut seed = [0u8; 16];
    seed[..8].copy_from_slice(&o.seed.to_le_bytes());
    let mut rng = TestRng::from_seed(RngAlgorithm::XorShift, &seed);
    let mut t = targets::Targets::new(corpus::load());
    // A panic is a finding, reported once below: keep the default hook from printing each.
    std::panic::set_hook(Box::new(|_| {}));
    let deadline = o.seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let limit = o.requests.unwrap_or(u64::MAX);
    let started = Instant::now();
    let mut counts = vec![0u64; schedule.len()];
    let mut bad: Vec<&str> = Vec::new();
    let (mut total, mut crashes, mut failures) = (0u64, 0u64, 0u64);
    'outer: loop {
        for (i, name) in schedule.iter().enumerate() {
            if total >= limit
                || (total % 1024 == 0 && deadline.is_some_and(|d| Instant::now() >= d))
            {
                break 'outer;
            }
            let state = rng.clone();
            let outcome = catch_unwind(AssertUnwindSafe(|| t.run(name, &mut rng)));
            total += 1;
            counts[i] += 1;
            let finding = match outcome {
                Ok(Ok(())) => continue,
                Ok(Err(why)) => {
                    failures += 1;
                    why
                }
                Err(panic) => {
                    crashes += 1;
                    // The state may be torn after a panic: start it afresh.
                    t = targets::Targets::new(corpus::load());
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic".into())
                }
            };
            report(name, total, &state, &finding);
            if !bad.contains(name) {
                bad.push(name);
            }
        }
    }
    let mut per_target: Vec<(String, u64)> = Vec::new();
    for (name, n) in schedule.iter().zip(&counts) {
        match per_target.iter_mut().find(|(k, _)| k == name) {
            Some((_, c)) => *c += n,
            None => per_target.push((name.to_string(), *n)),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let detail: Vec<String> = per_target.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "fuzz: {total} inputs in {secs:.1} s ({:.0}/s; {}), {crashes} crashes, {failures} oracle failures",
        total as f64 / secs.max(1e-9),
        detail.join(", ")
    );
    // One check per target, in the form the test runner counts.
    println!(
        "fuzz: {} passed, {} failed",
        names.len() - bad.len(),
        bad.len()
    );
    i32::from(crashes + failures > 0)
}

/// Writes one finding to `target/fuzz-failures/` with what reproduces it.
fn report(target: &str, n: u64, rng: &TestRng, why: &str) {
    let dir = std::path::Path::new("target/fuzz-failures");
    std::fs::create_dir_all(dir).ok();
    let file = dir.join(format!("{target}-{n}.txt"));
    let text = format!("target: {target}\ninput #{n}\nrng: {rng:?}\n\n{why}\n");
    std::fs::write(&file, &text).ok();
    eprintln!(
        "fuzz: {target} input #{n} failed ({}): {}",
        file.display(),
        why.lines().next().unwrap_or("")
    );
}
