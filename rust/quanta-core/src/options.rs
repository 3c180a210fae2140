//! Game parameters: a small typed map, read and checked once when a game is made.

use crate::error::{Error, Result, clipped, quoted};
use std::collections::BTreeMap;
use std::fmt;

/// The value of one game parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Str(String),
    /// A fixed number of integers, one per player (e.g. a hand size each), shown as a tuple.
    Ints(Vec<i64>),
    /// A fixed number of yes/no values, one per player (e.g. whose hand is open), a tuple.
    Bools(Vec<bool>),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(v) => write!(f, "{v}"),
            OptionValue::Bool(v) => write!(f, "{v}"),
            OptionValue::Str(v) => write!(f, "{}", quoted(v)),
            OptionValue::Ints(v) => {
                let items: Vec<String> = v.iter().map(i64::to_string).collect();
                write!(f, "({})", items.join(", "))
            }
            OptionValue::Bools(v) => {
                let items: Vec<String> = v.iter().map(bool::to_string).collect();
                write!(f, "({})", items.join(", "))
            }
        }
    }
}

/// Parameters by name, in a stable order.
pub type Options = BTreeMap<String, OptionValue>;

/// Reads a game's options one by one, supplying defaults, and complains about anything left over,
/// so that every game checks its parameters the same way.
pub struct OptionReader<'a> {
    game: &'static str,
    given: &'a Options,
    used: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    pub fn new(game: &'static str, given: &'a Options) -> Self {
        OptionReader {
            game,
            given,
            used: Vec::new(),
        }
    }

    /// A string option that must be one of `choices`; the first choice is the default.
    pub fn choice(&mut self, name: &'static str, choices: &[&'static str]) -> Result<&'static str> {
        self.used.push(name);
        match self.given.get(name) {
            None => Ok(choices[0]),
            Some(OptionValue::Str(s)) => {
                choices.iter().copied().find(|c| c == s).ok_or_else(|| {
                    Error::InvalidOption(format!(
                        "{}: option {name} must be one of {choices:?}, not {}",
                        self.game,
                        quoted(s)
                    ))
                })
            }
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be one of {choices:?}, not {other}",
                self.game
            ))),
        }
    }

    /// An integer option within `min..=max`.
    pub fn int(&mut self, name: &'static str, min: i64, max: i64, default: i64) -> Result<i64> {
        self.used.push(name);
        match self.given.get(name) {
            None => Ok(default),
            Some(OptionValue::Int(v)) if (min..=max).contains(v) => Ok(*v),
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be an integer from {min} to {max}, not {other}",
                self.game
            ))),
        }
    }

    /// `len` integers within `min..=max`, given as a tuple (or list) of them or as one integer
    /// for all; `default` for each when missing.
    pub fn ints(
        &mut self,
        name: &'static str,
        len: usize,
        min: i64,
        max: i64,
        default: i64,
    ) -> Result<Vec<i64>> {
        self.used.push(name);
        let fits = |v: &i64| (min..=max).contains(v);
        match self.given.get(name) {
            None => Ok(vec![default; len]),
            Some(OptionValue::Int(v)) if fits(v) => Ok(vec![*v; len]),
            Some(OptionValue::Ints(v)) if v.len() == len && v.iter().all(fits) => Ok(v.clone()),
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be an integer from {min} to {max} or a tuple of {len} \
                 of them, not {other}",
                self.game
            ))),
        }
    }

    /// A text option, or `None` when it is not given.
    pub fn text(&mut self, name: &'static str) -> Result<Option<&'a str>> {
        self.used.push(name);
        match self.given.get(name) {
            None => Ok(None),
            Some(OptionValue::Str(s)) => Ok(Some(s)),
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be a text, not {other}",
                self.game
            ))),
        }
    }

    /// A boolean option.
    pub fn bool(&mut self, name: &'static str, default: bool) -> Result<bool> {
        self.used.push(name);
        match self.given.get(name) {
            None => Ok(default),
            Some(OptionValue::Bool(v)) => Ok(*v),
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be true or false, not {other}",
                self.game
            ))),
        }
    }

    /// `len` booleans, given as a tuple (or list) of them or as one boolean for all; `default`
    /// for each when missing.
    pub fn bools(&mut self, name: &'static str, len: usize, default: bool) -> Result<Vec<bool>> {
        self.used.push(name);
        match self.given.get(name) {
            None => Ok(vec![default; len]),
            Some(OptionValue::Bool(v)) => Ok(vec![*v; len]),
            Some(OptionValue::Bools(v)) if v.len() == len => Ok(v.clone()),
            Some(other) => Err(Error::InvalidOption(format!(
                "{}: option {name} must be true or false or a tuple of {len} of them, not {other}",
                self.game
            ))),
        }
    }

    /// Fails on any option the game did not ask for.
    pub fn finish(self) -> Result<()> {
        let unknown: Vec<&str> = self
            .given
            .keys()
            .map(String::as_str)
            .filter(|k| !self.used.contains(k))
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(Error::InvalidOption(format!(
                "{}: unknown option(s) {}; the options are {:?}",
                self.game,
                clipped(&format!("{unknown:?}")),
                self.used
            )))
        }
    }
}
