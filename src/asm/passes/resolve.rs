//! Settling symbol values: the pass-1 environment (values known so far),
//! `equ` chains resolved in dependency order, and the reachability test
//! behind the "depends on itself" messages.

use super::super::diagnostics::Span;
use super::super::expr::{eval, Env, EvalError, Expr, SymId};
use super::symbols::SymTable;
use super::{Kind, Stmt};
use std::collections::{HashMap, HashSet};

/// Symbol values known in pass 1 (and while resolving `equ`s).
pub(super) struct Pass1Env<'t> {
    pub(super) table: &'t SymTable,
    pub(super) here: Option<i64>,
}

impl Env for Pass1Env<'_> {
    fn value(&mut self, id: SymId, _: Span) -> Result<i64, EvalError> {
        self.table
            .get(id)
            .and_then(|s| s.value)
            .ok_or(EvalError::Unknown)
    }
    fn here(&self) -> Result<i64, EvalError> {
        self.here.ok_or(EvalError::Unknown)
    }
    fn size(&mut self, id: SymId, _: Span) -> Result<i64, EvalError> {
        self.table
            .get(id)
            .and_then(|s| s.size)
            .map(i64::from)
            .ok_or(EvalError::Unknown)
    }
}

/// True if `from`'s definition leads (through `equ` expressions and the
/// symbols that label addresses waited for) to `to`.
pub(super) fn reaches(
    from: SymId,
    to: SymId,
    table: &SymTable,
    equ_exprs: &HashMap<SymId, &Expr>,
    edges: &HashMap<SymId, Vec<SymId>>,
) -> bool {
    let successors = |s: SymId| {
        let mut next = Vec::new();
        if let Some(e) = equ_exprs.get(&s) {
            e.for_each_symbol(&mut |id, _| {
                if table.get(id).is_some_and(|x| x.value.is_none()) {
                    next.push(id);
                }
            });
        }
        if let Some(more) = edges.get(&s) {
            next.extend(more.iter().copied());
        }
        next
    };
    let mut seen = HashSet::new();
    let mut todo = successors(from);
    while let Some(s) = todo.pop() {
        if s == to {
            return true;
        }
        if seen.insert(s) {
            todo.extend(successors(s));
        }
    }
    false
}

/// Gives every `equ` whose value follows from other `equ`s and known
/// symbols its value, in dependency order (depth first, with an explicit
/// stack). Without it each layout walk settles only one more link of a
/// chain written backwards (`a equ b` before `b equ c`), so a long chain
/// took a walk per link. Anything it cannot settle (labels not placed yet,
/// `*`, cycles, errors) is left to the walks, which also report it.
pub(super) fn resolve_equs(stmts: &[Stmt], table: &mut SymTable) {
    let mut defs: HashMap<SymId, &Expr> = HashMap::new();
    for s in stmts {
        if let (Some((id, _)), Kind::Equ(e, _)) = (s.label, &s.kind) {
            if !e.mentions_here() {
                defs.insert(id, e);
            }
        }
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<SymId, Mark> = HashMap::new();
    let unknown_deps = |e: &Expr, table: &SymTable| {
        let mut deps = Vec::new();
        e.for_each_symbol(&mut |id, _| {
            if table.get(id).is_some_and(|s| s.value.is_none()) {
                deps.push(id);
            }
        });
        deps
    };
    let mut roots: Vec<SymId> = defs.keys().copied().collect();
    roots.sort_unstable();
    for root in roots {
        if marks.contains_key(&root) || table.get(root).is_some_and(|s| s.value.is_some()) {
            continue;
        }
        // (symbol, its dependencies still to visit)
        let mut stack: Vec<(SymId, Vec<SymId>)> = Vec::new();
        marks.insert(root, Mark::Open);
        stack.push((root, unknown_deps(defs[&root], table)));
        while let Some((id, deps)) = stack.last_mut() {
            let id = *id;
            if let Some(dep) = deps.pop() {
                let open = marks.get(&dep).is_some_and(|m| *m == Mark::Open);
                let settled = marks.contains_key(&dep);
                if let (false, false, Some(e)) = (open, settled, defs.get(&dep)) {
                    marks.insert(dep, Mark::Open);
                    stack.push((dep, unknown_deps(e, table)));
                }
                continue;
            }
            stack.pop();
            marks.insert(id, Mark::Done);
            let value = eval(defs[&id], &mut Pass1Env { table, here: None });
            if let (Ok(v), Some(sym)) = (value, table.get_mut(id)) {
                sym.value = Some(v);
            }
        }
    }
}
