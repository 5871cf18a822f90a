use super::*;
use crate::shogi::variant::{DropMate, VMove, VPos};

fn load(name: &str) -> LoadedVariant {
    match shipped(name) {
        Ok(v) => v,
        Err((_, ds)) => panic!("{name}: {}", ds[0].message),
    }
}

/// perft from each variant's start, equal to Fairy-Stockfish's perft suite (its
/// tests/perft.sh: minishogi 5 = 533,203; kyotoshogi 5 = 225,903; dobutsu 6 = 71,677 and
/// 2,290 from `g1e/1cL/lC1/E1G[] w - - 4 3` to depth 4; torishogi 4 = 103,857; euroshogi 4 =
/// 380,499), under both drop-mate conventions where no drop mate occurs within the depth.
#[test]
fn perft_equals_fairy_stockfish() {
    let cases: &[(&str, &str, u32, u64)] = &[
        ("minishogi", "startpos", 5, 533_203),
        ("kyotoshogi", "startpos", 5, 225_903),
        ("dobutsu", "startpos", 6, 71_677),
        ("dobutsu", "g1e/1cL/lC1/E1G b - 3", 4, 2_290),
        ("torishogi", "startpos", 4, 103_857),
        ("euroshogi", "startpos", 4, 380_499),
    ];
    for &(name, sfen, depth, want) in cases {
        let v = load(name);
        let mut p = v.variant.position(sfen).unwrap();
        for dm in [DropMate::Illegal, DropMate::Loses] {
            assert_eq!(
                p.perft(depth, dm),
                want,
                "{name} {sfen} depth {depth} {dm:?}"
            );
        }
    }
    // judkins is not in that suite: Fairy-Stockfish (built from its repository, `go perft
    // 4` under `UCI_Variant judkins`) counts 118,345
    let mut p = load("judkins").variant.start();
    assert_eq!(p.perft(4, DropMate::Illegal), 118_345);
    // minishogi's shallower counts, as Fairy-Stockfish gives them
    let mut p = load("minishogi").variant.start();
    let counts: Vec<u64> = (1..=4).map(|d| p.perft(d, DropMate::Illegal)).collect();
    assert_eq!(counts, [14, 181, 2_512, 35_401]);
}

/// The base reading of the core is seed 000's shogi: the compiled engine counts what the
/// standard move generator counts (perft 4 from the start, 719,731, is also
/// Fairy-Stockfish's `shogi startpos 4`).
#[test]
fn the_core_compiles_to_standard_shogi() {
    let v = shipped_core();
    let mut p = v.variant.start();
    assert_eq!(p.perft(4, DropMate::Illegal), 719_731);
}

fn shipped_core() -> LoadedVariant {
    shipped_file("board.rule", None).ok().unwrap()
}

/// A position reached by `plies` random legal moves from the start.
fn played(v: &LoadedVariant, seed: u64, plies: usize) -> VPos {
    let mut p = v.variant.start();
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for _ in 0..plies {
        let ms = p.legal_moves(DropMate::Illegal);
        if ms.is_empty() {
            break;
        }
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        p.do_move(ms[(x >> 33) as usize % ms.len()]);
    }
    p
}

/// The compiled base engine and the standard move generator give the same legal moves on
/// played positions (the standard generator is itself checked against rules/shogi.rule).
#[test]
fn the_core_agrees_with_the_standard_generator_on_played_positions() {
    let v = shipped_core();
    for seed in 0..60 {
        let mut p = played(&v, seed, 20 + (seed as usize % 60));
        let std = crate::shogi::Position::from_sfen(&p.to_sfen()).unwrap();
        let mut ours: Vec<String> = p
            .legal_moves(DropMate::Illegal)
            .into_iter()
            .map(|m| p.move_text(m))
            .collect();
        let mut theirs: Vec<String> = std.legal_moves().iter().map(|m| m.to_usi()).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{}", p.to_sfen());
    }
}

