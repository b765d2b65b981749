//! Reading the JSON files whichgpu ships (the offer snapshot, the GPU and
//! model catalog, the page's Spanish) into the engine's types.
//!
//! Issue 38: serde's derived readers were about 100 KB of the page's
//! WebAssembly (a visitor per type, each inlined into serde_json's generic
//! parser, and again for sequences and `Option`s), compiled and run before
//! the first result. This reader parses a file into a [`Json`] tree that
//! borrows its text, then each type takes its fields by name ([`Fields`]):
//! a call per field. What it accepts is what serde accepted for the same
//! types: unknown fields are ignored, a missing `Option` or defaulted field
//! is its default, a missing required field is an error that names it.
//! Writing stays with serde (`Serialize`); the tests read back what it
//! writes. A field added to one of these types does not compile until its
//! `FromJson` reads it (each builds the whole struct), and each type's
//! tests read a shipped file back whole (`assert_reads_whole`).

use std::borrow::Cow;
use std::fmt;

/// A parsed JSON value, borrowing strings and numbers from the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// The number as written, read when its type is known (`u32`, `f64`).
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Members in the order written.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// Why a file could not be read: where, and what was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    /// The path to the value, outermost last: `["gpu_count", "[17]", "offers"]`.
    path: Vec<String>,
    message: String,
}

impl JsonError {
    /// An error with this message, at the value being read (its path is
    /// added as it is returned through the values that hold it).
    pub fn new(message: impl Into<String>) -> JsonError {
        JsonError { path: Vec::new(), message: message.into() }
    }

    /// The same error, inside `segment` (a field name or `[index]`).
    fn inside(mut self, segment: impl Into<String>) -> JsonError {
        self.path.push(segment.into());
        self
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut path = String::new();
        for segment in self.path.iter().rev() {
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        if path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{path}: {}", self.message)
        }
    }
}

impl std::error::Error for JsonError {}

/// Parses a whole file (UTF-8 JSON text).
pub fn parse(bytes: &[u8]) -> Result<Json<'_>, JsonError> {
    let text = std::str::from_utf8(bytes).map_err(|e| JsonError::new(format!("not UTF-8 text ({e})")))?;
    let mut parser = Parser { text, at: 0 };
    let value = parser.value(0)?;
    parser.skip_space();
    if parser.at < text.len() {
        return Err(parser.error("trailing characters after the value"));
    }
    Ok(value)
}

/// Reads a whole file as `T`.
pub fn read<T: FromJson>(bytes: &[u8]) -> Result<T, JsonError> {
    T::from_json(parse(bytes)?)
}

