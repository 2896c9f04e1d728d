//! Request structures read as the service reads them: a JSON object, or null for an absent
//! member. serde's derived structures also take a JSON list (their members in order, serde's
//! tuple form), so `"ProvisionedThroughput": [5, 5]` would pass; the service refuses a list
//! there with `Unrecognized collection type class com.amazonaws.dynamodb.v20120810.<Structure>`
//! (rule B.22.3). These readers refuse it through the structure's own expecting text (`field
//! structure X` / `value structure X`, declared with `#[serde(expecting)]`), which
//! `wrong_type` turns into that sentence; a scalar is handed to the structure itself, as before.

use std::fmt;
use std::marker::PhantomData;

use dynotable_types::{Checked, Item};
use serde::de::value::{
    BoolDeserializer, F64Deserializer, I64Deserializer, MapAccessDeserializer, U64Deserializer,
};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A structure member (`#[serde(deserialize_with)]` on an `Option<T>` field).
pub(crate) fn structure<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    deserializer.deserialize_option(Absent(Object::<T>::new()))
}

/// A list of structures (`#[serde(deserialize_with)]` on an `Option<Vec<T>>` field).
pub(crate) fn structures<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error> {
    deserializer.deserialize_option(Absent(List::<T>::new()))
}

/// BatchGetItem's `Keys`: a list of key maps. Each map is a list element whose type is itself
/// generic, and the service answers a scalar there with the JVM's cast failure (rule B.22.4):
/// the expecting text `a parameterized map` tells `wrong_type` so.
pub(crate) fn keys<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Checked<Vec<Item>>>, D::Error> {
    deserializer.deserialize_option(Absent(Keys))
}

struct Keys;

impl<'de> DeserializeSeed<'de> for Keys {
    type Value = Checked<Vec<Item>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Keys {
    type Value = Checked<Vec<Item>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = seq.next_element_seed(Key)? {
            keys.push(key);
        }
        Ok(keys.into_iter().collect())
    }
}

struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Checked<Item>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Checked<Item>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a parameterized map")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Checked::<Item>::deserialize(MapAccessDeserializer::new(map))
    }
}

/// One structure: its members from a JSON object; a list refused in the structure's words.
pub(crate) struct Object<T>(PhantomData<T>);

impl<T> Object<T> {
    pub(crate) fn new() -> Self {
        Object(PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Object<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Object<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a structure")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        T::deserialize(ListFound(PhantomData))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<T, E> {
        T::deserialize(BoolDeserializer::new(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<T, E> {
        T::deserialize(I64Deserializer::new(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<T, E> {
        T::deserialize(U64Deserializer::new(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<T, E> {
        T::deserialize(F64Deserializer::new(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<T, E> {
        T::deserialize(de::value::StrDeserializer::new(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        T::deserialize(de::value::UnitDeserializer::new())
    }
}

/// A JSON list of structures, each read by [`Object`]. Its expecting text is serde's for a
/// sequence, so a scalar or an object in its place gets the List sentences of rule B.22; a list
/// that is itself a map value (BatchWriteItem's `RequestItems.<table>`) says `a parameterized
/// list`, which the service answers a scalar in with the JVM's cast failure (rule B.22.4).
pub(crate) struct List<T> {
    parameterized: bool,
    element: PhantomData<T>,
}

impl<T> List<T> {
    pub(crate) fn new() -> Self {
        List {
            parameterized: false,
            element: PhantomData,
        }
    }

    pub(crate) fn parameterized() -> Self {
        List {
            parameterized: true,
            element: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for List<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for List<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if self.parameterized {
            "a parameterized list"
        } else {
            "a sequence"
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
        while let Some(element) = seq.next_element_seed(Object::<T>::new())? {
            elements.push(element);
        }
        Ok(elements)
    }
}

/// A member that JSON null (or leaving it out) makes absent.
struct Absent<S>(S);

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Absent<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

/// Stands for a JSON list in front of a structure's derived reader: whatever it asks for, the
/// answer is "a sequence was found", worded with the reader's own expecting text.
struct ListFound<E>(PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for ListFound<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        Err(E::invalid_type(de::Unexpected::Seq, &visitor))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(rename_all = "PascalCase", default, expecting = "field structure Projection")]
    struct Projection {
        projection_type: Option<String>,
    }

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(rename_all = "PascalCase", default)]
    struct Input {
        #[serde(deserialize_with = "structure")]
        projection: Option<Projection>,
        #[serde(deserialize_with = "structures")]
        projections: Option<Vec<Projection>>,
    }

    fn read(body: &str) -> Result<Input, String> {
        serde_json::from_str::<Input>(body).map_err(|err| err.to_string())
    }

    #[test]
    fn an_object_is_read_and_null_is_absent() {
        let input = read(r#"{"Projection": {"ProjectionType": "ALL"}, "Projections": [{}]}"#).unwrap();
        assert_eq!(input.projection.unwrap().projection_type.as_deref(), Some("ALL"));
        assert_eq!(input.projections.unwrap().len(), 1);
        assert!(
            read(r#"{"Projection": null, "Projections": null}"#)
                .unwrap()
                .projection
                .is_none()
        );
    }

    #[test]
    fn a_list_is_refused_in_the_structure_own_words() {
        let err = read(r#"{"Projection": ["ALL"]}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: sequence, expected field structure Projection"),
            "{err}"
        );
        let err = read(r#"{"Projections": [["ALL"]]}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: sequence, expected field structure Projection"),
            "{err}"
        );
    }

    #[test]
    fn a_scalar_is_refused_by_the_structure_and_the_list() {
        let err = read(r#"{"Projection": 5}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: integer `5`, expected field structure Projection"),
            "{err}"
        );
        let err = read(r#"{"Projections": "x"}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: string \"x\", expected a sequence"),
            "{err}"
        );
    }
}
