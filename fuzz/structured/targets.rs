//! One fuzz target per entry point that takes bytes from outside (the fault rule parser's in
//! `faults.rs`). Each takes the generator and
//! returns `Err(what went wrong)` for an oracle failure; a panic is caught by the driver.

use crate::corpus::Seed;
use crate::mutate::{self, pick};
use crate::oracle;
use azqueue::engine::{Emulator, SeededEntropy, Snapshot, Timestamp};
use azqueue::http1::{self, Config};
use azqueue::rest::auth::{self, AccountKey, AuthInput, Scheme, Variant};
use azqueue::rest::config::{DEV_KEY, OAuth};
use azqueue::rest::faults::Faults;
use azqueue::rest::{Service, ServiceConfig, xml};
use proptest::prelude::Rng;
use proptest::test_runner::TestRng;

/// The fuzzing clock: fixed, so nothing expires between a request and the oracle's look.
pub const NOW: Timestamp = Timestamp::from_millis(1_795_435_200_000);

/// Requests answered by one service before it starts afresh (state stays small and varied).
const SERVICE_LIFETIME: u64 = 4096;

/// The entry points, by name.
pub const NAMES: &[&str] = &["service", "http1", "xml", "auth", "snapshot", "faults"];

pub struct Targets {
    seeds: Vec<Seed>,
    key: AccountKey,
    signed: Service,
    anonymous: Service,
    served: u64,
    faults: Faults,
}

impl Targets {
    pub fn new(seeds: Vec<Seed>) -> Self {
        let key = AccountKey::from_base64(DEV_KEY).expect("the development key is base64");
        let mut t = Targets {
            signed: fresh(false, 0),
            anonymous: fresh(true, 0),
            seeds,
            key,
            served: 0,
            faults: Faults::default(),
        };
        t.populate();
        t
    }

    /// Replays every seed, signed, into both services: the queues and messages the SDK tests
    /// made exist, so mutated requests meet real state.
    fn populate(&mut self) {
        for i in 0..self.seeds.len() {
            let mut seed = self.seeds[i].clone();
            self.sign(&mut seed);
            for service in [&mut self.signed, &mut self.anonymous] {
                if let Some(req) = build(&seed) {
                    service.handle(NOW, &req);
                    service.emulator_mut().take_changes();
                }
            }
        }
    }

    /// Seed files for the AFL++ targets (`fuzz/afl`): one request per file for `http1` and
    /// `service`, request bodies for `xml`, the populated state for `snapshot`. Returns how
    /// many files were written.
    pub fn write_seeds(&self, dir: &std::path::Path) -> usize {
        // AFL++ works best from small seeds.
        const MAX: usize = 8 * 1024;
        let mut files: Vec<(&str, Vec<u8>)> = Vec::new();
        for seed in &self.seeds {
            let wire = seed.wire();
            if wire.len() <= MAX {
                files.push(("http1", wire.clone()));
                files.push(("service", wire));
            }
            if !seed.body.is_empty() && seed.body.len() <= MAX {
                files.push(("xml", seed.body.clone()));
            }
        }
        if let Some(doc) = (self.signed.emulator().snapshot().ok())
            .and_then(|snapshot| serde_json::to_vec(&snapshot).ok())
        {
            files.push(("snapshot", doc));
        }
        for body in crate::faults::SEEDS {
            files.push(("faults", body.as_bytes().to_vec()));
        }
        let mut written = 0;
        for (i, (target, bytes)) in files.iter().enumerate() {
            let sub = dir.join(target);
            std::fs::create_dir_all(&sub).ok();
            if std::fs::write(sub.join(format!("{i:04}")), bytes).is_ok() {
                written += 1;
            }
        }
        written
    }

    fn seed(&self, rng: &mut TestRng) -> &Seed {
        pick(rng, &self.seeds)
    }

    /// Runs target `name` once.
    pub fn run(&mut self, name: &str, rng: &mut TestRng) -> Result<(), String> {
        match name {
            "service" => self.service(rng),
            "http1" => self.http1(rng),
            "xml" => self.xml(rng),
            "auth" => self.auth(rng),
            "snapshot" => self.snapshot(rng),
            "faults" => crate::faults::run(&mut self.faults, rng),
            other => Err(format!("no target {other}")),
        }
    }

