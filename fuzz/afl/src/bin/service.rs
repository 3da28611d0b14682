//! Raw bytes as a pipelined HTTP/1.1 stream into `Service::handle`: every request the decoder
//! yields is answered, and every answer passes the REST oracle (a panic is a finding).

use azqueue::http1::{Config, Decoder, Item};
use azqueue_afl::{NOW, oracle, service};
use std::collections::VecDeque;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let mut service = service();
        let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
        let mut items = VecDeque::new();
        decoder.feed(data, &mut items);
        for item in items {
            let Item::Request(incoming) = item else {
                continue;
            };
            let req = incoming.request;
            let response = service.handle(NOW, &req);
            let changes = service.emulator_mut().take_changes();
            if let Err(why) =
                oracle::check(req.method().as_str(), req.uri().path(), &response, &changes)
            {
                panic!("{why}\nrequest: {req:?}");
            }
        }
    });
}
