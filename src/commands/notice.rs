#![forbid(unsafe_code)]
//! What a command says of who answered it: one line on standard error for people, and the same
//! as the field `engine` of every `--json` report. Made from the command's [`Plan`] in one
//! place, whichever face runs the command.

use super::plan::{natives_on, Plan};
use crate::bindings::Reason;
use crate::check::Program;
use crate::ir::ReadingId;
use serde::Serialize;

/// Who answered a command: serialised as the report's `engine` field, shown by [`Notice::line`].
///
/// The fields present say which case it is: `as` for a native engine (the shipped reading it
/// follows; `variant` too for the engine compiled from a variant's tables), `by_the_rules` for
/// an engine of native parts with some by the rules, `natives_on` where the rules answer.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Notice {
    /// The definition the engine stands for (`legal`, `mate_in`, ...).
    pub definition: String,
    /// The reading asked.
    pub reading: String,
    /// Whether a native engine answered.
    pub native: bool,
    /// The engine's name (absent where `--engine rules` was asked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The shipped reading a native engine follows.
    #[serde(rename = "as", skip_serializing_if = "Option::is_none")]
    pub follows: Option<String>,
    /// The board variant of the compiled engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The parts asked of the rules by an engine of native parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_the_rules: Option<Vec<String>>,
    /// Why the native engine is off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The native functions still used where the rules answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natives_on: Option<Vec<String>>,
    /// The threads of a search that runs on one only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// The line for people.
    #[serde(skip)]
    line: String,
}

impl Notice {
    fn new(definition: &str, reading: &str, native: bool, line: String) -> Notice {
        Notice {
            definition: definition.to_string(),
            reading: reading.to_string(),
            native,
            engine: None,
            follows: None,
            variant: None,
            by_the_rules: None,
            reason: None,
            natives_on: None,
            threads: None,
            line,
        }
    }

    /// `def` under the reading named `rname`, answered by the native `engine` following the
    /// shipped reading `native`.
    pub fn native(def: &str, rname: &str, engine: &str, native: &str) -> Notice {
        let line = if native == rname {
            format!("okite: `{def}` under {rname}: native ({engine})")
        } else {
            format!(
                "okite: `{def}` under {rname}: native ({engine}, as the shipped reading {native}, whose definitions are the same)"
            )
        };
        Notice {
            engine: Some(engine.to_string()),
            follows: Some(native.to_string()),
            ..Notice::new(def, rname, true, line)
        }
    }

    /// The notice of `plan` for `def` under `reading` of `prog`, answered by `engine` where it
    /// is native.
    pub fn of(prog: &Program, reading: ReadingId, def: &str, engine: &str, plan: &Plan) -> Notice {
        let rname = &prog.readings[reading.index()].name;
        match plan {
            Plan::Native(r) => Notice::native(def, rname, engine, r),
            Plan::Rules(why) => {
                let on = natives_on(prog, reading, def);
                let line = format!(
                    "okite: `{def}` under {rname}: by the rules ({engine} off: {why}); natives still used: {}",
                    if on.is_empty() {
                        "none".to_string()
                    } else {
                        on.join(", ")
                    }
                );
                Notice {
                    engine: Some(engine.to_string()),
                    reason: Some(why.to_string()),
                    natives_on: Some(on),
                    ..Notice::new(def, rname, false, line)
                }
            }
        }
    }

    /// The rules answer because `--engine rules` was asked.
    pub fn rules_asked(def: &str, rname: &str) -> Notice {
        Notice {
            reason: Some("--engine rules".to_string()),
            ..Notice::new(
                def,
                rname,
                false,
                format!("okite: `{def}` under {rname}: by the rules (--engine rules)"),
            )
        }
    }

    /// A native search or move generation under a variant, with the parts `asked` of the
    /// rules; `engine` the name in the JSON, `line` what is said to people.
    pub fn assembled(
        def: &str,
        rname: &str,
        engine: &str,
        asked: &crate::shogi::legality::Asked,
        why: &Reason,
        line: String,
    ) -> Notice {
        Notice {
            engine: Some(engine.to_string()),
            by_the_rules: Some(asked.names().iter().map(|n| n.to_string()).collect()),
            reason: Some(why.to_string()),
            ..Notice::new(def, rname, false, line)
        }
    }