/// The shortcuts of the move generator (in check only the answers; legal without a look
/// where no screen moves; checks only where a piece can reach the royal piece) give what
/// making every pseudo-legal move and looking gives: the legal moves, and the legal checks,
/// under both drop-mate conventions, on played positions of every shipped variant and the
/// core (with pieces added to the hand, and the side to move in check where play leads
/// there).
#[test]
fn shortcuts_agree_with_making_every_move() {
    let mut in_check = 0;
    let mut names: Vec<&str> = crate::shipped::variant_names();
    names.push("");
    for name in names {
        let v = if name.is_empty() {
            shipped_core()
        } else {
            load(name)
        };
        for seed in 0..60u64 {
            let mut p = played(&v, seed * 31 + 7, (seed as usize * 5) % 70);
            if p.over().is_some() {
                continue;
            }
            let side = p.side;
            for (k, kind) in v.variant.tables.spec.kinds.iter().enumerate() {
                if kind.droppable && seed % 3 != 0 {
                    p.hands[side][k] += 1 + (seed % 2) as u32;
                }
            }
            in_check += usize::from(p.in_check(side));
            for dm in [DropMate::Illegal, DropMate::Loses] {
                let mut pseudo = vec![];
                p.pseudo_moves(&mut pseudo);
                let mut legal: Vec<VMove> =
                    pseudo.into_iter().filter(|&m| p.is_legal(m, dm)).collect();
                let mut fast = p.legal_moves(dm);
                legal.sort();
                fast.sort();
                legal.dedup();
                assert_eq!(fast, legal, "{name} {} {dm:?}", p.to_sfen());
                if v.variant.tables.spec.royal != RoyalRule::Check {
                    continue;
                }
                let mut checks: Vec<VMove> = legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let u = p.do_move(m);
                        let c = p.in_check(p.side);
                        p.undo_move(m, u);
                        c
                    })
                    .collect();
                let mut fast = p.legal_checks(dm);
                checks.sort();
                fast.sort();
                assert_eq!(fast, checks, "{name} {} {dm:?}", p.to_sfen());
            }
        }
    }
    assert!(in_check >= 10, "{in_check} positions in check");
}

/// A move as a KIF record writes it: its square (`同　` for the square just moved to), the
/// moving face's first name, `打` for a drop, `成` on a turn (left out at times where the
/// variant forces it), `不成` where it might have promoted, and the square it comes from.
fn kif_move(p: &VPos, m: VMove, last: Option<u8>, ms: &[VMove], terse: bool) -> String {
    let t = &*p.t;
    let kif = t.spec.kif.as_ref().expect("KIF names");
    let square = |sq: usize| {
        let (c, r) = t.coords(sq);
        let col = char::from_u32('０' as u32 + c as u32).unwrap();
        let row = "一二三四五六七八九".chars().nth(r as usize - 1).unwrap();
        format!("{col}{row}")
    };
    let to = if last == Some(m.to) && !m.is_drop() {
        "同　".to_string()
    } else {
        square(m.to as usize)
    };
    if m.is_drop() {
        return format!("{to}{}打", kif.faces[m.face as usize][0]);
    }
    let (face, _) = crate::shogi::variant::piece_of_cell(p.board[m.from as usize]);
    let other = ms
        .iter()
        .any(|n| n.from == m.from && n.to == m.to && n.flip != m.flip);
    let turn = match (m.flip, other) {
        (true, false) if terse => "",
        (true, _) => "成",
        (false, true) => "不成",
        (false, false) => "",
    };
    let (c, r) = t.coords(m.from as usize);
    format!("{to}{}{turn}({c}{r})", kif.faces[face][0])
}