/// Nesting deeper than any file whichgpu writes (four levels) by far, and
/// shallow enough that a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    /// What is wrong where the parser stands; at the end of the text, that
    /// the file is cut short (a download that stopped, a file half written).
    fn error(&self, what: &str) -> JsonError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let cut = if self.at >= self.text.len() { "the file is cut short: " } else { "" };
        JsonError::new(format!("{cut}{what} at line {line} column {column}"))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, literal: &str) -> Result<(), JsonError> {
        let rest = &self.text[self.at..];
        if rest.starts_with(literal) {
            self.at += literal.len();
            return Ok(());
        }
        if literal.starts_with(rest) {
            // `nu` at the very end: the file was cut inside the word.
            self.at = self.text.len();
        }
        Err(self.error("expected a value"))
    }

    fn value(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.expect("true").map(|()| Json::Bool(true)),
            Some(b'f') => self.expect("false").map(|()| Json::Bool(false)),
            Some(b'n') => self.expect("null").map(|()| Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("expected a value")),
        }
    }

    /// After an item of an array or an object: `,` (another follows,
    /// `false`) or the closing `close` (the end, `true`).
    fn item_end(&mut self, close: u8, expected: &str) -> Result<bool, JsonError> {
        self.skip_space();
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(false)
            }
            Some(byte) if byte == close => {
                self.at += 1;
                Ok(true)
            }
            _ => Err(self.error(expected)),
        }
    }

    /// `[`, values separated by commas, `]`.
    fn array(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if self.item_end(b']', "expected `,` or `]`")? {
                return Ok(Json::Array(items));
            }
        }
    }

    /// `{`, `"name": value` members separated by commas, `}`.
    fn object(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name"));
            }
            let name = self.string()?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:`"));
            }
            self.at += 1;
            members.push((name, self.value(depth + 1)?));
            if self.item_end(b'}', "expected `,` or `}`")? {
                return Ok(Json::Object(members));
            }
        }
    }

    /// A quoted string: borrowed from the text unless it has escapes.
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.at += 1;
        let start = self.at;
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.at) {
            match byte {
                b'"' => {
                    self.at += 1;
                    return Ok(Cow::Borrowed(&self.text[start..self.at - 1]));
                }
                b'\\' => return self.escaped(start).map(Cow::Owned),
                0..=0x1f => return Err(self.error("a control character in a string")),
                _ => self.at += 1,
            }
        }
        Err(self.error("a string that does not end"))
    }

    /// The rest of a string with escapes, from `start`.
    fn escaped(&mut self, start: usize) -> Result<String, JsonError> {
        let mut out = String::from(&self.text[start..self.at]);
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return Err(self.error("a string that does not end"));
            };
            self.at += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let escape = self.peek().ok_or_else(|| self.error("a string that does not end"))?;
                    self.at += 1;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(self.error("an unknown escape in a string")),
                    });
                }
                '\u{0}'..='\u{1f}' => return Err(self.error("a control character in a string")),
                c => out.push(c),
            }
        }
    }

    /// After `\u`: four hex digits, or a surrogate pair of two escapes.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if !self.text[self.at..].starts_with("\\u") {
                return Err(self.error("a lone surrogate in a string"));
            }
            self.at += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("a lone surrogate in a string"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate in a string"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        if self.text.len() - self.at < 4 && self.text[self.at..].bytes().all(|b| b.is_ascii_hexdigit()) {
            // Cut inside the escape.
            self.at = self.text.len();
        }
        let digits = self.text.get(self.at..self.at + 4).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        let digits = digits.ok_or_else(|| self.error("a `\\u` escape without four hex digits"))?;
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| self.error("a `\\u` escape without four hex digits"))
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text;
    /// a malformed one is said where it starts.
    fn number(&mut self) -> Result<Json<'a>, JsonError> {
        let start = self.at;
        if let Err(cut) = self.number_text() {
            // Cut inside the number (`1.` at the very end) is said at the
            // end; a malformed one where it starts.
            self.at = if cut { self.text.len() } else { start };
            return Err(self.error("a malformed number"));
        }
        Ok(Json::Number(&self.text[start..self.at]))
    }

    /// Reads past a number; the error says whether the text ended where a
    /// digit was due (`true`) or the number is malformed.
    fn number_text(&mut self) -> Result<(), bool> {
        let digits = |parser: &mut Parser<'a>| {
            let from = parser.at;
            while matches!(parser.peek(), Some(b'0'..=b'9')) {
                parser.at += 1;
            }
            if parser.at > from {
                Ok(())
            } else {
                Err(parser.at >= parser.text.len())
            }
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let first = self.at;
        digits(self)?;
        if self.text.as_bytes()[first] == b'0' && self.at - first > 1 {
            return Err(false);
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            digits(self)?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            digits(self)?;
        }
        Ok(())
    }
}

impl Json<'_> {
    /// A file's `schema_version`, when it is an object that states one as a
    /// whole number.
    pub fn version(&self) -> Option<u64> {
        let Json::Object(members) = self else { return None };
        match members.iter().find(|(name, _)| name == "schema_version")? {
            (_, Json::Number(text)) => text.parse().ok(),
            _ => None,
        }
    }

    /// What the value is, for messages.
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    fn expected(&self, what: &str) -> JsonError {
        JsonError::new(format!("expected {what}, found {}", self.kind()))
    }
}

/// A type read from a JSON value.
pub trait FromJson: Sized {
    fn from_json(value: Json<'_>) -> Result<Self, JsonError>;
}

impl FromJson for String {
    fn from_json(value: Json<'_>) -> Result<String, JsonError> {
        match value {
            Json::String(text) => Ok(text.into_owned()),
            other => Err(other.expected("a string")),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Json<'_>) -> Result<bool, JsonError> {
        match value {
            Json::Bool(b) => Ok(b),
            other => Err(other.expected("a boolean")),
        }
    }
}

impl FromJson for f64 {
    fn from_json(value: Json<'_>) -> Result<f64, JsonError> {
        match value {
            Json::Number(text) => text.parse().map_err(|_| JsonError::new(format!("{text} is not a number"))),
            other => Err(other.expected("a number")),
        }
    }
}

/// Whole numbers: as written, without a fraction or an exponent.
macro_rules! whole_numbers {
    ($($t:ty),+) => {$(
        impl FromJson for $t {
            fn from_json(value: Json<'_>) -> Result<$t, JsonError> {
                match value {
                    Json::Number(text) => text.parse().map_err(|_| {
                        JsonError::new(format!("{text} is not a whole number from {} to {}", <$t>::MIN, <$t>::MAX))
                    }),
                    other => Err(other.expected("a whole number")),
                }
            }
        }
    )+};
}
whole_numbers!(u8, u32, u64);

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: Json<'_>) -> Result<Option<T>, JsonError> {
        match value {
            Json::Null => Ok(None),
            value => T::from_json(value).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Json<'_>) -> Result<Vec<T>, JsonError> {
        match value {
            Json::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| T::from_json(item).map_err(|e| e.inside(format!("[{i}]"))))
                .collect(),
            other => Err(other.expected("an array")),
        }
    }
}

/// An object's members, taken by name.
pub struct Fields<'a> {
    members: Vec<(Cow<'a, str>, Json<'a>)>,
    /// Where the next name is looked for first: the files list members in
    /// the order their types declare them and are read in, so the member
    /// asked for is usually the next one.
    next: usize,
}

impl<'a> Fields<'a> {
    /// The members of `value`, which must be an object.
    pub fn of(value: Json<'a>) -> Result<Fields<'a>, JsonError> {
        match value {
            Json::Object(members) => Ok(Fields { members, next: 0 }),
            other => Err(other.expected("an object")),
        }
    }

    /// The member `name`, if present, taken out.
    fn take(&mut self, name: &str) -> Option<Json<'a>> {
        let count = self.members.len();
        let at = (0..count).map(|k| (self.next + k) % count).find(|&i| self.members[i].0 == name)?;
        self.next = at + 1;
        Some(std::mem::replace(&mut self.members[at].1, Json::Null))
    }

    /// A field the value must have.
    pub fn required<T: FromJson>(&mut self, name: &str) -> Result<T, JsonError> {
        match self.take(name) {
            Some(value) => T::from_json(value).map_err(|e| e.inside(name)),
            None => Err(JsonError::new(format!("missing field `{name}`"))),
        }
    }

    /// A field that may be missing or null (an `Option`).
    pub fn optional<T: FromJson>(&mut self, name: &str) -> Result<Option<T>, JsonError> {
        self.defaulted(name)
    }

    /// A field that takes its default when missing (serde's `default`).
    pub fn defaulted<T: FromJson + Default>(&mut self, name: &str) -> Result<T, JsonError> {
        match self.take(name) {
            Some(value) => T::from_json(value).map_err(|e| e.inside(name)),
            None => Ok(T::default()),
        }
    }
}

/// Reads a type from its string form (`TryFrom<String>`, as serde's
/// `try_from = "String"` did).
#[macro_export]
macro_rules! json_from_text {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::engine::json::FromJson for $t {
            fn from_json(value: $crate::engine::json::Json<'_>) -> Result<$t, $crate::engine::json::JsonError> {
                let text = <String as $crate::engine::json::FromJson>::from_json(value)?;
                <$t>::try_from(text).map_err(|e| $crate::engine::json::JsonError::new(e.to_string()))
            }
        }
    )+};
}

/// Reads an enum written as one of its names (serde's `rename_all`).
#[macro_export]
macro_rules! json_names {
    ($t:ty { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $crate::engine::json::FromJson for $t {
            fn from_json(value: $crate::engine::json::Json<'_>) -> Result<$t, $crate::engine::json::JsonError> {
                let text = <String as $crate::engine::json::FromJson>::from_json(value)?;
                match text.as_str() {
                    $( $name => Ok(<$t>::$variant), )+
                    other => Err($crate::engine::json::JsonError::new(format!(
                        "unknown value `{other}`, expected one of {}",
                        [$(concat!("`", $name, "`")),+].join(", ")
                    ))),
                }
            }
        }
    };
}

/// For the types' tests: `bytes` (a file whichgpu ships), read as `T` and
/// written again by serde, is the file: the reader drops or misreads no
/// field of any type in it.
#[cfg(test)]
pub(crate) fn assert_reads_whole<T: FromJson + serde::Serialize>(bytes: &[u8]) -> T {
    let read: T = read(bytes).unwrap();
    let file: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), file);
    read
}

/// For the types' tests: each of `values`, as serde writes it, reads back.
#[cfg(test)]
pub(crate) fn assert_names_read_back<T: FromJson + serde::Serialize + PartialEq + fmt::Debug>(values: &[T]) {
    for value in values {
        let written = serde_json::to_string(value).unwrap();
        assert_eq!(&read::<T>(written.as_bytes()).unwrap(), value, "{written}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn values_parse_as_written() {
        let value = parse(br#" {"a": [1, -2.5e3, true, false, null], "b\u00e9\n": "x\"y", "c": {}} "#).unwrap();
        let Json::Object(members) = value else { panic!("not an object") };
        assert_eq!(members[0].0, "a");
        assert_eq!(
            members[0].1,
            Json::Array(vec![
                Json::Number("1"),
                Json::Number("-2.5e3"),
                Json::Bool(true),
                Json::Bool(false),
                Json::Null
            ])
        );
        assert_eq!(members[1], (Cow::Owned("bé\n".to_string()), Json::String(Cow::Owned("x\"y".into()))));
        assert_eq!(members[2].1, Json::Object(Vec::new()));
        assert_eq!(String::from_json(parse(br#""\ud83d\ude00 \/""#).unwrap()).unwrap(), "😀 /");
    }

    #[test]
    fn malformed_text_is_refused_with_where() {
        assert_eq!(error(""), "the file is cut short: expected a value at line 1 column 1");
        assert_eq!(error("{\"a\": [1, 2"), "the file is cut short: expected `,` or `]` at line 1 column 12");
        assert_eq!(error("[1,]"), "expected a value at line 1 column 4");
        assert_eq!(error("{\n\"a\" 1}"), "expected `:` at line 2 column 5");
        assert_eq!(error("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(error("{\"a\":1,}"), "expected a member name at line 1 column 8");
        assert_eq!(error("01"), "a malformed number at line 1 column 1");
        assert_eq!(error("[1.]"), "a malformed number at line 1 column 2");
        assert_eq!(error("-"), "the file is cut short: a malformed number at line 1 column 2");
        assert_eq!(error("-x"), "a malformed number at line 1 column 1");
        assert_eq!(error("[1e+"), "the file is cut short: a malformed number at line 1 column 5");
        assert_eq!(error("[1e+]"), "a malformed number at line 1 column 2");
        assert_eq!(error("[tr"), "the file is cut short: expected a value at line 1 column 4");
        assert_eq!(
            error("\"\\u00"),
            "the file is cut short: a `\\u` escape without four hex digits at line 1 column 6"
        );
        assert_eq!(error("\"abc"), "the file is cut short: a string that does not end at line 1 column 5");
        assert_eq!(error("\"a\u{1}\""), "a control character in a string at line 1 column 3");
        assert_eq!(error(r#""\x""#), "an unknown escape in a string at line 1 column 4");
        assert_eq!(error(r#""\ud800""#), "a lone surrogate in a string at line 1 column 8");
        assert_eq!(error("[] []"), "trailing characters after the value at line 1 column 4");
        assert_eq!(error("nul"), "the file is cut short: expected a value at line 1 column 4");
        assert_eq!(error("nux"), "expected a value at line 1 column 1");
        assert!(parse(&[b'"', 0xff, b'"']).unwrap_err().to_string().starts_with("not UTF-8 text"));
        // Deep nesting is refused, not a stack overflow.
        assert!(error(&"[".repeat(100_000)).starts_with("nested too deeply"));
    }

    #[test]
    fn numbers_read_as_their_type() {
        let number = |text: &str| Json::Number(Box::leak(text.to_string().into_boxed_str()));
        assert_eq!(u32::from_json(number("42")).unwrap(), 42);
        assert_eq!(f64::from_json(number("-2.5e3")).unwrap(), -2500.0);
        assert_eq!(f64::from_json(number("7")).unwrap(), 7.0);
        for refused in ["-1", "4294967296", "3.0", "1e2"] {
            assert!(u32::from_json(number(refused)).is_err(), "{refused}");
        }
        assert_eq!(u8::from_json(number("300")).unwrap_err().to_string(), "300 is not a whole number from 0 to 255");
    }

    #[test]
    fn fields_are_taken_by_name_and_errors_say_where() {
        struct Point {
            x: u32,
            label: Option<String>,
            tags: Vec<String>,
        }
        impl FromJson for Point {
            fn from_json(value: Json<'_>) -> Result<Point, JsonError> {
                let mut f = Fields::of(value)?;
                Ok(Point { x: f.required("x")?, label: f.optional("label")?, tags: f.defaulted("tags")? })
            }
        }
        let points: Vec<Point> =
            read(br#"[{"x": 1, "unknown": [1]}, {"label": null, "x": 2, "tags": ["a"]}]"#).unwrap();
        assert_eq!((points[0].x, points[0].label.as_deref(), points[0].tags.len()), (1, None, 0));
        assert_eq!((points[1].x, points[1].tags.clone()), (2, vec!["a".to_string()]));
        let wrong = |text: &str| read::<Vec<Point>>(text.as_bytes()).err().unwrap().to_string();
        assert_eq!(wrong(r#"[{"x": 1}, {"y": 2}]"#), "[1]: missing field `x`");
        assert_eq!(wrong(r#"[{"x": 1, "tags": [1]}]"#), "[0].tags[0]: expected a string, found a number");
        assert_eq!(wrong(r#"[{"x": "1"}]"#), "[0].x: expected a whole number, found a string");
        assert_eq!(wrong(r#"{"x": 1}"#), "expected an array, found an object");
    }
}
