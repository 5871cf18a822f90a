#![forbid(unsafe_code)]
//! The local names in scope while a definition's body is resolved: a stack of bindings (a
//! binder's names are pushed, and taken off at the end of its scope) with an index by name, so
//! that a name is found at once however many are in scope (searched down the stack, a
//! definition of 50,000 parameters that names each took 5.5 s).

use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Scope {
    /// The names bound, the innermost last.
    stack: Vec<String>,
    /// For each name bound, the slots that bind it, the innermost last.
    by_name: HashMap<String, Vec<u32>>,
}

impl Scope {
    pub(super) fn push(&mut self, name: &str, slot: u32) {
        self.stack.push(name.to_string());
        self.by_name.entry(name.to_string()).or_default().push(slot);
    }

    /// The slot of the innermost binding of `name`.
    pub(super) fn get(&self, name: &str) -> Option<u32> {
        self.by_name.get(name)?.last().copied()
    }

    /// How many bindings are in scope (a mark to [`Scope::truncate`] to).
    pub(super) fn len(&self) -> usize {
        self.stack.len()
    }

    /// Take off the bindings past the first `mark`.
    pub(super) fn truncate(&mut self, mark: usize) {
        while self.stack.len() > mark {
            let Some(name) = self.stack.pop() else {
                break;
            };
            if let Some(slots) = self.by_name.get_mut(&name) {
                slots.pop();
                if slots.is_empty() {
                    self.by_name.remove(&name);
                }
            }
        }
    }

    /// The names in scope (outermost first).
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.stack.iter().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_binding_is_found_and_the_outer_one_comes_back() {
        let mut s = Scope::default();
        s.push("x", 0);
        s.push("y", 1);
        let mark = s.len();
        s.push("x", 2);
        assert_eq!(s.get("x"), Some(2));
        assert_eq!(s.get("y"), Some(1));
        s.truncate(mark);
        assert_eq!(s.get("x"), Some(0));
        s.truncate(0);
        assert_eq!(s.get("x"), None);
        assert_eq!(s.names().count(), 0);
    }
}