/// KIF records written from random games of minishogi, kyoto shogi and the core (9 x 9
/// shogi, 平手) read back as the moves played; the core's also read so by the standard KIF
/// reader (an independent reader of the same form).
#[test]
fn kif_records_of_played_games_read_back_as_played() {
    for name in ["minishogi", "kyotoshogi", ""] {
        let v = if name.is_empty() {
            shipped_core()
        } else {
            load(name)
        };
        let t = v.variant.tables.clone();
        let game = t.spec.kif.as_ref().expect("KIF names").game.clone();
        for seed in 0..24u64 {
            let mut p = v.variant.start();
            let mut lines = vec![
                "開始日時：2024/01/01".to_string(),
                format!("手合割：{game}"),
                "手数----指手---------消費時間--".to_string(),
            ];
            let mut usi = vec![];
            let mut last = None;
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for ply in 0..(10 + (seed as usize * 13) % 90) {
                let ms = p.legal_moves(DropMate::Illegal);
                if ms.is_empty() || p.over().is_some() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let m = ms[(x % ms.len() as u64) as usize];
                let text = kif_move(&p, m, last, &ms, seed % 2 == 1);
                lines.push(format!("{:>4} {text}   ( 0:01/00:00:01)", ply + 1));
                usi.push(p.move_text(m));
                last = Some(m.to);
                p.do_move(m);
            }
            lines.push(format!("{:>4} 投了", usi.len() + 1));
            let text = lines.join("\n");
            let read = crate::shogi::variant::read_kif(&t, &text, DropMate::Illegal)
                .unwrap_or_else(|e| panic!("{name} seed {seed}: {}\n{text}", e.0[0].message));
            let got: Vec<&str> = read.moves.iter().map(|m| m.usi.as_str()).collect();
            assert_eq!(got, usi, "{name} seed {seed}\n{text}");
            assert_eq!(read.start.to_sfen(), v.variant.start().to_sfen());
            if name.is_empty() {
                let r = crate::shogi::read_kif(&text).expect("the standard reader");
                let std: Vec<String> = r.game.moves.iter().map(|m| m.to_usi()).collect();
                assert_eq!(std, usi, "seed {seed}\n{text}");
            }
        }
    }
}

/// The compiled engine stands for the core's one-step transition and legality: on positions
/// played from the start of every shipped variant, the number of legal moves and perft 2 by
/// the rules (rules/variants/board.rule `legal`, `perft`) equal the engine's.
#[test]
fn every_variant_agrees_with_its_rules_on_played_positions() {
    for name in crate::shipped::variant_names() {
        let mut v = load(name);
        let fid = v
            .program
            .sources
            .add("<q>", None, "perft(s, d)".to_string());
        let e = crate::syntax::parse_expr("perft(s, d)", fid).unwrap();
        let bound_types = [("s", "State"), ("d", "Int")];
        let dummy: Vec<(String, Value, String)> = bound_types
            .iter()
            .map(|(n, ty)| (n.to_string(), Value::Int(0), ty.to_string()))
            .collect();
        let mut q = v.program.compile_query(&e, &dummy).ok().unwrap();
        let binder = crate::bindings::Sound::standard();
        let positions: Vec<VPos> = (0..8)
            .map(|seed| played(&v, seed, seed as usize * 3))
            .collect();
        for (i, p) in positions.iter().enumerate() {
            let depth = if i < 3 { 2 } else { 1 };
            let mut ev = Evaluator::new(&v.program, &binder);
            ev.set_reading(v.reading);
            q.bound = vec![state_value(&v.program, p).ok().unwrap(), Value::Int(depth)];
            let by_rules = match ev.eval_query(&q) {
                Ok(Value::Int(n)) => n as u64,
                other => panic!("{name}: {:?}", other.map(|v| v.to_string())),
            };
            let mut p = p.clone();
            let native = p.perft(depth as u32, DropMate::Illegal);
            assert_eq!(native, by_rules, "{name} {} depth {depth}", p.to_sfen());
        }
    }
}

