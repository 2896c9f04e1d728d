//! The PartiQL parser, planner and runner (`dynotable-engine`'s `partiql`), through
//! ExecuteStatement on the shared in-memory engine (tables `Music` and `Counters`, see the
//! harness).
//!
//! The input is the statement. Each `?` in it is given a parameter in turn: a string, a number,
//! a binary, a list, a map (so that statements with parameters get past the count check and into
//! the planner). Nothing may panic, and every refusal must be a 4xx DynamoDB exception, never a
//! 500.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;

fn parameter(i: usize) -> serde_json::Value {
    match i % 5 {
        0 => json!({"S": "Acme"}),
        1 => json!({"N": "1999"}),
        2 => json!({"B": "AAEC"}),
        3 => json!({"L": [{"N": "1"}, {"S": "x"}]}),
        _ => json!({"M": {"k": {"BOOL": true}}}),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(statement) = std::str::from_utf8(data) else {
        return;
    };
    let count = statement.matches('?').count().min(20);
    let mut request = json!({"Statement": statement});
    if count > 0 {
        request["Parameters"] = (0..count).map(parameter).collect();
    }
    let body = serde_json::to_vec(&request).expect("JSON");
    let answer = dynotable_fuzz::with_engine(async |engine| engine.call("ExecuteStatement", &body).await);
    dynotable_fuzz::check_answer(statement, &answer);
});
