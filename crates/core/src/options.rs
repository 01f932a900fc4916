//! Game options: a schema per game (name, allowed values, default, description) and a checked
//! set of values. The CLI's help and the web forms are generated from the schema.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

/// What values an option accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum OptionValues {
    /// One of a fixed list of words.
    Choice { choices: &'static [&'static str] },
    /// `true` or `false`.
    Bool,
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// A whole number in `min..=max`, or the keyword `word` (e.g. `auto`).
    IntOr {
        min: i64,
        max: i64,
        word: &'static str,
    },
    /// Free text checked by the game; `accepted` describes the form.
    Text { accepted: &'static str },
}

impl OptionValues {
    /// A short description of the accepted values, for help and error messages.
    #[must_use]
    pub fn accepted(&self) -> String {
        match *self {
            OptionValues::Choice { choices } => choices.join(", "),
            OptionValues::Bool => "true, false".to_string(),
            OptionValues::Int { min, max } => format!("a whole number from {min} to {max}"),
            OptionValues::IntOr { min, max, word } => {
                format!("{word}, or a whole number from {min} to {max}")
            }
            OptionValues::Text { accepted } => accepted.to_string(),
        }
    }

    /// Checks `value` and returns its canonical spelling.
    fn canonical(&self, value: &str) -> Option<String> {
        let v = value.trim();
        let lower = v.to_ascii_lowercase();
        match *self {
            OptionValues::Choice { choices } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(v))
                .map(|c| (*c).to_string()),
            OptionValues::Bool => match lower.as_str() {
                "true" | "yes" | "on" | "1" => Some("true".into()),
                "false" | "no" | "off" | "0" => Some("false".into()),
                _ => None,
            },
            OptionValues::Int { min, max } => v
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(|n| n.to_string()),
            OptionValues::IntOr { min, max, word } => {
                if lower == word {
                    Some(word.to_string())
                } else {
                    v.parse::<i64>()
                        .ok()
                        .filter(|n| (min..=max).contains(n))
                        .map(|n| n.to_string())
                }
            }
            OptionValues::Text { .. } => Some(lower),
        }
    }
}

/// One option of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// The key used on command lines, in records and in the API: `quiet-plies`.
    pub name: &'static str,
    /// A short name for people: `Draw after quiet moves`.
    pub label: &'static str,
    pub values: OptionValues,
    /// The default value, canonically spelled.
    pub default: &'static str,
    /// One line saying what the option does.
    pub description: &'static str,
}

/// A bad option name or value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("unknown option '{name}' for {game}; accepted options: {accepted}")]
    Unknown {
        game: &'static str,
        name: String,
        accepted: String,
    },
    #[error("bad value '{value}' for option '{name}' of {game}; accepted: {accepted}")]
    BadValue {
        game: &'static str,
        name: String,
        value: String,
        accepted: String,
    },
    #[error("malformed option '{text}'; write KEY=VALUE, e.g. {example}")]
    Malformed { text: String, example: String },
    #[error("option '{name}' is given twice")]
    Repeated { name: String },
    #[error("invalid options for {game}: {message}")]
    Invalid { game: &'static str, message: String },
}

/// A complete, checked set of option values for one game: every option of the schema has a
/// value (the default where none was given), canonically spelled. Cloning is cheap (the
/// values are shared). Games read their options into a plain configuration of their own and
/// keep that in their state, so that copies of a position share nothing between threads.
#[derive(Clone, PartialEq, Eq)]
pub struct Options {
    game: &'static str,
    schema: &'static [OptionSpec],
    values: Arc<BTreeMap<&'static str, String>>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Options({}: {})", self.game, self)
    }
}

impl Options {
    /// The defaults of every option.
    #[must_use]
    pub fn defaults(game: &'static str, schema: &'static [OptionSpec]) -> Options {
        let values = Arc::new(
            schema
                .iter()
                .map(|s| (s.name, s.default.to_string()))
                .collect(),
        );
        Options {
            game,
            schema,
            values,
        }
    }

