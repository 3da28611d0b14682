//! One connection's incoming byte stream → requests, in order, however the stream was split
//! into reads.

use super::Config;
use super::chunked::{Chunked, Progress};
use super::head::{self, Body, Parsed};
use http::{Request, StatusCode};
use std::collections::VecDeque;

/// What the stream asks of the server, in stream order. Answer them in this order.
// Nearly every item is a request, so boxing it would add an allocation per request and save
// no memory.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Item {
    /// The client waits (`Expect: 100-continue`) for leave to send the next request's body:
    /// write [`CONTINUE`](super::CONTINUE).
    Continue,
    /// A complete request.
    Request(Incoming),
    /// The stream cannot be read further (malformed, too large, an unsupported coding): answer
    /// with this status and close. No item follows.
    Reject(StatusCode),
}

/// A complete request and what the connection does after its answer.
#[derive(Debug)]
pub struct Incoming {
    pub request: Request<Vec<u8>>,
    /// False for the last request of the connection (`Connection: close`, HTTP/1.0 without
    /// keep-alive): close after its answer. No item follows it.
    pub keep_alive: bool,
}

/// Where the decoder is in the stream.
#[derive(Debug)]
enum State {
    /// Expecting a request head.
    Head,
    /// A head whose body is `len` bytes long.
    Fixed {
        request: Request<()>,
        keep_alive: bool,
        len: usize,
    },
    /// A head whose body is chunked.
    Chunked {
        request: Request<()>,
        keep_alive: bool,
        body: Vec<u8>,
        coding: Chunked,
    },
    /// After a rejection or the connection's last request: input is ignored.
    Done,
}

/// The incremental request parser for one connection.
///
/// ```
/// use azqueue::http1::{Config, Decoder, Item};
/// let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
/// let mut items = std::collections::VecDeque::new();
/// decoder.feed(b"GET /acct?comp=list HTTP/1.1\r\nHost: h\r\n", &mut items);
/// assert!(items.is_empty());
/// decoder.feed(b"\r\n", &mut items);
/// assert!(matches!(items.pop_front(), Some(Item::Request(r)) if r.keep_alive));
/// ```
#[derive(Debug)]
pub struct Decoder {
    config: Config,
    /// Bytes received but not yet consumed (an incomplete head, body or chunk line).
    pending: Vec<u8>,
    /// How many bytes at the start of `pending` are an incomplete head already searched for
    /// its end (0: none).
    scanned: usize,
    state: State,
}

impl Decoder {
    pub fn new(config: Config) -> Self {
        Decoder {
            config,
            pending: Vec::new(),
            scanned: 0,
            state: State::Head,
        }
    }

    /// Takes the next bytes read from the connection and appends what they complete to `items`.
    pub fn feed(&mut self, bytes: &[u8], items: &mut VecDeque<Item>) {
        if self.pending.is_empty() {
            // The common case (a whole request per read) parses the read in place and keeps
            // only what is left of it.
            let used = self.run(bytes, items);
            if let Some(rest) = bytes.get(used..) {
                self.pending.extend_from_slice(rest);
            }
        } else {
            let mut pending = std::mem::take(&mut self.pending);
            pending.extend_from_slice(bytes);
            let used = self.run(&pending, items);
            pending.drain(..used.min(pending.len()));
            self.pending = pending;
        }
        if matches!(self.state, State::Done) {
            self.pending = Vec::new();
        }
    }

    /// Whether the stream has ended for this decoder (a rejection or a last request was
    /// produced): no further item will come.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// Whether part of a request head has arrived and its end has not: the state a host
    /// bounds in time, so a client sending its head a byte at a time cannot hold a connection
    /// forever.
    pub fn in_head(&self) -> bool {
        matches!(self.state, State::Head) && !self.pending.is_empty()
    }

    /// Bytes received and not yet part of an item (for tests and limits).
    pub fn buffered(&self) -> usize {
        self.pending.len()
    }

