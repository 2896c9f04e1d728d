//! The service's sentence for a request member of the wrong JSON type (rule B.22 in
//! docs/dynamodb-rules.md).
//!
//! serde_json reports such a member as `invalid type: <found>, expected <what>`, where `<what>`
//! is the expecting text of the visitor that read the member. The JSON kind found and the kind
//! of member expected are enough to word the service's sentence, so that is all this reads:
//!
//! | expecting text                                      | member kind            |
//! | --------------------------------------------------- | ---------------------- |
//! | `a string`, `a number string` (`N`, `NS` elements)  | String                 |
//! | `i64` (serde's)                                     | Integer                |
//! | `a Long` ([`super::body::long`])                    | Long                   |
//! | `a boolean` (serde's and [`super::body::boolean`])  | Boolean                |
//! | `a base64 string` (`B`, `BS` elements)              | Blob                   |
//! | `a sequence` (serde's), `a list` (`L`)              | List                   |
//! | `a parameterized list`, `a parameterized map`       | a list in a map, a map in a list (B.22.4) |
//! | `a map` (serde's)                                   | Map, value type unknown|
//! | `a map of attribute names to values` (items, keys)  | Map of AttributeValue  |
//! | `a map of <class>` ([`super::body::map`])           | Map of that class      |
//! | `an AttributeValue object`                          | AttributeValue in a list or map |
//! | `field structure X` / `value structure X`           | a structure member, or a list element / map value (`#[serde(expecting)]`) |
//!
//! A list given for a request structure reaches this as `invalid type: sequence` only because
//! `api::objects` reads structures as JSON objects (serde's derived reader would take the list).
//!
//! A combination the captures do not give (an Integer member given a fraction, a JSON null
//! inside a list, a list where a map of unknown value type belongs, a list given for a
//! structure whose model class is not declared) keeps serde_json's own text: no sentence is
//! made up.

/// The JSON kind a wrong-typed member held, as serde_json names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Text,
    Integer,
    Decimal,
    True,
    False,
    List,
    Object,
    Null,
}

impl Found {
    fn of(found: &str) -> Option<Found> {
        Some(match found {
            "boolean `true`" => Found::True,
            "boolean `false`" => Found::False,
            "sequence" => Found::List,
            "map" => Found::Object,
            "null" | "unit value" => Found::Null,
            _ if found.starts_with("string ") => Found::Text,
            _ if found.starts_with("integer ") => Found::Integer,
            _ if found.starts_with("floating point ") => Found::Decimal,
            _ => return None,
        })
    }

    fn is_scalar(self) -> bool {
        matches!(
            self,
            Found::Text | Found::Integer | Found::Decimal | Found::True | Found::False
        )
    }
}

/// The JVM's answer to a scalar where a generic collection sits directly inside another (rule
/// B.22.4), as the captures quote it.
const CAST: &str = "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class \
                    java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and \
                    java.lang.Class are in module java.base of loader 'bootstrap')";

/// The Java package of DynamoDB's model classes, as the service's sentences name them.
const MODEL: &str = "com.amazonaws.dynamodb.v20120810";

/// The sentence for one serde_json error of the data category: the service's, where rule B.22
/// gives it, else serde_json's message without its position.
pub(super) fn sentence(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let text = text.strip_suffix(&suffix).unwrap_or(&text);
    service_sentence(text).unwrap_or_else(|| text.to_owned())
}

fn service_sentence(text: &str) -> Option<String> {
    let rest = text.strip_prefix("invalid type: ")?;
    let split = rest.rfind(", expected ")?;
    let found = Found::of(&rest[..split])?;
    let expected = &rest[split + ", expected ".len()..];
    let object = "Start of structure or map found where not expected";
    let sentence = match expected {
        "a string" | "a number string" => converted(found, "String")?,
        "i64" => converted(found, "Integer")?,
        "a Long" => converted(found, "Long")?,
        "a boolean" => match found {
            Found::Text => "Unexpected token received from parser".to_owned(),
            _ => converted(found, "Boolean")?,
        },
        "a base64 string" => match found {
            Found::True | Found::False | Found::Integer | Found::Decimal => {
                "only base-64-encoded strings are convertible to bytes".to_owned()
            }
            Found::List => "Unrecognized collection type class java.nio.ByteBuffer".to_owned(),
            Found::Object => object.to_owned(),
            Found::Text | Found::Null => return None,
        },
        "a sequence" | "a list" => match found {
            _ if found.is_scalar() => "Unexpected field type".to_owned(),
            Found::Object => object.to_owned(),
            _ => return None,
        },
        // Rule B.22.4: a generic collection directly inside another one.
        "a parameterized list" => match found {
            _ if found.is_scalar() => CAST.to_owned(),
            Found::Object => object.to_owned(),
            _ => return None,
        },
        "a parameterized map" => match found {
            _ if found.is_scalar() => CAST.to_owned(),
            Found::List => {
                format!(
                    "Unrecognized collection type java.util.Map<java.lang.String, {MODEL}.AttributeValue>"
                )
            }
            _ => return None,
        },
        "a map" => match found {
            _ if found.is_scalar() => "Unexpected field type".to_owned(),
            _ => return None,
        },
        _ if expected.starts_with("a map of ") => match found {
            _ if found.is_scalar() => "Unexpected field type".to_owned(),
            Found::List => {
                let class = match &expected["a map of ".len()..] {
                    "attribute names to values" => format!("{MODEL}.AttributeValue"),
                    class => class.to_owned(),
                };
                format!("Unrecognized collection type java.util.Map<java.lang.String, {class}>")
            }
            _ => return None,
        },
        "an AttributeValue object" => structure(found, false, "AttributeValue")?,
        _ => {
            let (field, name) = if let Some(name) = expected.strip_prefix("field structure") {
                (true, name.trim_start())
            } else {
                (false, expected.strip_prefix("value structure")?.trim_start())
            };
            structure(found, field, name)?
        }
    };
    Some(sentence)
}