    /// Options from `(name, value)` pairs; names are case-insensitive, `_` and `-` are the same.
    ///
    /// # Errors
    /// An unknown name, a value outside the accepted ones, or a name given twice.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        game: &'static str,
        schema: &'static [OptionSpec],
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Options, OptionError> {
        let mut opts = Options::defaults(game, schema);
        let mut seen: Vec<&'static str> = Vec::new();
        for (k, v) in pairs {
            let spec = opts.spec(k.as_ref())?;
            if seen.contains(&spec.name) {
                return Err(OptionError::Repeated {
                    name: spec.name.to_string(),
                });
            }
            seen.push(spec.name);
            opts.set(spec.name, v.as_ref())?;
        }
        Ok(opts)
    }

    /// Parses `key=value` items separated by commas or white space (`"sight=any,removal=pair"`);
    /// the empty string and `default` give the defaults.
    ///
    /// # Errors
    /// As [`Options::from_pairs`], or an item without `=`.
    pub fn parse(
        game: &'static str,
        schema: &'static [OptionSpec],
        text: &str,
    ) -> Result<Options, OptionError> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("default") {
            return Ok(Options::defaults(game, schema));
        }
        let items = split_items(text);
        let mut pairs = Vec::new();
        for item in &items {
            pairs.push(split_pair(item, schema)?);
        }
        Options::from_pairs(game, schema, pairs)
    }

    fn spec(&self, name: &str) -> Result<&'static OptionSpec, OptionError> {
        let norm = name.trim().to_ascii_lowercase().replace('_', "-");
        self.schema
            .iter()
            .find(|s| s.name == norm)
            .ok_or_else(|| OptionError::Unknown {
                game: self.game,
                name: name.to_string(),
                accepted: if self.schema.is_empty() {
                    "(this game has no options)".to_string()
                } else {
                    self.schema
                        .iter()
                        .map(|s| s.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })
    }

    /// Sets one option.
    ///
    /// # Errors
    /// An unknown name or a value outside the accepted ones.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = self.spec(name)?;
        let v = spec
            .values
            .canonical(value)
            .ok_or_else(|| OptionError::BadValue {
                game: self.game,
                name: spec.name.to_string(),
                value: value.to_string(),
                accepted: spec.values.accepted(),
            })?;
        Arc::make_mut(&mut self.values).insert(spec.name, v);
        Ok(())
    }

    /// The game these options belong to.
    #[must_use]
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The schema.
    #[must_use]
    pub fn schema(&self) -> &'static [OptionSpec] {
        self.schema
    }

    /// The value of option `name`.
    ///
    /// # Panics
    /// If `name` is not in the schema: that is a bug in the calling game, not bad input.
    #[must_use]
    pub fn get(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(v) => v,
            None => panic!("option '{name}' is not in the schema of {}", self.game),
        }
    }

    /// A boolean option's value.
    #[must_use]
    pub fn get_bool(&self, name: &str) -> bool {
        self.get(name) == "true"
    }

    /// A numeric option's value; `None` for the keyword of an [`OptionValues::IntOr`] option.
    #[must_use]
    pub fn get_int(&self, name: &str) -> Option<i64> {
        self.get(name).parse().ok()
    }

    /// Every option with its value, in schema order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> + '_ {
        self.schema
            .iter()
            .map(move |s| (s.name, self.values[s.name].as_str()))
    }

    /// Only the options whose value differs from the default, in schema order.
    pub fn non_default(&self) -> impl Iterator<Item = (&'static str, &str)> + '_ {
        self.schema
            .iter()
            .filter(move |s| self.values[s.name] != s.default)
            .map(move |s| (s.name, self.values[s.name].as_str()))
    }

    /// The non-default options as a map (the form records and the API store).
    #[must_use]
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.non_default()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// An error about a combination of values, for games to return from `new`.
    #[must_use]
    pub fn invalid(&self, message: impl Into<String>) -> OptionError {
        OptionError::Invalid {
            game: self.game,
            message: message.into(),
        }
    }
}

