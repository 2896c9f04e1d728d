use super::*;

fn n(text: &str) -> Number {
    Number::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn err(text: &str) -> ValidationError {
    Number::parse(text).expect_err(text)
}

#[test]
fn normalises_like_the_service() {
    // Rule B.9 examples (live-service captures), plus the captured `+` forms.
    for (input, canonical) in [
        ("0042", "42"),
        ("1.200", "1.2"),
        ("1.5E2", "150"),
        ("-0", "0"),
        ("+5", "5"),
        ("+1.5", "1.5"),
        ("+0", "0"),
        ("+1e2", "100"),
        ("1e+2", "100"),
        ("1.5E+3", "1500"),
        ("-7", "-7"),
        ("1.0", "1"),
        ("00042", "42"),
        ("-0.0", "0"),
        (".5", "0.5"),
        ("5.", "5"),
        ("-.50", "-0.5"),
        ("1E-3", "0.001"),
        ("0.000", "0"),
        ("0E999", "0"),
        ("123.456e1", "1234.56"),
        ("1000", "1000"),
        (
            "12345678901234567890123456789012345678",
            "12345678901234567890123456789012345678",
        ),
    ] {
        assert_eq!(n(input).to_string(), canonical, "{input}");
    }
}

#[test]
fn expands_the_extremes_in_full() {
    let largest = format!("9.{}E+125", "9".repeat(37));
    let text = n(&largest).to_string();
    assert_eq!(text.len(), 126);
    assert!(text.bytes().take(38).all(|b| b == b'9') && text.bytes().skip(38).all(|b| b == b'0'));

    let smallest = n("1E-130").to_string();
    assert_eq!(smallest, format!("0.{}1", "0".repeat(129)));
    assert_eq!(n("-1E-130").to_string(), format!("-0.{}1", "0".repeat(129)));
}

#[test]
fn rejects_text_outside_the_grammar() {
    assert_eq!(err(""), ValidationError::EmptyNumber);
    assert_eq!(
        err("").message(),
        "The parameter cannot be converted to a numeric value"
    );
    for bad in [
        "NaN",
        "Infinity",
        "-Infinity",
        "0x10",
        " 5",
        "5 ",
        "1 5",
        "1_000",
        ".",
        "+.",
        "-",
        "+",
        "e5",
        "1e",
        "1e+",
        "+e2",
        "1+2",
        "1.2.3",
        "--1",
        "+-1",
        "1e2.5",
        "1e2e3",
        "١",
        "1,5",
        "1e9999999999",
    ] {
        assert_eq!(
            err(bad),
            ValidationError::InvalidNumber(bad.to_owned()),
            "{bad:?}"
        );
    }
    assert_eq!(
        err("abc").message(),
        "The parameter cannot be converted to a numeric value: abc"
    );
}

#[test]
fn counts_significant_digits_after_trimming_zeros() {
    let thirty_eight = "1".repeat(38);
    assert!(Number::parse(&thirty_eight).is_ok());
    assert_eq!(err(&"1".repeat(39)), ValidationError::TooManyDigits);
    // Zeros around the digits are not significant, wherever the decimal point is.
    assert!(Number::parse(&format!("000{thirty_eight}000")).is_ok());
    assert!(Number::parse(&format!("0.000{thirty_eight}")).is_ok());
    assert!(Number::parse(&format!("{}.{}", "1".repeat(20), "1".repeat(18))).is_ok());
    assert_eq!(
        err(&format!("{}.{}", "1".repeat(20), "1".repeat(19))),
        ValidationError::TooManyDigits
    );
    // Interior zeros are.
    assert_eq!(
        err(&format!("1{}1", "0".repeat(37))),
        ValidationError::TooManyDigits
    );
    // Syntax is checked before digits.
    assert!(matches!(
        err(&format!("{}x", "1".repeat(40))),
        ValidationError::InvalidNumber(_)
    ));
    // Digits are checked before range.
    assert_eq!(
        err(&format!("{}E200", "1".repeat(39))),
        ValidationError::TooManyDigits
    );
}

#[test]
fn enforces_the_range() {
    assert!(Number::parse("9.9999999999999999999999999999999999999E+125").is_ok());
    assert!(Number::parse("-9.9999999999999999999999999999999999999E+125").is_ok());
    assert!(Number::parse("1E-130").is_ok());
    assert!(Number::parse("-1E-130").is_ok());
    assert_eq!(err("1E126"), ValidationError::NumberOverflow);
    assert_eq!(err("-1E126"), ValidationError::NumberOverflow);
    assert_eq!(err("10E125"), ValidationError::NumberOverflow);
    assert_eq!(
        err(&format!("1{}", "0".repeat(126))),
        ValidationError::NumberOverflow
    );
    assert_eq!(err("1E-131"), ValidationError::NumberUnderflow);
    assert_eq!(err("-0.1E-130"), ValidationError::NumberUnderflow);
    assert_eq!(err("1E2147483647"), ValidationError::NumberOverflow);
    assert_eq!(
        err("1E-131").message(),
        "Number underflow. Attempting to store a number with magnitude smaller than supported range"
    );
    // Zero is never out of range, whatever its exponent.
    assert_eq!(n("0E-999999"), Number::ZERO);
}

#[test]
fn equal_values_are_equal_numbers() {
    let hundred = n("100");
    for spelling in [
        "1E2",
        "100.0",
        "1.00E+2",
        "0100",
        "10e1",
        ".1E3",
        "+100",
        "100000e-3",
    ] {
        let other = n(spelling);
        assert_eq!(other, hundred, "{spelling}");
        assert_eq!(other.cmp(&hundred), Ordering::Equal);
        assert_eq!(hash_of(&other), hash_of(&hundred));
    }
    assert_eq!(n("-0"), Number::ZERO);
    assert!(!n("-0").is_negative());
}

fn hash_of(number: &Number) -> u64 {
    use std::hash::{BuildHasher, RandomState};
    // One RandomState hashes deterministically within the process.
    thread_local!(static STATE: RandomState = RandomState::new());
    STATE.with(|state| state.hash_one(number))
}

#[test]
fn orders_numerically() {
    let sorted = [
        "-9.9999999999999999999999999999999999999E+125",
        "-1E100",
        "-100",
        "-99.5",
        "-10",
        "-9",
        "-1.5",
        "-1",
        "-0.5",
        "-1E-130",
        "0",
        "1E-130",
        "0.001",
        "0.0011",
        "0.5",
        "1",
        "1.0000000000000000000000000000000000001", // 38 digits: the smallest step above 1
        "1.5",
        "9",
        "10",
        "99.5",
        "100",
        "1E100",
        "9.9999999999999999999999999999999999999E+125",
    ];
    let numbers: Vec<Number> = sorted.iter().map(|text| n(text)).collect();
    for (i, a) in numbers.iter().enumerate() {
        for (j, b) in numbers.iter().enumerate() {
            assert_eq!(a.cmp(b), i.cmp(&j), "{a} vs {b}");
        }
    }
}

#[test]
fn exposes_its_parts() {
    let x = n("-1.500E3");
    assert_eq!(
        (x.coefficient(), x.exponent(), x.significant_digits()),
        (15, 2, 2)
    );
    assert_eq!(x.scientific_exponent(), Some(3));
    assert!(x.is_negative() && x.is_integer() && !x.is_zero());
    assert_eq!(n("0.05").scientific_exponent(), Some(-2));
    assert_eq!(Number::ZERO.scientific_exponent(), None);
    assert_eq!(x.negated(), n("1500"));
    assert_eq!(x.abs(), n("1500"));
    assert_eq!(Number::ZERO.negated(), Number::ZERO);
    assert_eq!(format!("{x:?}"), "Number(-1500)");
    assert_eq!(std::mem::size_of::<Number>(), 24);
}

#[test]
fn builds_from_parts_and_integers() {
    assert_eq!(
        Number::from_parts(false, 1500, -1).map(|x| x.to_string()),
        Ok("150".to_owned())
    );
    assert_eq!(Number::from_parts(true, 0, 7), Ok(Number::ZERO));
    assert_eq!(
        Number::from_parts(false, u128::MAX, 0),
        Err(ValidationError::TooManyDigits)
    );
    assert_eq!(
        Number::from_parts(false, 10u128.pow(38), 0).map(|x| x.to_string()),
        Ok(format!("1{}", "0".repeat(38)))
    );
    assert_eq!(Number::from(i64::MIN).to_string(), "-9223372036854775808");
    assert_eq!(Number::from(u64::MAX).to_string(), "18446744073709551615");
    assert_eq!(Number::from(0u8), Number::ZERO);
    assert_eq!(Number::from(-42i32), n("-42"));
}

#[test]
fn converts_to_machine_numbers() {
    assert_eq!(n("1.7E3").to_i64(), Some(1700));
    assert_eq!(n("-9223372036854775808").to_i64(), Some(i64::MIN));
    assert_eq!(n("9223372036854775808").to_i64(), None);
    assert_eq!(n("1.5").to_i64(), None);
    assert_eq!(n("1E20").to_i64(), None);
    assert_eq!(Number::ZERO.to_i64(), Some(0));
    assert_eq!(n("12.5").to_f64(), 12.5);
    assert_eq!(n("-1E-130").to_f64(), -1e-130);
}

#[test]
fn adds_and_subtracts_exactly() {
    for (a, b, sum) in [
        ("1", "2", "3"),
        ("0.1", "0.2", "0.3"),
        ("1.5", "-1.5", "0"),
        ("-1", "0.25", "-0.75"),
        ("1E10", "1E-10", "10000000000.0000000001"),
        ("99", "1", "100"),
        ("-0.001", "-0.009", "-0.01"),
        ("5", "0", "5"),
        ("0", "-5", "-5"),
        // 38 nines plus one: the carry makes a one-digit result.
        (
            "99999999999999999999999999999999999999",
            "1",
            "100000000000000000000000000000000000000",
        ),
        // Cancellation down from the top of the range.
        (
            "9.9999999999999999999999999999999999999E+125",
            "-9.9999999999999999999999999999999999998E+125",
            "1E+88",
        ),
        // Operands 39 decades apart whose difference still fits.
        ("1E100", "-9.9999999999999999999999999999999999999E+99", "1E+62"),
        ("1E38", "-1", "99999999999999999999999999999999999999"),
    ] {
        let (a, b, expected) = (n(a), n(b), n(sum));
        assert_eq!(a.checked_add(&b), Ok(expected), "{a} + {b}");
        assert_eq!(b.checked_add(&a), Ok(expected), "{b} + {a}");
        assert_eq!(expected.checked_sub(&b), Ok(a), "{expected} - {b}");
    }
}

#[test]
fn refuses_results_the_service_cannot_store() {
    let max = n("9.9999999999999999999999999999999999999E+125");
    assert_eq!(max.checked_add(&n("1E+88")), Err(ValidationError::NumberOverflow));
    assert_eq!(
        max.negated().checked_sub(&n("1E+88")),
        Err(ValidationError::NumberOverflow)
    );
    assert_eq!(
        n("1E125").checked_add(&n("1")),
        Err(ValidationError::TooManyDigits)
    );
    assert_eq!(
        n("1E125").checked_sub(&n("1E-130")),
        Err(ValidationError::TooManyDigits)
    );
    assert_eq!(
        n("1E38").checked_add(&n("1")),
        Err(ValidationError::TooManyDigits)
    );
    assert_eq!(
        n("1E39").checked_sub(&n("1")),
        Err(ValidationError::TooManyDigits)
    );
    assert_eq!(
        n("1.1E-130").checked_sub(&n("1E-130")),
        Err(ValidationError::NumberUnderflow)
    );
    assert_eq!(
        n("12345678901234567890123456789012345678").checked_add(&n("0.1")),
        Err(ValidationError::TooManyDigits)
    );
}
