//! A compact binary encoding of the snapshot's and the catalog's serde types
//! (issue 38: the page's parse without serde_json's per-type parsing code).
//!
//! Every value starts with a tag byte; structs are their fields in order
//! (no names), ended by `END`, so the same derives serve JSON and this. A
//! field serde skips when writing (`skip_serializing_if`) is written as
//! `ABSENT`: reading it, an `Option` is `None` and any other field takes its
//! `#[serde(default)]`. Integers are LEB128, floats their digits and the
//! count of decimals (8 bytes little-endian when no short form is exact),
//! strings their UTF-8 bytes after their length, and enum variants their
//! index. Both ends are compiled from the same types: the encoding is for a
//! build's own files, not an exchange format (the JSON files are that).

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::{ser, Deserialize, Serialize};

const ABSENT: u8 = 0;
const UNIT: u8 = 1;
const FALSE: u8 = 2;
const TRUE: u8 = 3;
const UINT: u8 = 4;
/// A negative integer n, written as -(n + 1).
const NEG: u8 = 5;
const FLOAT: u8 = 6;
const STR: u8 = 7;
const SEQ: u8 = 8;
const MAP: u8 = 9;
const SOME: u8 = 10;
const VARIANT: u8 = 11;
const END: u8 = 12;
/// A float with few decimals (a price, a size), as its digits and their
/// count: `13.109` is 3, then 13109 (zigzag). Shorter than 8 bytes, and
/// compresses as the JSON's text does.
const DECIMAL: u8 = 13;

/// The most decimals a float is written with as `DECIMAL`.
const MAX_DECIMALS: u8 = 9;

/// Why bytes could not be read (or a value written).
#[derive(Debug, Clone, PartialEq)]
pub enum WireError {
    /// A field written as absent where its type has no default: the
    /// caller's sequence turns it into the field's default.
    Absent,
    Message(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Absent => f.write_str("a value is missing"),
            WireError::Message(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for WireError {}

impl de::Error for WireError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        WireError::Message(msg.to_string())
    }
}

impl ser::Error for WireError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        WireError::Message(msg.to_string())
    }
}

/// `value` encoded.
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    let mut writer = Writer(Vec::new());
    value.serialize(&mut writer)?;
    Ok(writer.0)
}

/// A `T` read from `bytes`, which must hold nothing after it.
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, WireError> {
    let mut reader = Reader { input: bytes, at: 0 };
    let value = T::deserialize(&mut reader)?;
    if reader.at != bytes.len() {
        return Err(WireError::Message(format!("{} bytes after the value", bytes.len() - reader.at)));
    }
    Ok(value)
}

/// The first field of the struct `bytes` hold, when it is an unsigned
/// integer (a file's schema version), read before the rest.
pub fn leading_uint(bytes: &[u8]) -> Option<u64> {
    let mut reader = Reader { input: bytes, at: 0 };
    (reader.byte().ok()? == SEQ && reader.byte().ok()? == UINT).then(|| reader.leb().ok())?
}

struct Reader<'de> {
    input: &'de [u8],
    at: usize,
}

fn truncated() -> WireError {
    WireError::Message("the file ends in the middle of a value".into())
}

impl<'de> Reader<'de> {
    fn peek(&self) -> Result<u8, WireError> {
        self.input.get(self.at).copied().ok_or_else(truncated)
    }

    fn byte(&mut self) -> Result<u8, WireError> {
        let byte = self.peek()?;
        self.at += 1;
        Ok(byte)
    }

