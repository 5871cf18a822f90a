#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The pretty-printer and the parser agree: parse(print(ast)) == ast, for random syntax trees
//! (compared through their Debug text, in which spans print as `@`).

use okite::syntax::ast::*;
use okite::syntax::{parse_expr, parse_file, print_expr, print_file};
use proptest::prelude::*;

fn sp() -> Span {
    Span::default()
}

fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, sp())
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x".to_string()),
        Just("y".to_string()),
        Just("s'".to_string()),
        Just("先手".to_string()),
        Just("盤面".to_string()),
        Just("count".to_string()),
        "[a-z][a-z0-9_]{0,5}".prop_filter("not a keyword", |s| !KEYWORDS.contains(&s.as_str())),
    ]
}

const KEYWORDS: &[&str] = &[
    "use", "enum", "type", "def", "native", "reading", "extends", "override", "example", "theorem",
    "assert", "let", "in", "if", "then", "else", "match", "all", "any", "exists", "and", "or",
    "not", "implies", "iff", "true", "false", "closure", "by", "with", "base", "for", "as",
    "union", "inter", "subset", "mod", "sum", "min", "max",
];

fn pat_name() -> impl Strategy<Value = Pattern> {
    name().prop_map(|n| Pattern {
        kind: PatternKind::Name(n),
        span: sp(),
    })
}

fn pattern() -> impl Strategy<Value = Pattern> {
    let leaf = prop_oneof![
        Just(Pattern {
            kind: PatternKind::Wild,
            span: sp()
        }),
        pat_name(),
        (-50i64..50).prop_map(|i| Pattern {
            kind: PatternKind::Int(i),
            span: sp()
        }),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..3).prop_map(|v| Pattern {
                kind: PatternKind::Tuple(v),
                span: sp()
            }),
            (name(), prop::collection::vec(inner, 1..3)).prop_map(|(n, v)| Pattern {
                kind: PatternKind::Ctor(
                    Name {
                        text: n,
                        span: sp()
                    },
                    v
                ),
                span: sp()
            }),
        ]
    })
}