    /// `Service::handle` with an arbitrary method, path, query, headers and body; most
    /// requests re-signed with the development key, so they pass authentication and reach the
    /// operations.
    fn service(&mut self, rng: &mut TestRng) -> Result<(), String> {
        self.served += 1;
        if self.served % SERVICE_LIFETIME == 0 {
            self.signed = fresh(false, self.served);
            self.anonymous = fresh(true, self.served);
            self.populate();
        }
        let mut seed = self.seed(rng).clone();
        let other = self.seed(rng).clone();
        mutate::request(rng, &mut seed, &other);
        if rng.random_bool(0.6) {
            self.sign(&mut seed);
        }
        let Some(req) = build(&seed) else {
            return Ok(());
        };
        let service = if rng.random_bool(0.5) {
            &mut self.signed
        } else {
            &mut self.anonymous
        };
        service.emulator_mut().take_changes();
        let response = service.handle(NOW, &req);
        let mut changes = service.emulator_mut().take_changes();
        // A fault rule a mutated request set up may answer an error after applying the
        // operation, as it is meant to: that error's changes are the operation's.
        if service
            .faults_mut()
            .take_injected()
            .iter()
            .any(|i| i.fault.applies())
        {
            changes.clear();
        }
        oracle::check(req.method().as_str(), req.uri().path(), &response, &changes)
            .map_err(|e| format!("{e}\nrequest: {}", String::from_utf8_lossy(&seed.wire())))
    }

    /// The HTTP/1.1 decoder on mutated pipelined streams cut into random reads: it never
    /// panics, nothing follows a rejection, and where the stream is cut changes nothing.
    fn http1(&mut self, rng: &mut TestRng) -> Result<(), String> {
        let mut stream = Vec::new();
        for _ in 0..rng.random_range(1..=3) {
            stream.extend(self.seed(rng).wire());
        }
        let other = self.seed(rng).wire();
        mutate::havoc(rng, &mut stream, &other);
        let config = Config {
            max_head: *pick(rng, &[64, 512, 4096, http1::MAX_HEAD_BYTES]),
            max_body: *pick(rng, &[0, 100, 70_000, http1::MAX_BODY_BYTES]),
            ..Config::new("127.0.0.1:10001")
        };
        // A bad head read whole can be refused at once, while cut into reads it waits for its
        // end (a partial head is not re-parsed on every read): a final blank line ends any
        // head in both, and a refusal may say 400 (syntax) or 431 (size) for the same head.
        const END: &[u8] = b"\r\n\r\n";
        let whole = oracle::decode(&config, &[stream.as_slice(), END]);
        let mut cuts = Vec::new();
        let mut at = 0;
        while at < stream.len() {
            let n = rng.random_range(1..=(stream.len() - at).min(97));
            cuts.push(&stream[at..at + n]);
            at += n;
        }
        cuts.push(END);
        let split = oracle::decode(&config, &cuts);
        if whole != split {
            return Err(format!(
                "cutting the stream changed what it decodes to:\n{whole:?}\n{split:?}\nstream: {:?}",
                String::from_utf8_lossy(&stream)
            ));
        }
        if let Some(i) = whole.iter().position(|s| s.starts_with("reject")) {
            if i + 1 != whole.len() {
                return Err(format!("items after a rejection: {whole:?}"));
            }
        }
        Ok(())
    }

    /// The XML readers on mutated request bodies: they answer `Ok` or a 4xx error.
    fn xml(&mut self, rng: &mut TestRng) -> Result<(), String> {
        let mut body = self.seed(rng).body.clone();
        let other = self.seed(rng).body.clone();
        mutate::havoc(rng, &mut body, &other);
        let statuses = [
            xml::messages::parse_message_text(&body).err(),
            xml::service_properties::parse_service_properties(&body).err(),
            xml::signed_identifiers::parse_signed_identifiers(&body).err(),
            xml::reader::parse_document(&body).err(),
        ];
        for e in statuses.into_iter().flatten() {
            if !(400..500).contains(&e.status()) {
                return Err(format!(
                    "an XML reader answered {} {:?} for {:?}",
                    e.status(),
                    e.code,
                    String::from_utf8_lossy(&body)
                ));
            }
        }
        Ok(())
    }

