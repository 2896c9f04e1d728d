//! What a field's sample values look like, read back from the values a sample holds: the key
//! template a key attribute's values share, and the generator that makes values like them.
//!
//! Only the shapes [`crate::generate`] can make are inferred: a constant, an ISO-8601 instant
//! stepping from the earliest, a prefixed counter (`V-7741`, `V-7748`, …), a choice among a few
//! values weighted as often as they were seen, random text of their usual length, a number
//! range, a flag. Values of other types (B outside keys, L, M and the sets) are not generated:
//! the inference leaves those attributes out and says so.

use std::collections::BTreeMap;

use dynotable_types::AttributeValue;

use crate::generate::{Generator, iso8601};
use crate::model::FieldType;

/// Most distinct strings a choice lists; more are drawn as text or a counter.
pub const MAX_CHOICES: usize = 12;

/// Most digits after the point a number range keeps.
const MAX_DECIMALS: u32 = 6;

/// The sort-key group of a key value: the text before the first `#`, or the whole value when
/// it has none (`META`); every number is one group, every binary value another.
pub fn group_of(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(text) => Some(text.split_once('#').map_or(text.as_str(), |(p, _)| p).to_owned()),
        AttributeValue::N(_) => Some("#N".to_owned()),
        AttributeValue::B(_) => Some("#B".to_owned()),
        _ => None,
    }
}

/// A template's literal text, braces doubled (`{{`, `}}`: [`crate::template`]).
pub fn literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The key template an S key attribute's values share, and the part of each value its field
/// holds (none for a literal):
/// - every value the same, seen at least twice, or once without a `#` on the grouping sort
///   key → the literal (`META`) — except on the table's partition key (`may_be_literal`
///   false), which tells collections apart however few the sample saw;
/// - every value with the same text up to its first `#` → that text and the field
///   (`VEH#{vehicleId}`), the field holding the rest of each value;
/// - otherwise the field alone (`{depotCode}`).
pub fn string_template(
    attribute: &str,
    values: &[&str],
    grouping: bool,
    may_be_literal: bool,
) -> (String, Option<Vec<String>>) {
    let first = values.first().copied().unwrap_or_default();
    let all_same = values.iter().all(|v| *v == first);
    if may_be_literal && all_same && (values.len() >= 2 || (grouping && !first.contains('#'))) {
        return (literal(first), None);
    }
    let prefix = |v: &str| v.split_once('#').map(|(p, _)| format!("{p}#"));
    if let Some(shared) = prefix(first)
        && values
            .iter()
            .all(|v| prefix(v).as_deref() == Some(shared.as_str()))
    {
        let rest = values.iter().map(|v| v[shared.len()..].to_owned()).collect();
        return (format!("{}{{{attribute}}}", literal(&shared)), Some(rest));
    }
    (
        format!("{{{attribute}}}"),
        Some(values.iter().map(|v| (*v).to_owned()).collect()),
    )
}

/// Seconds since the epoch of `YYYY-MM-DDTHH:MM:SSZ`, the form [`iso8601`] writes (and only
/// that form: the text must come back the same).
pub fn parse_instant(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // Days since 1970-01-01 from a civil date (Howard Hinnant's algorithm, the inverse of the
    // one `iso8601` uses).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    (iso8601(seconds) == text).then_some(seconds)
}

