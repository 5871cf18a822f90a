//! Native functions that do not belong to a game: graph searches used as fast paths of rule
//! definitions over plain values.

use super::registry::Natives;
use crate::ir::Value;
use std::collections::{BTreeMap, BTreeSet};

pub fn register(h: &mut Natives) {
    h.add(
        "core.reachable",
        2,
        "reachable(S, m): everything reachable from the set S along the map m: V -> Set<V>",
        |_, args| {
            let (Value::Set(start), Value::Map(m)) = (&args[0], &args[1]) else {
                return Err("core.reachable takes a set and a map from elements to sets".into());
            };
            let mut seen: BTreeSet<Value> = (**start).clone();
            let mut todo: Vec<Value> = start.iter().cloned().collect();
            while let Some(x) = todo.pop() {
                if let Some(Value::Set(next)) = m.get(&x) {
                    for y in next.iter() {
                        if seen.insert(y.clone()) {
                            todo.push(y.clone());
                        }
                    }
                }
            }
            Ok(Value::set(seen))
        },
    );
    h.add(
        "core.count_paths",
        3,
        "count_paths(m, a, b): the number of paths from a to b in the acyclic graph m: V -> Set<V>",
        |_, args| {
            let Value::Map(m) = &args[0] else {
                return Err(
                    "core.count_paths takes a map from vertices to sets of vertices".into(),
                );
            };
            // iterative depth-first count with memo; a cycle is an error
            let mut memo: BTreeMap<Value, i64> = BTreeMap::new();
            let mut on_path: BTreeSet<Value> = BTreeSet::new();
            let mut stack: Vec<(Value, bool)> = vec![(args[1].clone(), false)];
            while let Some((v, done)) = stack.pop() {
                if done {
                    on_path.remove(&v);
                    let total = if v == args[2] {
                        1
                    } else {
                        let mut t: i64 = 0;
                        if let Some(Value::Set(ns)) = m.get(&v) {
                            for n in ns.iter() {
                                t = t
                                    .checked_add(memo.get(n).copied().unwrap_or(0))
                                    .ok_or("the number of paths does not fit in 64 bits")?;
                            }
                        }
                        t
                    };
                    memo.insert(v, total);
                    continue;
                }
                if memo.contains_key(&v) {
                    continue;
                }
                if !on_path.insert(v.clone()) {
                    return Err(format!("the graph has a cycle through {v}"));
                }
                stack.push((v.clone(), true));
                if v != args[2] {
                    if let Some(Value::Set(ns)) = m.get(&v) {
                        for n in ns.iter() {
                            if !memo.contains_key(n) {
                                if on_path.contains(n) {
                                    return Err(format!("the graph has a cycle through {n}"));
                                }
                                stack.push((n.clone(), false));
                            }
                        }
                    }
                }
            }
            Ok(Value::Int(memo.get(&args[1]).copied().unwrap_or(0)))
        },
    );
}