fn binop() -> impl Strategy<Value = BinOp> {
    use BinOp::*;
    prop::sample::select(vec![
        Implies, Iff, Or, And, Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, Subset, Range, Concat, Add, Sub,
        Union, Diff, Mul, Div, Mod, Inter,
    ])
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (-1000i64..1000).prop_map(|i| e(ExprKind::Int(i))),
        any::<bool>().prop_map(|b| e(ExprKind::Bool(b))),
        "[a-z \"\\\\]{0,6}".prop_map(|s| e(ExprKind::Str(s))),
        name().prop_map(|n| e(ExprKind::Var(n))),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        let b = || prop::collection::vec(inner.clone(), 0..3);
        prop_oneof![
            (binop(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| e(ExprKind::Binary(
                op,
                Box::new(a),
                Box::new(b)
            ))),
            inner
                .clone()
                .prop_map(|a| e(ExprKind::Unary(UnOp::Not, Box::new(a)))),
            // the parser folds `-5` into a literal: the tree it builds never negates a literal
            inner
                .clone()
                .prop_filter("canonical", |a| !matches!(a.kind, ExprKind::Int(_)))
                .prop_map(|a| e(ExprKind::Unary(UnOp::Neg, Box::new(a)))),
            b().prop_map(|v| e(ExprKind::Tuple(v))),
            b().prop_map(|v| e(ExprKind::Set(v))),
            b().prop_map(|v| e(ExprKind::Seq(v))),
            prop::collection::vec((inner.clone(), inner.clone()), 0..3)
                .prop_map(|v| e(ExprKind::Map(v))),
            (inner.clone(), b()).prop_map(|(f, a)| e(ExprKind::Call(Box::new(f), a))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, i)| e(ExprKind::Index(Box::new(a), Box::new(i)))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, i, j)| e(ExprKind::Slice(
                Box::new(a),
                Box::new(i),
                Box::new(j)
            ))),
            (inner.clone(), 1u32..4).prop_map(|(a, k)| e(ExprKind::Proj(Box::new(a), k))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| e(ExprKind::If(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            ))),
            (pattern(), inner.clone(), inner.clone())
                .prop_map(|(p, v, body)| e(ExprKind::Let(vec![(p, v)], Box::new(body)))),
            (pat_name(), inner.clone(), inner.clone()).prop_map(|(p, d, body)| e(ExprKind::Quant(
                Quant::All,
                vec![Binder {
                    pats: vec![p],
                    domain: d
                }],
                Box::new(body)
            ))),
            (pat_name(), inner.clone(), inner.clone()).prop_map(|(p, d, body)| e(ExprKind::Agg(
                Agg::Sum,
                vec![Binder {
                    pats: vec![p],
                    domain: d
                }],
                Box::new(body)
            ))),
            (inner.clone(), pat_name(), inner.clone(), inner.clone()).prop_map(|(h, p, d, g)| e(
                ExprKind::SetComp(Box::new(h), vec![Qual::Gen(p, d), Qual::Guard(g)])
            )),
            (inner.clone(), pattern(), inner.clone())
                .prop_map(|(h, p, d)| e(ExprKind::SeqComp(Box::new(h), vec![Qual::Let(p, d)]))),
            (inner.clone(), inner.clone())
                .prop_map(|(s, f)| e(ExprKind::Closure(Box::new(s), Box::new(f)))),
            (pat_name(), inner.clone())
                .prop_map(|(p, body)| e(ExprKind::Lambda(vec![p], Box::new(body)))),
            (inner.clone(), pattern(), inner.clone(), inner.clone()).prop_map(|(s, p, a, d)| e(
                ExprKind::Match(
                    Box::new(s),
                    vec![
                        Arm {
                            pat: p,
                            guard: None,
                            body: a
                        },
                        Arm {
                            pat: Pattern {
                                kind: PatternKind::Wild,
                                span: sp()
                            },
                            guard: None,
                            body: d
                        }
                    ]
                )
            )),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(m, k, v)| e(ExprKind::With(Box::new(m), vec![(k, v)]))),
        ]
    })
}

fn dbg<T: std::fmt::Debug>(t: &T) -> String {
    format!("{t:?}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn expressions_round_trip(x in expr()) {
        let text = print_expr(&x);
        let back = parse_expr(&text, 0).map_err(|d| TestCaseError::fail(format!("{text}\n{d:?}")))?;
        prop_assert_eq!(dbg(&back), dbg(&x), "printed as: {}", text);
    }

    #[test]
    fn definitions_round_trip(x in expr(), n in name()) {
        let f = File { items: vec![Item::Def(DefDecl {
            name: Name { text: n, span: sp() },
            aliases: vec![],
            params: Some(vec![Param { name: Name { text: "p".into(), span: sp() }, ty: Some(TypeExpr::App(Name { text: "Set".into(), span: sp() }, vec![TypeExpr::Name(Name { text: "Int".into(), span: sp() })])) }]),
            ret: None,
            body: x,
            span: sp(),
        })] };
        let text = print_file(&f);
        let back = parse_file(&text, 0).map_err(|d| TestCaseError::fail(format!("{text}\n{d:?}")))?;
        prop_assert_eq!(dbg(&back), dbg(&f), "printed as: {}", text);
    }
}

#[test]
fn rule_files_round_trip() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let files = std::fs::read_dir(root)
        .unwrap()
        .chain(std::fs::read_dir(format!("{root}/variants")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rule"));
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let ast = parse_file(&text, 0).unwrap();
        let printed = print_file(&ast);
        let back = parse_file(&printed, 0)
            .unwrap_or_else(|d| panic!("{}: {printed}\n{d:?}", path.display()));
        assert_eq!(dbg(&back), dbg(&ast), "{}", path.display());
    }
}