/// Splits `a=1,b=x,y c=2` into `a=1`, `b=x,y`, `c=2`: an item without `=` after a comma
/// continues the previous value (values such as `keep=b2,c7` contain commas).
#[must_use]
pub fn split_items(text: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for word in text.split([' ', '\t', '\n']).filter(|s| !s.is_empty()) {
        for (i, part) in word.split(',').enumerate() {
            if part.is_empty() {
                continue;
            }
            match items.last_mut() {
                Some(last) if i > 0 && !part.contains('=') => {
                    last.push(',');
                    last.push_str(part);
                }
                _ => items.push(part.to_string()),
            }
        }
    }
    items
}

fn split_pair<'a>(
    item: &'a str,
    schema: &'static [OptionSpec],
) -> Result<(&'a str, &'a str), OptionError> {
    item.split_once('=').ok_or_else(|| OptionError::Malformed {
        text: item.to_string(),
        example: schema.first().map_or("key=value".to_string(), |s| {
            format!("{}={}", s.name, s.default)
        }),
    })
}

/// Splits `KEY=VALUE` text as given on a command line.
///
/// # Errors
/// Text without `=`.
pub fn parse_key_value(item: &str) -> Result<(String, String), OptionError> {
    item.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .ok_or_else(|| OptionError::Malformed {
            text: item.to_string(),
            example: "size=9".to_string(),
        })
}

/// Options print as `name=value,…` listing only non-default values (`default` when none).
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in self.non_default() {
            if !first {
                f.write_str(",")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        if first {
            f.write_str("default")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &[OptionSpec] = &[
        OptionSpec {
            name: "sight",
            label: "sight",
            values: OptionValues::Choice {
                choices: &["orthogonal", "any"],
            },
            default: "orthogonal",
            description: "",
        },
        OptionSpec {
            name: "pie",
            label: "pie",
            values: OptionValues::Bool,
            default: "true",
            description: "",
        },
        OptionSpec {
            name: "tokens",
            label: "tokens",
            values: OptionValues::IntOr {
                min: 1,
                max: 999,
                word: "auto",
            },
            default: "auto",
            description: "",
        },
    ];

    #[test]
    fn parse_fills_defaults_and_canonicalises() {
        let o = Options::parse("g", SCHEMA, "SIGHT=Any, pie=no").unwrap();
        assert_eq!(o.get("sight"), "any");
        assert!(!o.get_bool("pie"));
        assert_eq!(o.get("tokens"), "auto");
        assert_eq!(o.get_int("tokens"), None);
        assert_eq!(o.to_string(), "sight=any,pie=false");
        assert_eq!(Options::defaults("g", SCHEMA).to_string(), "default");
        assert_eq!(
            split_items("a=1,keep=b2,c7 c=2"),
            ["a=1", "keep=b2,c7", "c=2"]
        );
    }

    #[test]
    fn errors_name_what_is_accepted() {
        let e = Options::parse("g", SCHEMA, "sigh=any").unwrap_err();
        assert!(
            e.to_string()
                .contains("accepted options: sight, pie, tokens"),
            "{e}"
        );
        let e = Options::parse("g", SCHEMA, "sight=diagonal").unwrap_err();
        assert!(e.to_string().contains("accepted: orthogonal, any"), "{e}");
        let e = Options::parse("g", SCHEMA, "tokens=0").unwrap_err();
        assert!(
            e.to_string()
                .contains("auto, or a whole number from 1 to 999"),
            "{e}"
        );
        assert!(matches!(
            Options::parse("g", SCHEMA, "pie"),
            Err(OptionError::Malformed { .. })
        ));
        assert!(matches!(
            Options::parse("g", SCHEMA, "pie=true,pie=false"),
            Err(OptionError::Repeated { .. })
        ));
    }
}