    /// The same notice, its line saying why no native part could be kept.
    pub fn no_native_part(self, no: &str) -> Notice {
        Notice {
            line: format!("{}; no native part kept: {no}", self.line),
            ..self
        }
    }

    /// The engine compiled from the tables of the board variant `variant`, under its reading
    /// `rname`; `line` what is said to people.
    pub fn compiled(rname: &str, variant: &str, line: String) -> Notice {
        Notice {
            engine: Some("the compiled variant engine".to_string()),
            follows: Some(rname.to_string()),
            variant: Some(variant.to_string()),
            ..Notice::new("moves", rname, true, line)
        }
    }

    /// The same, said of a search that runs on `n` threads.
    pub fn on_threads(self, n: u32) -> Notice {
        Notice {
            threads: Some(n),
            ..self
        }
    }

    /// The line said on standard error.
    pub fn line(&self) -> &str {
        &self.line
    }
}

/// The parts of legality an engine of native parts makes natively: those not `asked` of the
/// rules ("nothing else" when the rules answer all of them).
pub fn native_parts(asked: &crate::shogi::legality::Asked) -> String {
    let asked = asked.names();
    let parts: Vec<&str> = [
        "forbidden",
        "nifu",
        "dead_piece",
        "dying",
        "uchifuzume",
        "mate",
    ]
    .into_iter()
    .filter(|p| !asked.contains(p))
    .collect();
    if parts.is_empty() {
        "nothing else".into()
    } else {
        parts.join(", ")
    }
}

/// How a shogi command runs under `plan`: under a variant that keeps the native move
/// generation, the assembled legality (native parts, the changed ones by the rules), with its
/// variant; else the plan's notice.
pub fn announced(
    prog: &Program,
    reading: ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
) -> (Option<crate::hybrid::ShogiVariant>, Notice) {
    let Plan::Rules(why) = plan else {
        return (None, Notice::of(prog, reading, def, engine_name, plan));
    };
    let rname = &prog.readings[reading.index()].name;
    match crate::hybrid::shogi_variant(prog, reading) {
        Ok(v) => {
            let line = format!(
                "okite: `{def}` under {rname}: native move generation and check, {} natively, by the rules: {} ({engine_name} off: {why})",
                native_parts(&v.asked),
                v.asked.names().join(", ")
            );
            let notice = Notice::assembled(
                def,
                rname,
                &format!("{engine_name}, native parts kept"),
                &v.asked,
                why,
                line,
            );
            (Some(v), notice)
        }
        Err(no) => (
            None,
            Notice::of(prog, reading, def, engine_name, plan).no_native_part(&no),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::Notice;

    #[test]
    fn the_json_of_each_case() {
        let n = Notice::native("legal", "base", "the move generator", "narrow");
        assert_eq!(
            crate::json::text(&n),
            "{\"definition\": \"legal\", \"reading\": \"base\", \"native\": true, \"engine\": \"the move generator\", \"as\": \"narrow\"}"
        );
        assert!(
            n.line().contains("as the shipped reading narrow"),
            "{}",
            n.line()
        );
        let n = Notice::native("legal", "narrow", "the move generator", "narrow");
        assert_eq!(
            n.line(),
            "okite: `legal` under narrow: native (the move generator)"
        );
        assert_eq!(
            crate::json::text(&Notice::rules_asked("boards", "base")),
            "{\"definition\": \"boards\", \"reading\": \"base\", \"native\": false, \"reason\": \"--engine rules\"}"
        );
        let c = Notice::compiled("minishogi", "minishogi", String::new()).on_threads(1);
        assert_eq!(
            crate::json::text(&c),
            "{\"definition\": \"moves\", \"reading\": \"minishogi\", \"native\": true, \"engine\": \"the compiled variant engine\", \"as\": \"minishogi\", \"variant\": \"minishogi\", \"threads\": 1}"
        );
    }
}