    fn leb(&mut self) -> Result<u64, WireError> {
        let mut value = 0_u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WireError::Message("an integer longer than 64 bits".into()))
    }

    fn take(&mut self, len: usize) -> Result<&'de [u8], WireError> {
        let end = self.at.checked_add(len).filter(|&end| end <= self.input.len()).ok_or_else(truncated)?;
        let bytes = &self.input[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn str(&mut self) -> Result<&'de str, WireError> {
        let len = usize::try_from(self.leb()?).map_err(|_| truncated())?;
        std::str::from_utf8(self.take(len)?).map_err(|e| WireError::Message(e.to_string()))
    }

    /// The tag of a value, which must be there (not absent, not an end).
    fn value(&mut self) -> Result<u8, WireError> {
        match self.peek()? {
            ABSENT => Err(WireError::Absent),
            END => Err(WireError::Message("a value expected, the end of a list found".into())),
            _ => self.byte(),
        }
    }

    /// An integer (a signed 64-bit one: the files' counts and sizes).
    fn integer(&mut self) -> Result<i64, WireError> {
        match self.value()? {
            UINT => i64::try_from(self.leb()?).map_err(de::Error::custom),
            NEG => Ok(-1 - i64::try_from(self.leb()?).map_err(de::Error::custom)?),
            tag => Err(unexpected(tag, "a number")),
        }
    }

    /// Skips one value, whatever it holds.
    fn skip(&mut self) -> Result<(), WireError> {
        match self.byte()? {
            ABSENT | UNIT | FALSE | TRUE => Ok(()),
            UINT | NEG => self.leb().map(drop),
            FLOAT => self.take(8).map(drop),
            DECIMAL => {
                self.byte()?;
                self.leb().map(drop)
            }
            STR => self.str().map(drop),
            SOME => self.skip(),
            VARIANT => {
                self.leb()?;
                self.skip()
            }
            SEQ | MAP => self.finish(),
            tag => Err(unknown(tag)),
        }
    }

    /// Skips what a container's visitor left unread, and its end.
    fn finish(&mut self) -> Result<(), WireError> {
        while self.peek()? != END {
            self.skip()?;
        }
        self.at += 1;
        Ok(())
    }
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

fn unknown(tag: u8) -> WireError {
    WireError::Message(format!("unknown tag {tag}"))
}