/// The end of a game by repetition: the engine's `repetition_end` at every ply equals the
/// core's `repetition_winner(g, i)` by the rules, on games that repeat (kings stepping back
/// and forth; a rook checking back and forth, a perpetual check) under variants whose rules
/// differ (a draw; 先手 loses; the mover loses; a perpetual check no loss in dobutsu).
#[test]
fn repetition_ends_as_the_rules_say() {
    use crate::shogi::variant::repetition_end;
    // `first`, then `four` `n` times
    let cycle = |first: &str, four: &str, n: usize| {
        let mut m = first.to_string();
        for _ in 0..n {
            m.push(' ');
            m.push_str(four);
        }
        m
    };
    let cases = [
        (
            "minishogi",
            "4k/5/5/5/K4 b - 1",
            cycle("5e5d 1a1b 5d5e 1b1a", "5e5d 1a1b 5d5e 1b1a", 2),
            (Some(1), false),
        ),
        (
            "judkins",
            "5k/6/6/6/6/KR4 b - 1",
            cycle("5f5a", "1a1b 5a5b 1b1a 5b5a", 3),
            (Some(1), true),
        ),
        (
            "judkins",
            "5k/6/6/6/6/K5 b - 1",
            cycle("6f6e 1a1b 6e6f 1b1a", "6f6e 1a1b 6e6f 1b1a", 2),
            (None, false),
        ),
        (
            "torishogi",
            "6k/7/7/7/7/7/K6 b - 1",
            cycle("7g7f 1a1b 7f7g 1b1a", "7g7f 1a1b 7f7g 1b1a", 2),
            (Some(0), false),
        ),
        (
            "dobutsu",
            "2l/3/3/L2 b - 1",
            cycle("3d3c 1a1b 3c3d 1b1a", "3d3c 1a1b 3c3d 1b1a", 2),
            (None, false),
        ),
    ];
    for (name, sfen, moves, want) in cases {
        let mut v = load(name);
        let mut p = v.variant.position(sfen).unwrap();
        let mut game = vec![p.clone()];
        for m in moves.split_whitespace() {
            let mv = p.parse_move(m, DropMate::Illegal).unwrap();
            p.do_move(mv);
            game.push(p.clone());
        }
        let fid = v
            .program
            .sources
            .add("<q>", None, "repetition_winner(g, i)".to_string());
        let e = crate::syntax::parse_expr("repetition_winner(g, i)", fid).unwrap();
        let dummy = vec![
            ("g".to_string(), Value::Int(0), "Game".to_string()),
            ("i".to_string(), Value::Int(0), "Int".to_string()),
        ];
        let mut q = v.program.compile_query(&e, &dummy).ok().unwrap();
        let binder = crate::bindings::Sound::standard();
        let states: Vec<Value> = game
            .iter()
            .map(|p| state_value(&v.program, p).ok().unwrap())
            .collect();
        for i in 1..=game.len() {
            let native = repetition_end(&game[..i]);
            let mut ev = Evaluator::new(&v.program, &binder);
            ev.set_reading(v.reading);
            q.bound = vec![Value::seq(states[..i].to_vec()), Value::Int(i as i64)];
            let by_rules = match ev.eval_query(&q) {
                Ok(Value::Str(s)) => s.to_string(),
                other => panic!("{name}: {:?}", other.map(|v| v.to_string())),
            };
            let native_text = match native.map(|e| e.winner) {
                None => "",
                Some(None) => "draw",
                Some(Some(0)) => "先手",
                Some(Some(_)) => "後手",
            };
            assert_eq!(native_text, by_rules, "{name} {sfen} ply {}", i - 1);
        }
        let end = repetition_end(&game).unwrap();
        assert_eq!((end.winner, end.perpetual_check), want, "{name} {sfen}");
        // the end comes at the last ply, not before
        assert_eq!(repetition_end(&game[..game.len() - 1]), None, "{name}");
    }
}