    /// SharedKey and SAS parsing on mutated Authorization headers and queries: `Ok` or a 4xx.
    fn auth(&mut self, rng: &mut TestRng) -> Result<(), String> {
        let mut seed = self.seed(rng).clone();
        let other = self.seed(rng).clone();
        mutate::request(rng, &mut seed, &other);
        if rng.random_bool(0.3) {
            self.sign(&mut seed);
        }
        if rng.random_bool(0.5) {
            if let Some((_, value)) = seed.headers.iter_mut().find(|(k, _)| k == "authorization") {
                mutate::havoc(rng, value, b"SharedKey devstoreaccount1:");
            }
        }
        let Some(req) = build(&seed) else {
            return Ok(());
        };
        let query = req.uri().query();
        let (account, queue) = account_and_queue(req.uri().path());
        let input = AuthInput {
            method: req.method().as_str(),
            path: req.uri().path(),
            query,
            headers: req.headers(),
            account: &account,
            queue: queue.as_deref(),
            https: rng.random_bool(0.2),
            client_ip: rng
                .random_bool(0.3)
                .then(|| std::net::IpAddr::from([127, 0, 0, rng.random_range(0..3)])),
            wall: NOW,
            oauth: if rng.random_bool(0.5) {
                OAuth::Basic
            } else {
                OAuth::Off
            },
            endpoint: "https://127.0.0.1:10001/devstoreaccount1",
        };
        let policy = |id: &str| {
            (id == "p1").then_some(azqueue::engine::AccessPolicy {
                start: None,
                expiry: None,
                permission: None,
            })
        };
        match auth::authenticate(&input, std::slice::from_ref(&self.key), &policy) {
            Ok(_) => Ok(()),
            Err(e) if (400..500).contains(&e.status()) => Ok(()),
            Err(e) => Err(format!("authenticate answered {} {:?}", e.status(), e.code)),
        }
    }

    /// The snapshot importer on mutated documents: a document it accepts rebuilds an engine
    /// whose own snapshot reads back the same.
    fn snapshot(&mut self, rng: &mut TestRng) -> Result<(), String> {
        let exported = self
            .signed
            .emulator()
            .snapshot()
            .map_err(|e| e.to_string())?;
        let exported = serde_json::to_vec(&exported).map_err(|e| format!("export failed: {e}"))?;
        let mut doc = exported;
        let other = self.seed(rng).body.clone();
        mutate::havoc(rng, &mut doc, &other);
        let Ok(snapshot) = serde_json::from_slice::<Snapshot>(&doc) else {
            return Ok(());
        };
        let emu = Emulator::from_snapshot(snapshot, Box::new(SeededEntropy::new(1)));
        let again = emu.snapshot().map_err(|e| e.to_string())?;
        let text = serde_json::to_vec(&again).map_err(|e| format!("re-export failed: {e}"))?;
        let reread: Snapshot =
            serde_json::from_slice(&text).map_err(|e| format!("re-export unreadable: {e}"))?;
        if reread != again {
            return Err("an imported snapshot does not read back the same".into());
        }
        Ok(())
    }

    /// Dates the request now and signs it with SharedKey and the development key.
    fn sign(&self, seed: &mut Seed) {
        seed.headers
            .retain(|(k, _)| k != "authorization" && k != "x-ms-date");
        seed.headers.push((
            "x-ms-date".into(),
            azqueue::rest::dates::rfc1123(NOW).into_bytes(),
        ));
        let Some(req) = build(seed) else { return };
        let (account, queue) = account_and_queue(req.uri().path());
        let input = AuthInput {
            method: req.method().as_str(),
            path: req.uri().path(),
            query: req.uri().query(),
            headers: req.headers(),
            account: &account,
            queue: queue.as_deref(),
            https: false,
            client_ip: None,
            wall: NOW,
            oauth: OAuth::Off,
            endpoint: "",
        };
        let sts = auth::shared_key::string_to_sign(Scheme::SharedKey, &input, Variant::default());
        let sig = self.key.sign(&sts).to_base64();
        seed.headers.push((
            "authorization".into(),
            format!("SharedKey {account}:{sig}").into_bytes(),
        ));
    }
}

/// A service with the development account and its seeded request ids.
fn fresh(anonymous: bool, salt: u64) -> Service {
    let config = ServiceConfig {
        anonymous,
        ..ServiceConfig::dev()
    };
    let emu = Emulator::new(Box::new(SeededEntropy::new(7 ^ salt)));
    Service::new(config, emu).with_request_ids(Box::new(SeededEntropy::new(99 ^ salt)))
}

/// The request a host would hand the service, or `None` when `http` cannot represent it (a
/// host answers those itself).
fn build(seed: &Seed) -> Option<http::Request<Vec<u8>>> {
    let mut b = http::Request::builder()
        .method(seed.method.as_str())
        .uri(http1::lenient_uri(&seed.target()));
    for (k, v) in &seed.headers {
        b = b.header(k.as_str(), v.as_slice());
    }
    b.body(seed.body.clone()).ok()
}

/// The account (first segment, without `-secondary`) and decoded queue a path names.
fn account_and_queue(path: &str) -> (String, Option<String>) {
    let mut segments = path.trim_start_matches('/').split('/');
    let account = segments.next().unwrap_or("");
    let account = account.strip_suffix("-secondary").unwrap_or(account);
    let queue = segments.next().filter(|q| !q.is_empty()).map(|q| {
        percent_encoding::percent_decode_str(q)
            .decode_utf8_lossy()
            .into_owned()
    });
    (account.to_owned(), queue)
}