/// Deserializer methods that read as another does (`deserialize_i32` as
/// `deserialize_u64`, whose visitor takes any integer).
macro_rules! forward {
    ($to:ident: $($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
            self.$to(visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = WireError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.peek()? {
            ABSENT => return Err(WireError::Absent),
            END => return Err(WireError::Message("a value expected, the end of a list found".into())),
            _ => {}
        }
        match self.byte()? {
            UNIT => visitor.visit_unit(),
            FALSE => visitor.visit_bool(false),
            TRUE => visitor.visit_bool(true),
            UINT => visitor.visit_u64(self.leb()?),
            NEG => visitor.visit_i64(-1 - i64::try_from(self.leb()?).map_err(de::Error::custom)?),
            FLOAT | DECIMAL => {
                self.at -= 1;
                self.deserialize_f64(visitor)
            }
            STR => visitor.visit_borrowed_str(self.str()?),
            SOME => visitor.visit_some(self),
            SEQ => {
                let value = visitor.visit_seq(Items(&mut *self))?;
                self.finish()?;
                Ok(value)
            }
            MAP => {
                let value = visitor.visit_map(Items(&mut *self))?;
                self.finish()?;
                Ok(value)
            }
            tag => Err(unknown(tag)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.peek()? {
            ABSENT | UNIT => {
                self.at += 1;
                visitor.visit_none()
            }
            SOME => {
                self.at += 1;
                visitor.visit_some(self)
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, WireError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, WireError> {
        match self.peek()? {
            VARIANT => {
                self.at += 1;
                visitor.visit_enum(Variant(self))
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        self.skip()?;
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.value()? {
            TRUE => visitor.visit_bool(true),
            FALSE => visitor.visit_bool(false),
            tag => Err(unexpected(tag, "a yes or no")),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        visitor.visit_i64(self.integer()?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.peek()? {
            FLOAT => {
                self.at += 1;
                let bytes: [u8; 8] = self.take(8)?.try_into().map_err(|_| truncated())?;
                visitor.visit_f64(f64::from_le_bytes(bytes))
            }
            DECIMAL => {
                self.at += 1;
                let decimals = self.byte()?.min(MAX_DECIMALS);
                let digits = unzigzag(self.leb()?);
                // Exact: both are integers a double holds, and the quotient
                // is rounded once, as parsing the decimal text is.
                visitor.visit_f64(digits as f64 / 10_f64.powi(i32::from(decimals)))
            }
            _ => visitor.visit_i64(self.integer()?),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.value()? {
            STR => visitor.visit_borrowed_str(self.str()?),
            tag => Err(unexpected(tag, "a text")),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.value()? {
            SEQ => {
                let value = visitor.visit_seq(Items(&mut *self))?;
                self.finish()?;
                Ok(value)
            }
            tag => Err(unexpected(tag, "a list")),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.value()? {
            MAP => {
                let value = visitor.visit_map(Items(&mut *self))?;
                self.finish()?;
                Ok(value)
            }
            tag => Err(unexpected(tag, "a map")),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.value()? {
            UNIT => visitor.visit_unit(),
            tag => Err(unexpected(tag, "nothing")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, WireError> {
        self.deserialize_seq(visitor)
    }

    serde::forward_to_deserialize_any! { i128 u128 char bytes byte_buf }
    forward! { deserialize_u64: deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8 deserialize_u16 deserialize_u32 }
    forward! { deserialize_f64: deserialize_f32 }
    forward! { deserialize_str: deserialize_string deserialize_identifier }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, WireError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, WireError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, WireError> {
        self.deserialize_seq(visitor)
    }
}

fn unexpected(tag: u8, wanted: &str) -> WireError {
    WireError::Message(format!("{wanted} expected, tag {tag} found"))
}

/// The items of a list or a struct, or the entries of a map.
struct Items<'a, 'de>(&'a mut Reader<'de>);

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = WireError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, WireError> {
        if self.0.peek()? == END {
            return Ok(None);
        }
        match seed.deserialize(&mut *self.0) {
            // A skipped field: its struct takes the field's default.
            Err(WireError::Absent) => {
                self.0.at += 1;
                Ok(None)
            }
            read => read.map(Some),
        }
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = WireError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, WireError> {
        if self.0.peek()? == END {
            return Ok(None);
        }
        seed.deserialize(&mut *self.0).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, WireError> {
        seed.deserialize(&mut *self.0)
    }
}

/// An enum's variant: its index, then what it holds.
struct Variant<'a, 'de>(&'a mut Reader<'de>);

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = WireError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), WireError> {
        let index = u32::try_from(self.0.leb()?).map_err(de::Error::custom)?;
        let value = seed.deserialize(IntoDeserializer::<WireError>::into_deserializer(index))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = WireError;

    fn unit_variant(self) -> Result<(), WireError> {
        match self.0.byte()? {
            UNIT => Ok(()),
            tag => Err(unknown(tag)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, WireError> {
        seed.deserialize(self.0)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, WireError> {
        de::Deserializer::deserialize_any(self.0, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, WireError> {
        de::Deserializer::deserialize_any(self.0, visitor)
    }
}

/// The encoder (the snapshot builder's; the page only reads).
struct Writer(Vec<u8>);

impl Writer {
    fn leb(&mut self, mut value: u64) {
        loop {
            let byte = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }

    fn tagged(&mut self, tag: u8, value: u64) {
        self.0.push(tag);
        self.leb(value);
    }

    fn int(&mut self, value: i64) {
        match u64::try_from(value) {
            Ok(value) => self.tagged(UINT, value),
            Err(_) => self.tagged(NEG, (-1 - value) as u64),
        }
    }
}

impl ser::Serializer for &mut Writer {
    type Ok = ();
    type Error = WireError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), WireError> {
        self.0.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), WireError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), WireError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), WireError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), WireError> {
        self.int(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), WireError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), WireError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), WireError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), WireError> {
        self.tagged(UINT, v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), WireError> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), WireError> {
        // The fewest decimals that give `v` back exactly, if any do.
        let short = (0..=MAX_DECIMALS).find_map(|decimals| {
            let scale = 10_f64.powi(i32::from(decimals));
            let digits = (v * scale).round();
            (digits.abs() < 9.0e15 && digits / scale == v && v.to_bits() != (-0.0_f64).to_bits())
                .then_some((decimals, digits as i64))
        });
        match short {
            Some((decimals, digits)) => {
                self.0.extend_from_slice(&[DECIMAL, decimals]);
                self.leb(zigzag(digits));
            }
            None => {
                self.0.push(FLOAT);
                self.0.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), WireError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), WireError> {
        self.tagged(STR, v.len() as u64);
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), WireError> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), WireError> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), WireError> {
        self.0.push(SOME);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), WireError> {
        self.0.push(UNIT);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), WireError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<(), WireError> {
        self.tagged(VARIANT, index.into());
        self.serialize_unit()
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), WireError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), WireError> {
        self.tagged(VARIANT, index.into());
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, WireError> {
        self.0.push(SEQ);
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, WireError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, WireError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        len: usize,
    ) -> Result<Self, WireError> {
        self.tagged(VARIANT, index.into());
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, WireError> {
        self.0.push(MAP);
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, WireError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, WireError> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

impl Writer {
    fn end(&mut self) -> Result<(), WireError> {
        self.0.push(END);
        Ok(())
    }
}

/// The serializer's lists, tuples and their variants: each item in turn,
/// then `END`.
macro_rules! items {
    ($($part:ident :: $item:ident),*) => {$(
        impl ser::$part for &mut Writer {
            type Ok = ();
            type Error = WireError;
            fn $item<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), WireError> {
                Writer::end(self)
            }
        }
    )*};
}

items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The serializer's structs and struct variants: each field in order, a
/// skipped one as `ABSENT`, then `END`.
macro_rules! fields {
    ($($part:ident),*) => {$(
        impl ser::$part for &mut Writer {
            type Ok = ();
            type Error = WireError;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> Result<(), WireError> {
                value.serialize(&mut **self)
            }
            fn skip_field(&mut self, _: &'static str) -> Result<(), WireError> {
                self.0.push(ABSENT);
                Ok(())
            }
            fn end(self) -> Result<(), WireError> {
                Writer::end(self)
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), WireError> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Writer::end(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Catalog, Snapshot};

    #[test]
    fn the_bundled_catalog_and_snapshot_read_back_as_they_were_written() {
        let catalog = Catalog::bundled().unwrap();
        let bytes = to_bytes(catalog).unwrap();
        let back: Catalog = from_bytes(&bytes).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(catalog).unwrap());
        let json = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/public/data/offers.json")).unwrap();
        let snapshot = Snapshot::from_bytes(&json).unwrap();
        let bytes = to_bytes(&snapshot).unwrap();
        let back: Snapshot = from_bytes(&bytes).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&snapshot).unwrap());
        assert_eq!(leading_uint(&bytes), Some(u64::from(snapshot.schema_version)));
        assert!(bytes.len() * 3 < json.len() * 2, "{} bytes against {} of JSON", bytes.len(), json.len());
    }

    #[test]
    fn floats_read_back_bit_for_bit() {
        let floats = [0.0, 1.0, -2.5, 13.109, 4.8035, 0.1 + 0.2, 1e-7, 123_456.789, f64::MAX, -1e300, 1.0 / 3.0, -0.0];
        let back: Vec<f64> = from_bytes(&to_bytes(&floats[..]).unwrap()).unwrap();
        assert_eq!(
            back.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
            floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(to_bytes(&13.109).unwrap().len(), 5, "a price: its tag, 3 decimals and 13109, not 8 bytes");
    }

    #[test]
    fn every_prefix_of_an_encoding_is_an_error_and_never_a_panic() {
        let catalog = Catalog::bundled().unwrap();
        let bytes = to_bytes(&catalog.gpus[..3]).unwrap();
        for end in 0..bytes.len() {
            assert!(from_bytes::<Vec<crate::engine::Gpu>>(&bytes[..end]).is_err(), "{end}");
        }
    }
}
