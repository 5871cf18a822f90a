#![forbid(unsafe_code)]
//! The session's commands (`:help`, `:load`, `:board`, `:explain`, ...): `Session::command`
//! dispatches a command to the method that carries it out.

use super::*;

impl Session {
    pub(super) fn command(
        &mut self,
        cmd: &str,
        arg: &str,
        line: &str,
        off: usize,
        ev: &mut Evaluator,
    ) -> Flow {
        match cmd {
            "help" | "h" | "?" => {
                help();
                Flow::Continue
            }
            "quit" | "q" | "exit" => Flow::Quit,
            "load" => self.load(arg),
            "reload" => {
                let flag = self.interrupt.clone();
                interruptible_by(flag.as_ref(), || self.reload(ev))
            }
            "sfen" => self.set_sfen(arg, line, off),
            "moves" => self.play_moves(arg, line, off),
            "kif" | "csa" if self.states_variant() => self.board_record(cmd, arg),
            "kif" | "csa" => self.shogi_record(cmd, arg),
            "go" => self.set_go(arg, line, off),
            "reading" => self.set_reading(arg, ev),
            "board" => self.board(),
            "legal" => {
                self.legal(ev);
                Flow::Continue
            }
            "compare" => {
                self.compare(arg, line, off, ev);
                Flow::Continue
            }
            "explain" => self.explain(arg, line, off, ev),
            "time" => self.time(arg, line, off, ev),
            "type" | "t" => {
                if let Some(q) = self.compile_text(line, off, arg) {
                    println!("{arg} : {}", q.ty);
                }
                Flow::Continue
            }
            "defs" => {
                self.defs(arg);
                Flow::Continue
            }
            _ => {
                let all: Vec<&str> = COMMANDS.iter().map(|c| &c.name[1..]).collect();
                match crate::diagnostics::suggest(cmd, all.iter().copied()) {
                    Some(s) => fail!(
                        self,
                        "error: unknown command `:{cmd}`; did you mean `:{s}`? (:help lists them)"
                    ),
                    None => fail!(self, "error: unknown command `:{cmd}` (:help lists them)"),
                }
                Flow::Continue
            }
        }
    }

    /// `:load FILE`: the rule file or folder added to the session's, all checked again.
    fn load(&mut self, arg: &str) -> Flow {
        if arg.is_empty() {
            fail!(self, "error: :load needs a rule file or folder");
            return Flow::Continue;
        }
        let mut paths = self.paths.clone();
        paths.push(PathBuf::from(arg));
        // Ctrl-C while the files are read and checked stops the load
        let flag = self.interrupt.clone();
        if interruptible_by(flag.as_ref(), || self.adopt(&paths)) {
            self.paths = paths;
            println!("{}", self.summary());
            Flow::Rebuild
        } else {
            Flow::Continue
        }
    }

    /// `:kif FILE` or `:csa FILE` of standard shogi: the record's positions become the game.
    fn shogi_record(&mut self, cmd: &str, arg: &str) -> Flow {
        let format = if cmd == "kif" {
            crate::front::RecordFormat::Kif
        } else {
            crate::front::RecordFormat::Csa
        };
        let read = crate::front::read_record(std::path::Path::new(arg), format);
        match crate::front::record_positions(read) {
            Ok(ps) => {
                let moves = moves_between(&ps);
                self.shogi = Some(ShogiGame {
                    positions: ps,
                    moves,
                });
                self.current = Some(Current::Shogi);
                self.game_note();
            }
            Err((sources, ds)) => self.diags(&ds, &sources),
        }
        Flow::Continue
    }

    /// `:reading [NAME]`: the reading in force, or another one.
    fn set_reading(&mut self, arg: &str, ev: &mut Evaluator) -> Flow {
        if arg.is_empty() {
            let names: Vec<&str> = self.prog.reading_names.keys().map(|s| s.as_str()).collect();
            println!("reading {} (readings: {})", self.reading, names.join(", "));
            return Flow::Continue;
        }
        match self.prog.reading_or_error(arg) {
            Ok(r) => {
                self.reading = arg.to_string();
                ev.set_reading(r);
                println!("reading {arg}");
            }
            Err(d) => self.diags(&[d], &self.prog.sources),
        }
        Flow::Continue
    }

