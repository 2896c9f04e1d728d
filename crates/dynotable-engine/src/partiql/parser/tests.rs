use super::*;

fn message(source: &str) -> String {
    parse(source).unwrap_err().message(source)
}

#[test]
fn select_with_index_projection_and_order() {
    let parsed = parse(
        r#"SELECT a, "b c".d[2] FROM "Music"."ByGenre" WHERE g = ? AND n BETWEEN 1 AND ? ORDER BY g DESC"#,
    )
    .unwrap();
    assert_eq!(parsed.parameters, 2);
    let Statement::Select(select) = parsed.statement else {
        panic!("a select")
    };
    assert_eq!(select.from.table, "Music");
    assert_eq!(select.from.index.as_deref(), Some("ByGenre"));
    let paths = select.projection.unwrap();
    assert_eq!(paths[1].display(), "b c.d[2]");
    assert_eq!(select.filter.unwrap().conjuncts().len(), 2);
    assert!(select.order_by[0].descending);
}

#[test]
fn update_with_set_remove_and_returning() {
    let parsed = parse(
        "UPDATE \"T\" SET a = a + 1 SET b = list_append(b, [2]) REMOVE c, d.e WHERE pk = 'x' RETURNING MODIFIED NEW *",
    )
    .unwrap();
    let Statement::Update(update) = parsed.statement else {
        panic!("an update")
    };
    assert_eq!(update.actions.len(), 4);
    assert_eq!(update.returning, Some(Returning::ModifiedNew));
}

#[test]
fn literals() {
    let parsed =
        parse("INSERT INTO t VALUE {'a': -1.5, 'b': <<'x', 'y'>>, 'c': [TRUE, NULL, {'d': ?}]}").unwrap();
    let Statement::Insert(insert) = parsed.statement else {
        panic!("an insert")
    };
    let Expr::Value(Value::Tuple(entries), _) = insert.item else {
        panic!("a tuple")
    };
    assert_eq!(entries.len(), 3);
    assert_eq!(
        entries[0].1,
        Expr::Value(Value::Number("-1.5".into()), Span::new(26, 30))
    );
    assert_eq!(parsed.parameters, 1);
}

#[test]
fn nesting_and_chains_are_bounded() {
    let deep = format!(
        "SELECT * FROM t WHERE {}a = 1{}",
        "(".repeat(150),
        ")".repeat(150)
    );
    assert!(message(&deep).contains("Expression nesting exceeds the maximum depth"));
    let nots = format!("SELECT * FROM t WHERE {}a = 1", "NOT ".repeat(150));
    assert!(message(&nots).contains("Expression nesting exceeds the maximum depth"));
    let long = format!("SELECT * FROM t WHERE a = 1{}", " AND a = 1".repeat(301));
    assert!(message(&long).contains("Expression contains too many operators"));
    let fine = format!("SELECT * FROM t WHERE {}a = 1{}", "(".repeat(90), ")".repeat(90));
    assert!(parse(&fine).is_ok());
}

proptest::proptest! {
    /// Any text parses or fails with a span inside the statement; nothing panics.
    #[test]
    fn never_panics(source in "[ -~éSELCTFROMWHEIN?'\"<>\\[\\]{}().,*=-]{0,80}") {
        if let Err(err) = parse(&source) {
            proptest::prop_assert!(err.span.start <= err.span.end && err.span.end <= source.len());
            let _ = err.message(&source);
        }
    }
}

#[test]
fn errors_name_their_position() {
    assert_eq!(
        message("SELECT * FROM t WHERE a = = 1"),
        "Statement wasn't well formed, can't be processed: Unexpected token = at 1:27:1"
    );
    assert_eq!(
        message("SELECT * FROM t WHERE"),
        "Statement wasn't well formed, can't be processed: Unexpected end of statement at 1:22:0"
    );
    assert_eq!(
        message("SLECT * FROM t"),
        "Statement wasn't well formed, can't be processed: Expected data manipulation"
    );
    assert_eq!(
        message("SELECT COUNT(*) FROM t"),
        "Unexpected path component at 1:8:5"
    );
    assert_eq!(message("SELECT a AS b FROM t"), "Aliasing is not supported");
    assert_eq!(
        message("SELECT * FROM t; SELECT * FROM u"),
        "Only one operation is allowed in a statement."
    );
    assert_eq!(
        message("SELECT * FROM t WHERE a IS DATE"),
        "Unsupported data type for IS operator: DATE. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"
    );
}
