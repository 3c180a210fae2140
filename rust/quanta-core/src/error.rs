//! The one error type of the core. The Python bindings map each variant to a typed exception.

/// Everything that can go wrong when a caller hands the engines bad input or a search runs out
/// of budget. Engines never panic on caller input: they return one of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Unknown game, unknown option, or an option value out of range.
    #[error("{0}")]
    InvalidOption(String),
    /// A position or action text that does not parse; the message names what is wrong.
    #[error("{0}")]
    InvalidNotation(String),
    /// An action that is not legal (or does not exist) in the position it was played in.
    #[error("{0}")]
    IllegalMove(String),
    /// A search hit its time, node or memory budget (or was interrupted) before it finished.
    #[error("{reason} after {nodes} nodes and {seconds:.3} s")]
    SearchLimit {
        reason: String,
        nodes: u64,
        seconds: f64,
    },
    /// A request that does not apply to the position (e.g. solving a chance node).
    #[error("{0}")]
    NotApplicable(String),
    /// The caller asked to stop (Ctrl-C in Python).
    #[error("interrupted")]
    Interrupted,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How many characters of a caller's input a message shows at most (the quotes aside): a
/// message that quotes both a notation and a field of it stays a few lines long.
pub const QUOTED_CHARS: usize = 80;

/// A caller's `text` as a message quotes it: `"abc"` (Rust's debug form) when short, and when
/// longer than [`QUOTED_CHARS`] (80) its first characters, an ellipsis and its full length,
/// `"abc…" (1,000,000 characters)`, so that a message never grows with the input. Every
/// message that repeats a caller's text goes through here.
pub fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED_CHARS {
        let whole = format!("{text:?}");
        if whole.chars().count() <= QUOTED_CHARS + 2 {
            return whole;
        }
    }
    let (mut shown, mut width) = (String::new(), 0);
    for c in text.chars() {
        let escaped = c.escape_debug();
        if width + escaped.len() >= QUOTED_CHARS {
            break;
        }
        width += escaped.len();
        shown.extend(escaped);
    }
    format!("\"{shown}…\" ({} characters)", thousands(count))
}

/// An already quoted form of a caller's input (such as a Python `repr`), cut like
/// [`quoted`]: whole up to [`QUOTED_CHARS`] characters, else its first characters, an
/// ellipsis and the form's full length.
pub fn clipped(shown: &str) -> String {
    let count = shown.chars().count();
    if count <= QUOTED_CHARS {
        return shown.to_string();
    }
    let head: String = shown.chars().take(QUOTED_CHARS - 1).collect();
    format!("{head}… ({} characters)", thousands(count))
}

/// `n` with thousands separators: 1000000 -> "1,000,000".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_quoted_whole_and_a_long_one_cut_with_its_length() {
        assert_eq!(quoted("a2b3"), "\"a2b3\"");
        assert_eq!(
            quoted(&"x".repeat(QUOTED_CHARS)),
            format!("\"{}\"", "x".repeat(80))
        );
        let long = quoted(&"x".repeat(1_000_000));
        assert_eq!(
            long,
            format!("\"{}…\" (1,000,000 characters)", "x".repeat(79))
        );
        // Characters that escape long (control characters) still keep it short.
        assert!(quoted(&"\u{1}".repeat(10_000)).len() < 160);
        assert_eq!(clipped("'ab'"), "'ab'");
        assert_eq!(
            clipped(&"y".repeat(81)),
            format!("{}… (81 characters)", "y".repeat(79))
        );
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