/// Dobutsu's end as Fairy-Stockfish's test.py reads it, from `1L1/1g1/1G1/1l1[] w - - 0 1`
/// (both lions on their try rows): after b2a2 (our 2c3c) the side to move, 後手, has made
/// its try; after b4a4 (2a3a) 先手's try stands; after b2b3 (2c2b) both stand, a draw; after
/// b4b3 (2a2b) the game goes on.
#[test]
fn dobutsu_ends_as_fairy_stockfish_reads_the_try() {
    use crate::shogi::variant::Over;
    let v = load("dobutsu");
    for (m, want) in [
        ("2c3c", Some(Over::Try(1))),
        ("2a3a", Some(Over::Try(0))),
        ("2c2b", Some(Over::BothTries)),
        ("2a2b", None),
    ] {
        let mut p = v.variant.position("1L1/1g1/1G1/1l1 b - 1").unwrap();
        let mv = p.parse_move(m, DropMate::Illegal).unwrap();
        p.do_move(mv);
        assert_eq!(p.over(), want, "{m}");
        if want.is_some() {
            assert!(p.legal_moves(DropMate::Illegal).is_empty(), "{m}");
        }
    }
}

/// Mate on the variants: the shortest forced wins, their lengths as Fairy-Stockfish's search
/// gives them for the same positions (`go depth 8`: `score mate N`, N moves of the winner).
#[test]
fn variant_mates_at_their_shortest() {
    use crate::shogi::variant::{MateLimits, MateOutcome};
    // (variant, position, plies, the line where it is the only one; Fairy-Stockfish's
    // principal variation in its coordinates)
    let cases: &[(&str, &str, usize, &str)] = &[
        // mate 1, pv G@d4
        ("minishogi", "4k/5/2G2/5/K4 b G 1", 1, "G*2b"),
        // mate 2, pv S@c4 d5e4 b2e2 (S*3b 2a1a 4d1d; S*2b mates in 3 too)
        ("minishogi", "3k1/5/2G2/1R3/K4 b S 1", 3, ""),
        // mate 2, pv e1e5+ a5b4 G@b3
        ("minishogi", "k4/p4/5/2S2/K3R b GB 1", 3, "1e1a+ 5a4b G*4c"),
        // mate 1, pv b3b4: the giraffe takes the lion
        ("dobutsu", "1l1/1G1/3/L2 b - 1", 1, "2b2a"),
        // mate 1, pv a3a4: a try (3b2a is one too)
        ("dobutsu", "3/L2/2l/3 b - 1", 1, ""),
    ];
    for &(name, sfen, plies, want) in cases {
        let v = load(name);
        let mut p = v.variant.position(sfen).unwrap();
        let r = p.mate_search(MateLimits::default());
        let MateOutcome::Mate(line) = r.outcome else {
            panic!("{name} {sfen}: {:?}", r.outcome)
        };
        assert_eq!(line.len(), plies, "{name} {sfen}");
        let text = p.line_text(&line);
        let mut q = p.clone();
        for m in &line {
            q.do_move(*m);
        }
        // the line ends the game: mate, a captured lion or a try
        assert!(q.legal_moves(DropMate::Illegal).is_empty(), "{name} {sfen}");
        if !want.is_empty() {
            assert_eq!(text.join(" "), want, "{name} {sfen}");
        }
    }
    // no win by checks for the side to move at the start of minishogi within 5 plies
    let mut p = load("minishogi").variant.start();
    let r = p.mate_search(MateLimits {
        max_plies: 5,
        ..MateLimits::default()
    });
    assert_eq!(r.outcome, MateOutcome::NoMate);
}

