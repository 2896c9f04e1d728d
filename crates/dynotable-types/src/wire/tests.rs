use super::*;
use crate::value::{AttributeMap, Item};

fn checked(json: &str) -> Result<AttributeValue, ValidationError> {
    serde_json::from_str::<Checked<AttributeValue>>(json)
        .expect("well-formed")
        .into_result()
}

fn shape_error(json: &str) -> String {
    serde_json::from_str::<Checked<AttributeValue>>(json)
        .expect_err(json)
        .to_string()
}

fn to_json(value: &AttributeValue) -> String {
    serde_json::to_string(value).expect("serialises")
}

fn n(text: &str) -> Number {
    Number::parse(text).expect("number")
}

#[test]
fn writes_every_type_in_the_wire_format() {
    let cases = [
        (AttributeValue::S("x".into()), r#"{"S":"x"}"#),
        (AttributeValue::N(n("12.50")), r#"{"N":"12.5"}"#),
        (AttributeValue::N(n("-1.5E3")), r#"{"N":"-1500"}"#),
        (AttributeValue::B(b"hello".to_vec()), r#"{"B":"aGVsbG8="}"#),
        (AttributeValue::BOOL(true), r#"{"BOOL":true}"#),
        (AttributeValue::NULL, r#"{"NULL":true}"#),
        (
            AttributeValue::L(vec![AttributeValue::NULL, AttributeValue::S(String::new())]),
            r#"{"L":[{"NULL":true},{"S":""}]}"#,
        ),
        (
            AttributeValue::M(
                [
                    ("b".to_owned(), AttributeValue::BOOL(false)),
                    ("a".to_owned(), AttributeValue::L(vec![])),
                ]
                .into_iter()
                .collect(),
            ),
            r#"{"M":{"a":{"L":[]},"b":{"BOOL":false}}}"#,
        ),
        (
            AttributeValue::SS(Set::new(vec!["b".into(), "a".into()]).expect("set")),
            r#"{"SS":["a","b"]}"#,
        ),
        (
            AttributeValue::NS(Set::new(vec![n("10"), n("9.0")]).expect("set")),
            r#"{"NS":["9","10"]}"#,
        ),
        (
            AttributeValue::BS(Set::new(vec![vec![0xFF], vec![0x00]]).expect("set")),
            r#"{"BS":["AA==","/w=="]}"#,
        ),
    ];
    for (value, json) in cases {
        assert_eq!(to_json(&value), json);
        assert_eq!(checked(json), Ok(value.clone()), "{json}");
        assert_eq!(
            serde_json::from_str::<AttributeValue>(json).expect("strict"),
            value
        );
    }
}

#[test]
fn counts_datatype_keys() {
    assert_eq!(checked("{}"), Err(ValidationError::EmptyAttributeValue));
    assert_eq!(
        checked("{}").map_err(|e| e.message()),
        Err(
            "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
                .to_owned()
        )
    );
    assert_eq!(checked(r#"{"X":"y"}"#), Err(ValidationError::EmptyAttributeValue));
    assert_eq!(
        checked(r#"{"s":"lower case is unknown"}"#),
        Err(ValidationError::EmptyAttributeValue)
    );
    assert_eq!(
        checked(r#"{"S":null}"#),
        Err(ValidationError::EmptyAttributeValue)
    );
    assert_eq!(checked("null"), Err(ValidationError::EmptyAttributeValue));
    assert_eq!(
        checked(r#"{"S":"a","N":"1"}"#),
        Err(ValidationError::MultipleDatatypes)
    );
    assert_eq!(
        checked(r#"{"NULL":true,"BOOL":false}"#).map_err(|e| e.message()),
        Err("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported \
             datatypes"
            .to_owned())
    );
    // Ignored and null members do not count.
    assert_eq!(
        checked(r#"{"S":"a","N":null,"extra":[1,{"x":2}]}"#),
        Ok(AttributeValue::S("a".into()))
    );
}

#[test]
fn reports_value_rules_with_the_service_messages() {
    assert_eq!(checked(r#"{"N":""}"#), Err(ValidationError::EmptyNumber));
    assert_eq!(
        checked(r#"{"N":"abc"}"#),
        Err(ValidationError::InvalidNumber("abc".into()))
    );
    assert_eq!(checked(r#"{"N":"1E126"}"#), Err(ValidationError::NumberOverflow));
    assert_eq!(
        checked(r#"{"NS":["1","x"]}"#),
        Err(ValidationError::InvalidNumber("x".into()))
    );
    assert_eq!(checked(r#"{"NULL":false}"#), Err(ValidationError::NullNotTrue));
    assert_eq!(checked(r#"{"NULL":"no"}"#), Err(ValidationError::NullNotTrue));
    assert_eq!(
        checked(r#"{"SS":[]}"#).map_err(|e| e.message()),
        Err("One or more parameter values were invalid: An string set  may not be empty".into())
    );
    assert_eq!(
        checked(r#"{"BS":[]}"#),
        Err(ValidationError::EmptySet(crate::error::SetKind::Binary))
    );
    assert_eq!(
        checked(r#"{"SS":["a","a"]}"#).map_err(|e| e.message()),
        Err("One or more parameter values were invalid: Input collection [a, a] contains duplicates.".into())
    );
    assert!(matches!(
        checked(r#"{"NS":["1","1.0"]}"#),
        Err(ValidationError::DuplicateSetElements { .. })
    ));
    assert!(matches!(
        checked(r#"{"BS":["AQ==","AQ"]}"#),
        Err(ValidationError::DuplicateSetElements { .. })
    ));
}

#[test]
fn number_errors_win_over_other_value_errors() {
    // Within one value: the number is converted before the datatype keys are counted.
    assert_eq!(
        checked(r#"{"S":"a","N":"x"}"#),
        Err(ValidationError::InvalidNumber("x".into()))
    );
    // Across an item: a later number error beats an earlier structural one.
    let item = r#"{"a":{"NULL":false},"b":{"S":"x","BOOL":true},"c":{"L":[{"N":"1E-131"}]}}"#;
    let result = serde_json::from_str::<Checked<Item>>(item)
        .expect("well-formed")
        .into_result();
    assert_eq!(result, Err(ValidationError::NumberUnderflow));
    // Otherwise the first error in document order is reported.
    let item = r#"{"a":{"M":{"x":{"SS":[]}}},"b":{"S":"x","BOOL":true}}"#;
    let result = serde_json::from_str::<Checked<Item>>(item)
        .expect("well-formed")
        .into_result();
    assert_eq!(
        result,
        Err(ValidationError::EmptySet(crate::error::SetKind::String))
    );
    // A value's own key count beats errors nested inside it.
    assert_eq!(
        checked(r#"{"M":{"x":{}},"S":"y"}"#),
        Err(ValidationError::MultipleDatatypes)
    );
}

#[test]
fn shape_errors_are_serde_errors_even_after_value_errors() {
    assert!(shape_error(r#"{"S":5}"#).contains("invalid type"));
    assert!(shape_error(r#"{"N":12}"#).contains("invalid type"));
    assert!(shape_error(r#"{"L":{}}"#).contains("invalid type"));
    assert!(shape_error(r#"{"BOOL":"true"}"#).contains("invalid type"));
    assert!(shape_error(r#"{"B":"a"}"#).contains("Base64"));
    assert!(shape_error(r#"{"BS":["!!!!"]}"#).contains("Base64"));
    assert!(shape_error(r#""S""#).contains("invalid type"));
    // The shape error in the second attribute is reported although the first broke a value rule.
    let item = r#"{"a":{"N":"x"},"b":{"S":5}}"#;
    assert!(serde_json::from_str::<Checked<Item>>(item).is_err());
}

#[test]
fn strict_deserialisation_carries_the_message() {
    let error = serde_json::from_str::<AttributeValue>(r#"{"N":"NaN"}"#).expect_err("invalid");
    assert!(
        error
            .to_string()
            .starts_with("The parameter cannot be converted to a numeric value: NaN")
    );
    let error = serde_json::from_str::<Item>(r#"{"a":{"SS":["x","x"]}}"#).expect_err("invalid");
    assert!(error.to_string().starts_with(
        "One or more parameter values were invalid: Input collection [x, x] contains duplicates."
    ));
    assert_eq!(
        serde_json::from_str::<Number>(r#""0042""#).expect("valid"),
        n("42")
    );
    assert!(serde_json::from_str::<Number>(r#""1E999""#).is_err());
}

#[test]
fn reads_lists_of_items_and_base64_without_padding() {
    let keys = r#"[{"pk":{"S":"a"}},{"pk":{"B":"AQ"}}]"#;
    let keys = serde_json::from_str::<Checked<Vec<Item>>>(keys)
        .expect("well-formed")
        .into_result()
        .expect("valid");
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[1]["pk"], AttributeValue::B(vec![1]));
    let bad = serde_json::from_str::<Checked<Vec<Item>>>(r#"[{"pk":{}}]"#).expect("well-formed");
    assert_eq!(bad.into_result(), Err(ValidationError::EmptyAttributeValue));
    let empty: AttributeMap = serde_json::from_str::<Checked<AttributeMap>>("{}")
        .expect("ok")
        .into_result()
        .expect("ok");
    assert!(empty.is_empty());
}

#[test]
fn a_list_collected_from_checked_elements_reports_the_number_error_first() {
    let elements = [
        Checked(Ok(AttributeValue::S("a".into()))),
        Checked(Err(ValidationError::EmptyAttributeValue)),
        Checked(Err(ValidationError::NumberOverflow)),
    ];
    let list: Checked<Vec<AttributeValue>> = elements.into_iter().collect();
    assert_eq!(list.into_result(), Err(ValidationError::NumberOverflow));
    let list: Checked<Vec<AttributeValue>> = [Checked(Ok(AttributeValue::NULL))].into_iter().collect();
    assert_eq!(list.into_result(), Ok(vec![AttributeValue::NULL]));
}