/// A scalar member (String, Integer, Long, Boolean) given another JSON kind: the service names
/// the token it read and the Java type it wanted. Only the pairs rule B.22 records are given.
fn converted(found: Found, java: &str) -> Option<String> {
    let token = match (found, java) {
        (Found::True, _) => "TRUE_VALUE",
        (Found::False, _) => "FALSE_VALUE",
        (Found::Integer, "String" | "Boolean") => "NUMBER_VALUE",
        (Found::Decimal, "String" | "Boolean") => "DECIMAL_VALUE",
        (Found::Text, "Integer" | "Long") => "STRING_VALUE",
        (Found::List, _) => return Some(format!("Unrecognized collection type class java.lang.{java}")),
        (Found::Object, _) => return Some("Start of structure or map found where not expected".to_owned()),
        _ => return None,
    };
    Some(format!("{token} cannot be converted to {java}"))
}

/// A structure given a scalar or a list. `field`: the structure is a member of another
/// structure (rather than a list element or a map value). `name`: its class in the model, when
/// the Rust type declares it.
fn structure(found: Found, field: bool, name: &str) -> Option<String> {
    match found {
        _ if found.is_scalar() && field => Some("Unexpected field type".to_owned()),
        _ if found.is_scalar() => Some("Unexpected value type in payload".to_owned()),
        Found::List if !name.is_empty() => Some(format!("Unrecognized collection type class {MODEL}.{name}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer<T: serde::de::DeserializeOwned + std::fmt::Debug>(body: &str) -> String {
        sentence(&serde_json::from_str::<T>(body).expect_err("a wrong type"))
    }

    #[test]
    fn a_string_member_names_the_token_it_read() {
        assert_eq!(
            answer::<String>("5"),
            "NUMBER_VALUE cannot be converted to String"
        );
        assert_eq!(
            answer::<String>("5.5"),
            "DECIMAL_VALUE cannot be converted to String"
        );
        assert_eq!(
            answer::<String>("true"),
            "TRUE_VALUE cannot be converted to String"
        );
        assert_eq!(
            answer::<String>("false"),
            "FALSE_VALUE cannot be converted to String"
        );
        assert_eq!(
            answer::<String>("[]"),
            "Unrecognized collection type class java.lang.String"
        );
        assert_eq!(
            answer::<String>("{}"),
            "Start of structure or map found where not expected"
        );
    }

    #[test]
    fn an_integer_member_names_the_token_it_read() {
        assert_eq!(
            answer::<i64>("\"5\""),
            "STRING_VALUE cannot be converted to Integer"
        );
        assert_eq!(answer::<i64>("true"), "TRUE_VALUE cannot be converted to Integer");
        assert_eq!(
            answer::<i64>("[1]"),
            "Unrecognized collection type class java.lang.Integer"
        );
    }

    #[test]
    fn a_pair_the_captures_do_not_give_keeps_serde_json_text() {
        assert_eq!(
            answer::<i64>("1.5"),
            "invalid type: floating point `1.5`, expected i64"
        );
        assert_eq!(
            answer::<Vec<String>>("[null]"),
            "invalid type: null, expected a string"
        );
    }

    #[test]
    fn lists_and_maps_given_a_scalar_are_an_unexpected_field_type() {
        assert_eq!(answer::<Vec<String>>("\"a\""), "Unexpected field type");
        assert_eq!(
            answer::<Vec<String>>("{}"),
            "Start of structure or map found where not expected"
        );
        assert_eq!(
            answer::<std::collections::BTreeMap<String, String>>("7"),
            "Unexpected field type"
        );
    }

    #[test]
    fn a_structure_is_a_field_or_a_value() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(expecting = "field structure Projection")]
        #[allow(dead_code)]
        struct Field {
            a: Option<String>,
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(expecting = "value structure Tag")]
        #[allow(dead_code)]
        struct Value {
            a: Option<String>,
        }
        assert_eq!(answer::<Field>("1"), "Unexpected field type");
        assert_eq!(answer::<Value>("\"x\""), "Unexpected value type in payload");
        assert_eq!(
            service_sentence("invalid type: sequence, expected value structure Tag").as_deref(),
            Some("Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Tag")
        );
    }
}
