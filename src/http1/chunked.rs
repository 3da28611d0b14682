//! The chunked transfer coding of a request body (RFC 9112 § 7.1), decoded incrementally: a
//! body may arrive in any number of reads, split anywhere.

use super::Config;
use http::StatusCode;

/// Longest chunk-size line accepted (hex size plus extensions, which nothing here reads).
const MAX_SIZE_LINE: usize = 4096;

/// Where in the coding the next byte belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `hex-size [; extensions] CRLF`
    Size,
    /// This many data bytes still to come.
    Data(u64),
    /// The CRLF after a chunk's data.
    DataEnd,
    /// Trailer fields after the last (zero-size) chunk, up to an empty line.
    Trailers,
}

/// How far a call to [`Chunked::decode`] got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Progress {
    /// Everything given was consumed (or is an incomplete line, kept for later).
    NeedMore,
    /// The body is complete.
    Done,
    /// The coding is broken or the body too large: answer this status and close.
    Reject(StatusCode),
}

/// One chunked body's decoding state.
#[derive(Debug)]
pub(super) struct Chunked {
    phase: Phase,
    /// Trailer bytes seen so far, held to the head's limit.
    trailers: usize,
    /// Bytes of the current, incomplete trailer line already searched for its end.
    line_scanned: usize,
}

impl Chunked {
    pub(super) fn new() -> Self {
        Chunked {
            phase: Phase::Size,
            trailers: 0,
            line_scanned: 0,
        }
    }

    /// Decodes what it can from `buf`, appending data to `body`. Returns how many bytes of
    /// `buf` were consumed; an incomplete size or trailer line is left unconsumed.
    pub(super) fn decode(
        &mut self,
        buf: &[u8],
        body: &mut Vec<u8>,
        config: &Config,
    ) -> (usize, Progress) {
        let mut pos = 0;
        loop {
            let rest = &buf[pos..];
            match self.phase {
                // httparse takes a line without digits for size 0, which would end the body.
                Phase::Size if rest.first().is_some_and(|b| !b.is_ascii_hexdigit()) => {
                    return (pos, Progress::Reject(StatusCode::BAD_REQUEST));
                }
                Phase::Size => match httparse::parse_chunk_size(rest) {
                    Ok(httparse::Status::Complete((used, size))) => {
                        pos += used;
                        let total = (body.len() as u64).saturating_add(size);
                        if total > config.max_body as u64 {
                            return (pos, Progress::Reject(StatusCode::PAYLOAD_TOO_LARGE));
                        }
                        self.phase = if size == 0 {
                            Phase::Trailers
                        } else {
                            Phase::Data(size)
                        };
                    }
                    // A size line is a few hex digits; one this long is no size line (and
                    // re-parsing an ever longer partial line would cost quadratic time).
                    Ok(httparse::Status::Partial) if rest.len() > MAX_SIZE_LINE => {
                        return (pos, Progress::Reject(StatusCode::BAD_REQUEST));
                    }
                    Ok(httparse::Status::Partial) => return (pos, Progress::NeedMore),
                    Err(_) => return (pos, Progress::Reject(StatusCode::BAD_REQUEST)),
                },
                Phase::Data(remaining) => {
                    if rest.is_empty() {
                        return (pos, Progress::NeedMore);
                    }
                    let take = usize::try_from(remaining).map_or(rest.len(), |r| r.min(rest.len()));
                    body.extend_from_slice(&rest[..take]);
                    pos += take;
                    let left = remaining - take as u64;
                    self.phase = if left == 0 {
                        Phase::DataEnd
                    } else {
                        Phase::Data(left)
                    };
                }
                Phase::DataEnd => match rest {
                    [b'\r', b'\n', ..] => {
                        pos += 2;
                        self.phase = Phase::Size;
                    }
                    [] | [b'\r'] => return (pos, Progress::NeedMore),
                    _ => return (pos, Progress::Reject(StatusCode::BAD_REQUEST)),
                },
                Phase::Trailers => {
                    // Resume the search for the line's end where the last call stopped, so a
                    // line trickling in costs linear time.
                    let from = self.line_scanned.saturating_sub(1).min(rest.len());
                    let Some(end) = rest[from..]
                        .windows(2)
                        .position(|w| w == b"\r\n")
                        .map(|i| from + i)
                    else {
                        if self.trailers + rest.len() > config.max_head {
                            return (pos, Progress::Reject(StatusCode::BAD_REQUEST));
                        }
                        self.line_scanned = rest.len();
                        return (pos, Progress::NeedMore);
                    };
                    self.line_scanned = 0;
                    pos += end + 2;
                    self.trailers += end + 2;
                    if self.trailers > config.max_head {
                        return (pos, Progress::Reject(StatusCode::BAD_REQUEST));
                    }
                    // The REST layer reads no trailer field, so their content is skipped.
                    if end == 0 {
                        return (pos, Progress::Done);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(parts: &[&[u8]]) -> (Vec<u8>, Progress, usize) {
        let config = Config::new("x");
        let mut chunked = Chunked::new();
        let mut body = Vec::new();
        let mut pending = Vec::new();
        let mut progress = Progress::NeedMore;
        for part in parts {
            pending.extend_from_slice(part);
            let (used, p) = chunked.decode(&pending, &mut body, &config);
            pending.drain(..used);
            progress = p;
            if p != Progress::NeedMore {
                break;
            }
        }
        (body, progress, pending.len())
    }

    #[test]
    fn chunks_extensions_and_trailers() {
        let (body, p, left) =
            decode_all(&[b"5;name=v\r\nhello\r\n6\r\n world\r\n0\r\nx-t: 1\r\n\r\nNEXT"]);
        assert_eq!(
            (body.as_slice(), p, left),
            (&b"hello world"[..], Progress::Done, 4)
        );
    }

    #[test]
    fn split_anywhere() {
        let wire: &[u8] = b"a\r\n0123456789\r\n0\r\n\r\n";
        for cut in 0..wire.len() {
            let (body, p, _) = decode_all(&[&wire[..cut], &wire[cut..]]);
            assert_eq!(
                (body.as_slice(), p),
                (&b"0123456789"[..], Progress::Done),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn trailers_one_byte_at_a_time() {
        let wire: &[u8] = b"3\r\nabc\r\n0\r\nx-a: 1\r\nx-b: 22\r\n\r\nX";
        let parts: Vec<&[u8]> = wire.chunks(1).collect();
        let (body, p, _) = decode_all(&parts);
        assert_eq!((body.as_slice(), p), (&b"abc"[..], Progress::Done));
    }

    #[test]
    fn broken_codings_are_rejected() {
        assert_eq!(
            decode_all(&[b"zz\r\n"]).1,
            Progress::Reject(StatusCode::BAD_REQUEST)
        );
        assert_eq!(
            decode_all(&[b"1\r\nab\r\n"]).1,
            Progress::Reject(StatusCode::BAD_REQUEST)
        );
        assert_eq!(
            decode_all(&[b"\r\n\r\n"]).1,
            Progress::Reject(StatusCode::BAD_REQUEST)
        );
        assert_eq!(
            decode_all(&[b"ffffffffffff\r\n"]).1,
            Progress::Reject(StatusCode::PAYLOAD_TOO_LARGE)
        );
    }
}
