use super::*;

/// A table counts its next doubling only when the insertions to come can fill it: then
/// the new table of twice the buckets, whatever the old one holds.
#[test]
fn a_table_counts_its_next_growth_only_when_it_can_come() {
    let mut m: FxHashMap<u64, u64> = FxHashMap::default();
    m.reserve(1000);
    let cap = m.capacity();
    assert_eq!(growth(&m, 0), 0);
    assert_eq!(growth(&m, cap / 2), 0);
    let at_once = growth(&m, cap);
    assert!(at_once >= 2 * cap * 17, "{at_once} for {cap} entries");
    m.extend((0..cap as u64).map(|i| (i, i)));
    assert_eq!(m.capacity(), cap);
    assert_eq!(growth(&m, 1), at_once);
}

/// A long classification tells how far it has come: every 65,536 sequences, with the
/// vertex, the question it is on and that question's proof and disproof numbers.
#[test]
fn a_long_classification_tells_how_far_it_has_come() {
    // (the empty 2 x 6 board: about half a million sequences)
    let g = Graph::parse("grid:2x6").unwrap();
    let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
    let told = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = told.clone();
    cl.progress = Some(Box::new(move |p: &LifeProgress| {
        seen.borrow_mut().push(p.clone())
    }));
    let ks = cl.classes(&[Board::empty()]).unwrap();
    assert_eq!(ks.len(), 12);
    let told = told.borrow();
    // every 65,536 sequences; and a question answered, at once (the only tells that
    // bring an answer)
    let mut periodic = 0u64;
    let mut answers = 0;
    for p in told.iter() {
        if p.answers.len() > answers {
            assert_eq!(p.answers.len(), answers + 1, "{p:?}");
            answers += 1;
            let a = p.answers[answers - 1];
            assert_eq!(a.nodes, p.nodes, "{p:?}");
            assert_eq!((a.vertex, Some(a.colour)), (p.vertex, p.colour), "{p:?}");
            // on the empty board White's answer is Black's: only Black's is searched
            assert_eq!(a.colour, Color::Black);
            assert_eq!(ks[a.vertex], if a.gets { Class::N } else { Class::P });
            continue;
        }
        periodic += 1;
        assert_eq!(p.nodes, periodic << 16);
        assert_eq!(p.vertices, 12);
        assert!(
            p.classified < 12 && p.vertex < 12 && p.colour.is_some(),
            "{p:?}"
        );
        // the question's numbers, open both ways while it is asked
        let (pn, dn) = p.numbers.expect("the numbers of the question asked");
        assert!(
            pn > 0 && dn > 0 && pn < u32::MAX / 4 && dn < u32::MAX / 4,
            "{p:?}"
        );
    }
    assert_eq!(periodic, cl.stats.nodes >> 16);
    assert!(periodic > 0, "{} sequences", cl.stats.nodes);
    // one question a vertex searched: one of each orbit of the board's symmetries
    assert!((3..12).contains(&answers), "{answers} answers");
    assert!(
        told.iter().any(|p| p.numbers != told[0].numbers),
        "the numbers follow the search: {told:?}"
    );
    // after a move both questions are searched, and the class is the table's of the two
    let g = Graph::parse("path:6").unwrap();
    let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
    let told = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = told.clone();
    cl.progress = Some(Box::new(move |p: &LifeProgress| {
        seen.borrow_mut().push(p.answers.clone())
    }));
    let seq = sequence_from_moves(&g, "B 3").unwrap();
    let ks = cl.classes_at(&seq, &[0]).unwrap();
    let answers = told.borrow().last().cloned().expect("told");
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(
        (answers[0].colour, answers[1].colour),
        (Color::Black, Color::White)
    );
    assert_eq!(
        ks[0],
        Some(Table::Reconstruction.apply(answers[0].gets, answers[1].gets))
    );
}

fn classes(spec: &str, moves: &str, table: Table) -> String {
    let g = Graph::parse(spec).unwrap();
    let seq = sequence_from_moves(&g, moves).unwrap();
    outcome_classes(&g, &seq, table)
        .unwrap()
        .iter()
        .map(|c| c.letter())
        .collect()
}

#[test]
fn small_paths() {
    // the examples of rules/go_life.rule
    assert_eq!(classes("path:1", "", Table::Reconstruction), "P");
    assert_eq!(classes("path:2", "", Table::Reconstruction), "NN");
    assert_eq!(classes("path:2", "", Table::Cautious), "PP");
    assert_eq!(classes("path:2", "B 1", Table::Reconstruction), "BB");
}

#[test]
fn bad_sequences() {
    let g = Graph::parse("path:3").unwrap();
    for bad in ["X 1", "B 9", "B 1, W 1", "B", "B 1 2"] {
        assert!(sequence_from_moves(&g, bad).is_err(), "{bad}");
    }
    // on the triangle, B 1 then W 2 W 3 captures 1; B 1 again would capture 2 and 3 ...
    // the board after it (B at 1 alone) repeats the second board
    let g = Graph::parse("cycle:3").unwrap();
    let e = sequence_from_moves(&g, "B 1, W 2, W 3, B 1").unwrap_err();
    assert!(e.message.contains("repeats"), "{}", e.message);
}