/// The df-pn search the commands run against the reference search (iterative deepening over
/// every check): the same answer (a win of the same shortest length, or none within the
/// budget) on positions reached by play, with pieces added to the attacker's hand so that
/// wins are common, on every variant with mates of its own kind.
#[test]
fn dfpn_agrees_with_the_reference_search() {
    use crate::shogi::variant::{MateLimits, MateOutcome};
    let mut wins = 0;
    let mut total = 0;
    for (name, plies, budget) in [
        ("minishogi", 12, 7),
        ("dobutsu", 8, 9),
        ("kyotoshogi", 10, 7),
        ("judkins", 12, 5),
        ("torishogi", 10, 5),
    ] {
        let v = load(name);
        for seed in 0..40u64 {
            let mut p = played(&v, seed * 7919 + plies as u64, plies);
            if p.over().is_some() {
                continue;
            }
            // one more of every kind that may be dropped, to the side to move
            let side = p.side;
            for (k, kind) in v.variant.tables.spec.kinds.iter().enumerate() {
                if kind.droppable && seed % 2 == 0 {
                    p.hands[side][k] += 1;
                }
            }
            let limits = MateLimits {
                max_plies: budget,
                max_nodes: 3_000_000,
                ..MateLimits::default()
            };
            let r = p.clone().mate_search_reference(limits.clone());
            // df-pn with a budget far past the reference's: the same shortest win, or none
            // within the reference's budget
            let d = p.clone().mate_search(MateLimits {
                max_plies: 99,
                max_nodes: 40_000,
                ..limits
            });
            let sfen = p.to_sfen();
            total += 1;
            match (&r.outcome, &d.outcome) {
                (MateOutcome::Mate(a), MateOutcome::Mate(b)) => {
                    wins += 1;
                    assert_eq!(a.len(), b.len(), "{name} {sfen}");
                    assert!(d.shortest, "{name} {sfen}");
                    // the line df-pn gives is a win: every move legal, the game over
                    let mut q = p.clone();
                    for m in b {
                        assert!(
                            q.legal_moves(DropMate::Illegal).contains(m),
                            "{name} {sfen}"
                        );
                        q.do_move(*m);
                    }
                    assert!(q.legal_moves(DropMate::Illegal).is_empty(), "{name} {sfen}");
                }
                (MateOutcome::NoMate, MateOutcome::Mate(b)) => {
                    assert!(b.len() as u32 > budget, "{name} {sfen}")
                }
                (MateOutcome::NoMate, _) => {}
                (a, b) => panic!("{name} {sfen}: reference {a:?}, df-pn {b:?}"),
            }
        }
    }
    // the sample is not all of one kind
    assert!(wins >= 20 && total - wins >= 20, "{wins} wins of {total}");
}

/// df-pn on the compiled core (seed 000's shogi as board data) finds the mates of nshogi's
/// problem sets (public data, ../shared/shogi-oracles) at their stated lengths, as the
/// standard df-pn does: a 9 x 9 check of the search on the board the standard engine also
/// plays, with proofs far longer than the lengths asked.
#[test]
fn dfpn_on_the_compiled_core_solves_nshogis_mates() {
    use crate::shogi::test_data::{present, sfens};
    use crate::shogi::variant::{MateLimits, MateOutcome};
    if !present() {
        return;
    }
    let v = shipped_core();
    for plies in [1usize, 3, 5, 7, 9, 11] {
        for sfen in sfens(&format!("mate-{plies}-ply.sfen")).iter().take(6) {
            let mut p = v.variant.position(sfen).unwrap();
            let r = p.mate_search(MateLimits {
                max_plies: 511,
                max_nodes: 2_000_000,
                ..MateLimits::default()
            });
            let MateOutcome::Mate(line) = &r.outcome else {
                panic!("{sfen}: {:?}", r.outcome)
            };
            assert_eq!(line.len(), plies, "{sfen}");
            assert!(r.shortest, "{sfen}");
        }
    }
}

