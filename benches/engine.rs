//! Engine cost per operation at queue depths of 1k, 100k and 1M messages.
//!
//! The design promises O(log n) Put / Get / Delete / Update (docs/architecture.md, invariant 6). Each
//! benchmark keeps the depth constant while it runs, so the figure belongs to that depth:
//! - `put`: puts are timed in chunks; each chunk is deleted again, untimed.
//! - `get32`: Get Messages for 32 with a 1 s visibility while the clock moves 1 s per call, so
//!   every message taken comes back behind the rest (the queue cycles). Time is per call.
//! - `delete`: 32 puts and a Get of 32 (untimed), then the 32 deletes (timed).
//! - `update`: a visibility-only Update (no new text) of each message in turn.
//!
//! - `queues_10000/put`: the same `put` at depth 1k, with the account holding 10,000 queues
//!   (the default bound): admitting a Put must not cost a walk over every queue.
//!
//! Every timed operation includes draining the outbox (`take_changes`), as a server does
//! per request. One queue per depth is built once and shared by the four benchmarks.
//!
//! `cargo bench --bench engine`; `cargo bench --bench engine -- depth_1000/` for one depth.

use azqueue::engine::capacity::DEFAULT_QUEUES_PER_ACCOUNT;
use azqueue::engine::{
    Emulator, MessageCount, MessageId, MessageText, Metadata, PopReceipt, QueueName, SeededEntropy,
    TimeToLive, Timestamp, VisibilityTimeout,
};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

const ACCT: &str = "devstoreaccount1";
const DEPTHS: [usize; 3] = [1_000, 100_000, 1_000_000];
const BODY: &str = "{\"order\":12345,\"sku\":\"A-42\",\"qty\":3}";

/// One queue at a fixed depth, and the clock it has reached.
struct Fixture {
    emu: Emulator,
    queue: QueueName,
    now: Timestamp,
}

impl Fixture {
    fn build(depth: usize) -> Self {
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(depth as u64)));
        let queue = QueueName::parse("bench").unwrap();
        let now = Timestamp::from_secs(1_700_000_000);
        emu.create_queue(now, ACCT, &queue, Metadata::default())
            .unwrap();
        for _ in 0..depth {
            // TTL -1: the clock moves during the run, and nothing may expire under us.
            emu.put_message(now, ACCT, &queue, text(), visible(), TimeToLive::Never)
                .unwrap();
            emu.take_changes();
        }
        Fixture { emu, queue, now }
    }

    /// Adds `n` empty queues beside the benchmarked one.
    fn add_empty_queues(&mut self, n: usize) {
        for i in 0..n {
            let name = QueueName::parse(&format!("other-{i}")).unwrap();
            self.emu
                .create_queue(self.now, ACCT, &name, Metadata::default())
                .unwrap();
        }
        self.emu.take_changes();
    }

    fn depth(&self) -> usize {
        self.emu.queue(ACCT, &self.queue).unwrap().len()
    }

    fn tick(&mut self) {
        self.now = self.now.plus_secs(1);
    }

    fn put(&mut self) -> (MessageId, PopReceipt) {
        let m = self
            .emu
            .put_message(
                self.now,
                ACCT,
                &self.queue,
                text(),
                visible(),
                TimeToLive::Never,
            )
            .unwrap();
        black_box(self.emu.take_changes());
        (m.id, m.pop_receipt)
    }

    fn get(&mut self, n: usize) -> Vec<(MessageId, PopReceipt)> {
        let count = MessageCount::new(n as i64).unwrap();
        let got = self
            .emu
            .get_messages(self.now, ACCT, &self.queue, count, one_second())
            .unwrap();
        black_box(self.emu.take_changes());
        got.into_iter().map(|m| (m.id, m.pop_receipt)).collect()
    }

    fn delete(&mut self, id: &MessageId, receipt: &PopReceipt) {
        self.emu
            .delete_message(self.now, ACCT, &self.queue, id, receipt)
            .unwrap();
        black_box(self.emu.take_changes());
    }

    fn update(&mut self, id: &MessageId, receipt: &PopReceipt) -> PopReceipt {
        let up = self
            .emu
            .update_message(self.now, ACCT, &self.queue, id, receipt, None, visible())
            .unwrap();
        black_box(self.emu.take_changes());
        up.pop_receipt
    }
}