/// `V-7741` as (`V-`, 7741, 4 digits).
fn counter(text: &str) -> Option<(&str, u64, usize)> {
    let digits = text.len() - text.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 18 {
        return None;
    }
    let (prefix, number) = text.split_at(text.len() - digits);
    Some((prefix, number.parse().ok()?, digits))
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A generator of strings like `values`. `first` is the value a counter starts at when it is
/// one of its values (the collection the history reads most, or the sample's hottest: a skewed
/// reference picks the first values most, [`crate::generate`]);
/// `per` is the field a time steps per value of, with that field's value beside each of
/// `values`: the step is then the usual gap between one collection's instants.
pub fn string_generator(values: &[String], first: Option<&str>, per: Option<(&str, &[String])>) -> Generator {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for v in values {
        *counts.entry(v.as_str()).or_default() += 1;
    }
    if counts.len() == 1 {
        return Generator::Constant {
            value: values[0].clone(),
        };
    }
    let instants: Option<Vec<i64>> = values.iter().map(|v| parse_instant(v)).collect();
    if let Some(mut instants) = instants.filter(|i| !i.is_empty()) {
        let mut gaps = Vec::new();
        if let Some((_, owners)) = per {
            let mut series: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
            for (owner, at) in owners.iter().zip(&instants) {
                series.entry(owner.as_str()).or_default().push(*at);
            }
            for times in series.values_mut() {
                times.sort_unstable();
                gaps.extend(times.windows(2).map(|w| w[1] - w[0]).filter(|g| *g > 0));
            }
        }
        instants.sort_unstable();
        let (low, high) = (instants[0], instants[instants.len() - 1]);
        gaps.sort_unstable();
        let step = match gaps.get(gaps.len() / 2) {
            Some(median) => *median,
            None => (high - low) / (instants.len() as i64 - 1).max(1),
        };
        return Generator::Time {
            start: low,
            step_seconds: step.max(1),
            jitter_seconds: 0,
            per: per.map(|(field, _)| field.to_owned()),
        };
    }
    // Every value distinct and a counter with one prefix: a sequence stepping by the largest
    // step they all share.
    if counts.len() == values.len() {
        let parsed: Option<Vec<(&str, u64, usize)>> = values.iter().map(|v| counter(v)).collect();
        if let Some(parsed) = parsed
            && parsed.iter().all(|(p, _, _)| *p == parsed[0].0)
        {
            let numbers: Vec<u64> = parsed.iter().map(|(_, n, _)| *n).collect();
            let low = numbers.iter().copied().min().unwrap_or(0);
            let step = numbers.iter().fold(0, |g, n| gcd(g, n - low)).max(1);
            let width = if parsed.iter().all(|(_, _, w)| *w == parsed[0].2) {
                parsed[0].2
            } else {
                0
            };
            // `first` may lie outside the sample (a value the history reads): it is taken when
            // it is a value of the same counter, on the same steps.
            let start = first
                .and_then(counter)
                .filter(|(p, n, _)| *p == parsed[0].0 && n.abs_diff(low) % step == 0)
                .map_or(low, |(_, n, _)| n);
            return Generator::Sequence {
                prefix: parsed[0].0.to_owned(),
                start,
                step,
                width,
            };
        }
    }
    if counts.len() <= MAX_CHOICES {
        return Generator::Choice {
            values: counts.keys().map(|v| (*v).to_owned()).collect(),
            weights: counts.values().map(|c| *c as f64).collect(),
        };
    }
    let chars: usize = values.iter().map(|v| v.chars().count()).sum();
    Generator::Text {
        length: (chars as f64 / values.len() as f64).round().max(1.0) as usize,
    }
}

/// A generator of numbers like `values` (their text): a constant, or the range they span with
/// as many decimals as the most precise of them.
pub fn number_generator(values: &[String]) -> Generator {
    if values.iter().all(|v| *v == values[0]) {
        return Generator::Constant {
            value: values[0].clone(),
        };
    }
    let parsed: Vec<f64> = values.iter().filter_map(|v| v.parse::<f64>().ok()).collect();
    let low = parsed.iter().copied().fold(f64::INFINITY, f64::min);
    let high = parsed.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let decimals = values
        .iter()
        .filter(|v| !v.contains(['e', 'E']))
        .map(|v| {
            v.split_once('.')
                .map_or(0, |(_, f)| f.trim_end_matches('0').len() as u32)
        })
        .max()
        .unwrap_or(0)
        .min(MAX_DECIMALS);
    Generator::Number {
        min: low.floor() as i64,
        max: high.ceil() as i64,
        decimals,
    }
}

/// The type DynamoDB names a value by.
pub fn field_type(value: &AttributeValue) -> FieldType {
    match value {
        AttributeValue::S(_) => FieldType::S,
        AttributeValue::N(_) => FieldType::N,
        AttributeValue::B(_) => FieldType::B,
        AttributeValue::BOOL(_) => FieldType::BOOL,
        AttributeValue::NULL => FieldType::NULL,
        AttributeValue::M(_) => FieldType::M,
        AttributeValue::L(_) => FieldType::L,
        AttributeValue::SS(_) => FieldType::SS,
        AttributeValue::NS(_) => FieldType::NS,
        AttributeValue::BS(_) => FieldType::BS,
    }
}

/// The generator of a stored (non-key) attribute of type `ty` from its values, or `None` when
/// values of that type are not generated.
pub fn attribute_generator(ty: FieldType, values: &[&AttributeValue]) -> Option<Generator> {
    match ty {
        FieldType::S => {
            let texts: Vec<String> = values
                .iter()
                .filter_map(|v| match v {
                    AttributeValue::S(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            Some(string_generator(&texts, None, None))
        }
        FieldType::N => {
            let texts: Vec<String> = values
                .iter()
                .filter_map(|v| match v {
                    AttributeValue::N(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            Some(number_generator(&texts))
        }
        FieldType::BOOL => {
            let yes = values
                .iter()
                .filter(|v| matches!(v, AttributeValue::BOOL(true)))
                .count();
            Some(Generator::Flag {
                share: (yes as f64 / values.len().max(1) as f64 * 100.0).round() / 100.0,
            })
        }
        FieldType::NULL => Some(Generator::Constant { value: String::new() }),
        _ => None,
    }
}