    /// Decodes items from `data`; returns how many bytes were consumed.
    fn run(&mut self, data: &[u8], items: &mut VecDeque<Item>) -> usize {
        let mut pos = 0;
        loop {
            let rest = data.get(pos..).unwrap_or_default();
            match &mut self.state {
                State::Done => return data.len(),
                State::Head if rest.is_empty() => return pos,
                // A head that was incomplete before is parsed again only once a blank line may
                // have ended it, so a head trickling in byte by byte costs linear time, not
                // quadratic.
                State::Head if pos == 0 && self.scanned > 0 && !ends_head(rest, self.scanned) => {
                    self.scanned = rest.len();
                    if rest.len() > self.config.max_head {
                        self.reject(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, items);
                        return data.len();
                    }
                    return pos;
                }
                State::Head => match head::parse(rest, &self.config) {
                    Parsed::Partial => {
                        self.scanned = rest.len();
                        return pos;
                    }
                    Parsed::Reject(status) => {
                        self.reject(status, items);
                        return data.len();
                    }
                    Parsed::Complete { len, head } => {
                        self.scanned = 0;
                        pos += len;
                        let arrived = data.len() - pos;
                        let keep_alive = head.keep_alive;
                        let request = head.request;
                        match head.body {
                            Body::None => {
                                self.emit(request.map(|()| Vec::new()), keep_alive, items)
                            }
                            Body::Length(len) => {
                                if head.expects_continue && arrived < len {
                                    items.push_back(Item::Continue);
                                }
                                self.state = State::Fixed {
                                    request,
                                    keep_alive,
                                    len,
                                };
                            }
                            Body::Chunked => {
                                if head.expects_continue && arrived == 0 {
                                    items.push_back(Item::Continue);
                                }
                                self.state = State::Chunked {
                                    request,
                                    keep_alive,
                                    body: Vec::new(),
                                    coding: Chunked::new(),
                                };
                            }
                        }
                    }
                },
                State::Fixed { len, .. } => {
                    let Some(body) = rest.get(..*len) else {
                        return pos;
                    };
                    let body = body.to_vec();
                    pos += body.len();
                    if let State::Fixed {
                        request,
                        keep_alive,
                        ..
                    } = std::mem::replace(&mut self.state, State::Head)
                    {
                        self.emit(request.map(|()| body), keep_alive, items);
                    }
                }
                State::Chunked { body, coding, .. } => {
                    let (used, progress) = coding.decode(rest, body, &self.config);
                    pos += used;
                    match progress {
                        Progress::NeedMore => return pos,
                        Progress::Reject(status) => {
                            self.reject(status, items);
                            return data.len();
                        }
                        Progress::Done => {
                            if let State::Chunked {
                                request,
                                keep_alive,
                                body,
                                ..
                            } = std::mem::replace(&mut self.state, State::Head)
                            {
                                self.emit(request.map(|()| body), keep_alive, items);
                            }
                        }
                    }
                }
            }
        }
    }

    fn emit(&mut self, request: Request<Vec<u8>>, keep_alive: bool, items: &mut VecDeque<Item>) {
        items.push_back(Item::Request(Incoming {
            request,
            keep_alive,
        }));
        self.state = if keep_alive { State::Head } else { State::Done };
    }

    fn reject(&mut self, status: StatusCode, items: &mut VecDeque<Item>) {
        items.push_back(Item::Reject(status));
        self.state = State::Done;
    }
}

/// Whether `buf`, of which the first `scanned` bytes were searched before, holds a blank line
/// (`\n\n` or `\n\r\n`, as httparse ends a head) that could not have been seen then.
fn ends_head(buf: &[u8], scanned: usize) -> bool {
    let from = scanned.saturating_sub(2).min(buf.len());
    buf[from..]
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .any(|(i, _)| {
            let after = &buf[from + i + 1..];
            after.first() == Some(&b'\n') || after.starts_with(b"\r\n")
        })
}
