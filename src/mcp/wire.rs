//! The JSON-RPC lines under rmcp, guarded: every line a client sends gets an
//! answer, and no line can make the server buffer without bound.
//!
//! stdin is read here, line by line, at most [`MAX_LINE`] bytes each. A line that
//! is a JSON-RPC message goes on to rmcp; one that is too long, not JSON, or not a
//! JSON-RPC object is answered here with a JSON-RPC error (`-32700` parse error,
//! `-32600` invalid request), where rmcp would drop it and leave the client waiting
//! forever. rmcp's output and these errors are written to stdout whole line by
//! whole line, so they never interleave. When stdin closes, rmcp sees the end and
//! the server stops.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// The longest request line read; longer ones are answered with an error.
pub const MAX_LINE: usize = 8 << 20;

/// The reader and writer rmcp serves on, fed from stdin and drained to stdout.
pub fn guarded_stdio() -> (DuplexStream, DuplexStream) {
    guarded(tokio::io::stdin(), tokio::io::stdout())
}

/// [`guarded_stdio`] over any byte streams.
pub fn guarded<I, O>(input: I, output: O) -> (DuplexStream, DuplexStream)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_in, feed) = tokio::io::duplex(1 << 16);
    let (rmcp_out, drained) = tokio::io::duplex(1 << 16);
    let (errors, error_lines) = mpsc::unbounded_channel::<String>();
    tokio::spawn(read_lines(input, feed, errors));
    tokio::spawn(write_lines(drained, error_lines, output));
    (rmcp_in, rmcp_out)
}

/// Reads request lines; passes messages to rmcp, answers the rest.
async fn read_lines<I: AsyncRead + Unpin>(input: I, mut feed: DuplexStream, errors: mpsc::UnboundedSender<String>) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    // Ends when stdin closes (or fails): dropping `feed` ends rmcp's input.
    while let Ok(buf) = reader.fill_buf().await {
        if buf.is_empty() {
            break;
        }
        let (chunk, complete) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = complete.unwrap_or(buf.len());
        reader.consume(used);
        if complete.is_none() {
            continue;
        }
        let answer = if too_long {
            Some(error(Value::Null, -32600, &format!("request line longer than {MAX_LINE} bytes")))
        } else {
            check(&line)
        };
        match answer {
            Some(e) => {
                if errors.send(e).is_err() {
                    break;
                }
            }
            None => {
                line.push(b'\n');
                if feed.write_all(&line).await.is_err() {
                    break;
                }
            }
        }
        line.clear();
        too_long = false;
    }
}

/// `None` when the line is a JSON-RPC message for rmcp, else the error to answer.
fn check(line: &[u8]) -> Option<String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) if line.iter().all(u8::is_ascii_whitespace) => {
            let _ = e;
            return Some(error(Value::Null, -32700, "parse error: empty line"));
        }
        Err(e) => return Some(error(Value::Null, -32700, &format!("parse error: {e}"))),
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let is_message = value.is_object()
        && value.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && (value.get("method").is_some_and(Value::is_string)
            || value.get("result").is_some()
            || value.get("error").is_some());
    if !is_message {
        return Some(error(id, -32600, "invalid request: expected one JSON-RPC 2.0 object with a method"));
    }
    // Parameters rmcp cannot read would be answered without the request's id
    // (the client could not tell which call failed): answered here, with it.
    if let Some(why) = bad_params(&value) {
        return Some(error(id, -32602, &format!("invalid params: {why}")));
    }
    None
}

/// What is wrong with a request's `params` that rmcp would refuse without
/// naming the request: not an object, or a tool call without a tool's name or
/// with arguments that are not an object.
fn bad_params(value: &Value) -> Option<&'static str> {
    let params = value.get("params");
    if params.is_some_and(|p| !p.is_object()) {
        return Some("`params` must be an object");
    }
    if value.get("method").and_then(Value::as_str) == Some("tools/call") {
        let Some(p) = params else { return Some("tools/call needs `params` with the tool's `name`") };
        if !p.get("name").is_some_and(Value::is_string) {
            return Some("tools/call needs the tool's `name` as a string");
        }
        if p.get("arguments").is_some_and(|a| !a.is_object() && !a.is_null()) {
            return Some("a tool's `arguments` must be an object");
        }
    }
    None
}

fn error(id: Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// Writes rmcp's lines and the errors answered here, each line whole.
async fn write_lines<O: AsyncWrite + Unpin>(
    drained: DuplexStream,
    mut error_lines: mpsc::UnboundedReceiver<String>,
    mut output: O,
) {
    let mut lines = BufReader::new(drained).lines();
    let mut errors_open = true;
    loop {
        tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(l)) => {
                    if write_line(&mut output, &l).await.is_err() {
                        break;
                    }
                }
                _ => break, // rmcp is done
            },
            e = error_lines.recv(), if errors_open => match e {
                Some(l) => {
                    if write_line(&mut output, &l).await.is_err() {
                        break;
                    }
                }
                None => errors_open = false,
            },
        }
    }
    let _ = output.flush().await;
}

async fn write_line<O: AsyncWrite + Unpin>(output: &mut O, line: &str) -> std::io::Result<()> {
    output.write_all(line.as_bytes()).await?;
    output.write_all(b"\n").await?;
    output.flush().await
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn only_json_rpc_messages_pass() {
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(check(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r"), None);
        for bad in [&b""[..], b"   ", b"{", b"not json", b"[]", b"42", br#"{"id":3,"method":"x"}"#] {
            let answer = check(bad).unwrap_or_else(|| panic!("{:?} passed", String::from_utf8_lossy(bad)));
            assert!(answer.contains("\"error\""), "{answer}");
        }
        assert!(check(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#).unwrap().contains("\"id\":7"));
    }

    /// Regression: a tools/call whose params were not an object was answered
    /// with an error that had no id.
    #[test]
    fn parameters_rmcp_cannot_read_are_answered_with_the_request_id() {
        for bad in [
            &br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1]}"#[..],
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}"#,
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call"}"#,
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":3}}"#,
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"q","arguments":[1]}}"#,
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":5}"#,
        ] {
            let answer = check(bad).unwrap_or_else(|| panic!("{:?} passed", String::from_utf8_lossy(bad)));
            let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
            assert_eq!((v["id"].as_i64(), v["error"]["code"].as_i64()), (Some(9), Some(-32602)), "{answer}");
        }
        let ok = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"q","arguments":{"term":"x"}}}"#;
        assert_eq!(check(ok), None);
    }
}