/// The tsume checker judges a variant's position as it judges the standard one: on nshogi's
/// mate problems through the core (the same game as seed 000's shogi), the shortest mate
/// under both ways of counting interpositions and every convention's verdict on the
/// searched line are those of the checker over the standard position.
#[test]
fn the_tsume_checker_reads_the_core_as_the_standard_position() {
    use crate::shogi::test_data::{present, sfens};
    use crate::shogi::tsume::{report, Checker, Futility, CONVENTIONS};
    use crate::shogi::variant::TsumeBoard;
    if !present() {
        return;
    }
    let v = shipped_core();
    let mut judged = 0;
    for plies in [1usize, 3, 5, 7] {
        for sfen in sfens(&format!("mate-{plies}-ply.sfen")).iter().take(5) {
            let std = crate::shogi::Position::from_sfen(sfen).unwrap();
            let ours =
                TsumeBoard::new(v.variant.position(sfen).unwrap(), DropMate::Illegal).unwrap();
            for f in [Futility::Common, Futility::Strict] {
                let a = Checker::new(0, 0).shortest(&std, 9, f).unwrap();
                let b = Checker::new(0, 0).shortest(&ours, 9, f).unwrap();
                assert_eq!(a, b, "{sfen} {f:?}");
            }
            let line = Checker::new(0, 0)
                .line(&std, 9, Futility::Strict)
                .unwrap()
                .unwrap();
            let texts: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
            let mut q = ours.p.clone();
            let line_ours: Vec<VMove> = texts
                .iter()
                .map(|t| {
                    let m = q.parse_move(t, DropMate::Illegal).unwrap();
                    q.do_move(m);
                    m
                })
                .collect();
            for conv in CONVENTIONS {
                let a = report::verdict(&mut Checker::new(0, 0), &std, &line, conv);
                let b = report::verdict(&mut Checker::new(0, 0), &ours, &line_ours, conv);
                assert_eq!((a.sound, a.shortest), (b.sound, b.shortest), "{sfen}");
                // (the two generators list moves in their own orders)
                let norm = |rs: &[String]| -> Vec<String> {
                    rs.iter()
                        .map(|r| match r.rsplit_once(": ") {
                            Some((head, list)) => {
                                let mut l: Vec<&str> = list.split(", ").collect();
                                l.sort();
                                format!("{head}: {}", l.join(", "))
                            }
                            None => r.clone(),
                        })
                        .collect()
                };
                assert_eq!(norm(&a.reasons), norm(&b.reasons), "{sfen} {}", conv.name);
            }
            judged += 1;
        }
    }
    assert_eq!(judged, 20);
}

/// Minishogi mate positions published with an engine's tests (nyashiki/erweitern_55,
/// tests/test_checkmate.py, `test_checkmate1` to `8`: whether the side to move mates by
/// checks within 7 plies), the hands as written there. The verdicts are theirs; the lengths
/// are the shortest, as a checks-only search over Fairy-Stockfish's move generation (pyffish
/// 0.0.90) also finds them. Case 5's only mating move is a pawn drop, a forbidden drop mate.
#[test]
fn minishogi_mates_of_a_published_test_set() {
    use crate::shogi::variant::{MateLimits, MateOutcome};
    let v = load("minishogi");
    let cases: &[(&str, Option<usize>)] = &[
        ("2k2/5/2P2/5/2K2 b G 1", Some(1)),
        ("5/5/2k2/5/2K2 b 2GS 1", Some(5)),
        ("5/5/2k2/5/2K2 b 2G 1", None),
        ("2k2/5/2B2/5/2K2 b GSBRgsr2p 1", Some(3)),
        ("2G1k/5/4G/5/2K2 b P 1", None),
        ("4k/5/4B/5/2K1R b - 1", Some(1)),
        ("4k/4p/5/5/K4 b BG 1", Some(3)),
        ("5/4k/3pp/5/K4 b RG 1", Some(3)),
    ];
    for &(sfen, plies) in cases {
        let mut p = v.variant.position(sfen).unwrap();
        let r = p.mate_search(MateLimits {
            max_plies: 9,
            ..MateLimits::default()
        });
        match (&r.outcome, plies) {
            (MateOutcome::Mate(line), Some(n)) => {
                assert_eq!(line.len(), n, "{sfen}");
                assert!(r.shortest, "{sfen}");
            }
            (MateOutcome::NoMate, None) => {}
            (o, _) => panic!("{sfen}: {o:?}"),
        }
    }
    // where the pawn drop mate is a move that loses (Fairy-Stockfish's convention), case 5
    // still has no mate: the drop ends the game against the side that dropped
    let mut p = v.variant.position("2G1k/5/4G/5/2K2 b P 1").unwrap();
    let r = p.mate_search(MateLimits {
        max_plies: 9,
        drop_mate: DropMate::Loses,
        ..MateLimits::default()
    });
    assert!(
        !matches!(r.outcome, MateOutcome::Mate(_)),
        "{:?}",
        r.outcome
    );
}