fn text() -> MessageText {
    MessageText::new(BODY).unwrap()
}

fn visible() -> VisibilityTimeout {
    VisibilityTimeout::new(0).unwrap()
}

fn one_second() -> VisibilityTimeout {
    VisibilityTimeout::for_get(1).unwrap()
}

fn put(f: &mut Fixture, iters: u64) -> Duration {
    let mut timed = Duration::ZERO;
    let mut left = iters;
    let chunk = (f.depth() as u64 / 10).clamp(1, 1000);
    let mut sent = Vec::with_capacity(chunk as usize);
    while left > 0 {
        let k = left.min(chunk);
        let start = Instant::now();
        for _ in 0..k {
            sent.push(f.put());
        }
        timed += start.elapsed();
        for (id, receipt) in sent.drain(..) {
            f.delete(&id, &receipt);
        }
        left -= k;
    }
    timed
}

fn get32(f: &mut Fixture, iters: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        f.tick();
        black_box(f.get(32));
    }
    start.elapsed()
}

fn delete(f: &mut Fixture, iters: u64) -> Duration {
    let mut timed = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let k = left.min(32) as usize;
        f.tick();
        for _ in 0..k {
            f.put();
        }
        let got = f.get(k);
        assert_eq!(got.len(), k, "the queue ran out of visible messages");
        let start = Instant::now();
        for (id, receipt) in &got {
            f.delete(id, receipt);
        }
        timed += start.elapsed();
        left -= k as u64;
    }
    timed
}

fn update(
    f: &mut Fixture,
    held: &mut [(MessageId, PopReceipt)],
    cursor: &mut usize,
    iters: u64,
) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        let (id, receipt) = &mut held[*cursor];
        *receipt = f.update(id, receipt);
        *cursor = (*cursor + 1) % held.len();
    }
    start.elapsed()
}

/// A group with the short timings every engine benchmark uses (each call is sub-microsecond
/// to tens of microseconds, so 2 s of samples is plenty).
fn short_group(c: &mut Criterion, name: String) -> BenchmarkGroup<'_, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    group
}

fn engine(c: &mut Criterion) {
    for depth in DEPTHS {
        let mut f = Fixture::build(depth);
        let mut group = short_group(c, format!("depth_{depth}"));
        group.throughput(Throughput::Elements(1));
        group.bench_function("put", |b| b.iter_custom(|iters| put(&mut f, iters)));
        group.throughput(Throughput::Elements(32));
        group.bench_function("get32", |b| b.iter_custom(|iters| get32(&mut f, iters)));
        group.throughput(Throughput::Elements(1));
        group.bench_function("delete", |b| b.iter_custom(|iters| delete(&mut f, iters)));
        let stored = f.emu.queue(ACCT, &f.queue).unwrap().messages_in_order();
        let mut held: Vec<_> = (stored.unwrap().iter())
            .map(|m| (m.id, m.pop_receipt.clone()))
            .collect();
        let mut cursor = 0;
        group.bench_function("update", |b| {
            b.iter_custom(|iters| update(&mut f, &mut held, &mut cursor, iters))
        });
        group.finish();
        assert_eq!(f.depth(), depth, "the benchmarks kept the depth constant");
    }
    let queues = DEFAULT_QUEUES_PER_ACCOUNT;
    let mut f = Fixture::build(1_000);
    f.add_empty_queues(queues - 1);
    let mut group = short_group(c, format!("queues_{queues}"));
    group.throughput(Throughput::Elements(1));
    group.bench_function("put", |b| b.iter_custom(|iters| put(&mut f, iters)));
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