    /// `:board`: the current game's board drawn, with what is known of the game.
    #[expect(
        clippy::expect_used,
        reason = "the command runs only when the session holds a game; a game's history is never empty: it starts with the position given"
    )]
    fn board(&mut self) -> Flow {
        match self.current {
            Some(Current::Shogi) => {
                let sg = self.shogi.as_ref().expect("a game");
                let p = sg.positions.last().expect("a position");
                print!("{}", p.diagram());
                println!("sfen {}", p.to_sfen());
                println!(
                    "i = {} ({} played)",
                    sg.positions.len(),
                    count(sg.moves.len(), "move")
                );
            }
            Some(Current::Board) => self.board_diagram(),
            Some(Current::Go) => {
                let go = self.go.as_ref().expect("a board");
                print!("{}", crate::go::render::diagram(&go.graph, &go.board));
                println!(
                    "{} to play ({} played)",
                    if go.to_move == Color::Black {
                        "Black (X)"
                    } else {
                        "White (O)"
                    },
                    count(go.moves.len(), "move")
                );
            }
            None => fail!(self, "error: no game yet: set one with :sfen, :kif or :go"),
        }
        Flow::Continue
    }

    /// `:explain [--depth N] EXPR`: the value, and the tree of the calls that made it.
    fn explain(&mut self, arg: &str, line: &str, off: usize, ev: &mut Evaluator) -> Flow {
        let (depth, arg, off) = match depth_option(arg, off) {
            Ok(x) => x,
            Err(m) => {
                fail!(self, "{m}");
                return Flow::Continue;
            }
        };
        if let Some(q) = self.compile_text(line, off, arg) {
            let (r, tree) = interruptible(ev, |ev| ev.explain_query(&q));
            match r {
                Ok(v) => {
                    println!("{arg} = {}", self.show(&v));
                    print!("{}", explain::render(&tree, &self.prog, depth));
                }
                Err(e) => self.eval_error(e, ev),
            }
        }
        Flow::Continue
    }

    /// `:time EXPR`: the value, with the time and the evaluator's work it took.
    fn time(&mut self, arg: &str, line: &str, off: usize, ev: &mut Evaluator) -> Flow {
        if let Some(q) = self.compile_text(line, off, arg) {
            let before = ev.stats.clone();
            let t0 = Instant::now();
            let r = interruptible(ev, |ev| ev.eval_query(&q));
            let dt = t0.elapsed();
            match r {
                Ok(v) => println!("{}", self.show(&v)),
                Err(e) => self.eval_error(e, ev),
            }
            let s = &ev.stats;
            println!(
                "time {dt:.2?}; {} calls, {} memo hits, {} native calls, {} steps; memo tables hold {} entries",
                s.calls - before.calls,
                s.memo_hits - before.memo_hits,
                s.native_calls - before.native_calls,
                s.steps - before.steps,
                ev.memo_len()
            );
        }
        Flow::Continue
    }

    /// `:defs [TEXT]`: the signatures of the definitions whose names hold the text.
    fn defs(&self, arg: &str) {
        let mut n = 0;
        for (name, k) in &self.prog.key_names {
            if name.contains(arg) {
                println!("{}", self.prog.signature(*k));
                n += 1;
            }
        }
        if n == 0 {
            println!("(no definition has `{arg}` in its name)");
        }
    }
}

/// `:help`: what the session does with a line, and its commands.
fn help() {
    let w = COMMANDS
        .iter()
        .map(|c| c.name.len() + 1 + c.args.len())
        .max()
        .unwrap_or(10);
    println!("An expression of the rule language is evaluated and its value printed. Definitions");
    println!(
        "typed here are added, in place of same-named ones of the rule files, for the session."
    );
    for c in COMMANDS {
        let u = if c.args.is_empty() {
            c.name.to_string()
        } else {
            format!("{} {}", c.name, c.args)
        };
        println!("  {u:w$}  {}", c.help);
    }
}
