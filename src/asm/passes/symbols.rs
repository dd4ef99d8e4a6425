//! The assembler's symbol table: names interned case-insensitively (unless
//! ASM11's `#CaseOn` says otherwise), the scopes of ASM11's `@@` local
//! labels (one per `proc` and per macro expansion) and `?` file-private
//! labels, and the versions of symbols that `set` redefines.

use super::super::asm11::LOCAL_MARK;
use super::super::diagnostics::Span;
use super::super::expr::SymId;
use crate::image::{FileId, SymbolKind};
use std::collections::HashMap;

/// One symbol (or one version of a `set` symbol).
pub(super) struct Sym {
    pub name: String,
    pub value: Option<i64>,
    pub kind: Option<SymbolKind>,
    pub defined: Option<(FileId, u32, Span)>,
    pub predefined: bool,
    pub used_at: Vec<(FileId, u32)>,
    pub size: Option<u32>,
    /// Order of definition.
    pub seq: u32,
    /// Made by `set`: a later `set` may give the name a new version.
    pub redefinable: bool,
    /// An earlier version of a `set` symbol (not listed in the symbol table).
    pub shadowed: bool,
}

/// The scope `@@` names belong to: 0 outside any `proc`, else one number per
/// `proc` and per macro expansion; `qualifier` prefixes shown names.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    pub id: u32,
    pub qualifier: String,
}

#[derive(Default)]
pub(super) struct SymTable {
    pub syms: Vec<Sym>,
    pub index: HashMap<String, SymId>,
    scratch: String,
    /// The scope of `@@` names read now.
    pub scope: Scope,
    /// Scopes opened so far (the next one's number).
    scopes: u32,
    /// ASM11's `#CaseOn`: names read now are case-sensitive.
    pub case_sensitive: bool,
    /// The file whose `?` names (ASM11's file-private labels) are read now.
    pub private_file: FileId,
}

impl SymTable {
    /// The id of `name`, creating an undefined symbol the first time.
    pub fn intern(&mut self, name: &str) -> SymId {
        // Lower-case into a reused buffer; allocate only for a new symbol.
        self.key_into_scratch(name);
        if let Some(&id) = self.index.get(self.scratch.as_str()) {
            return id;
        }
        let key = self.scratch.clone();
        let id = self.syms.len() as SymId;
        let shown = self.shown_name(name);
        self.syms.push(Sym {
            name: shown,
            value: None,
            kind: None,
            defined: None,
            predefined: false,
            used_at: Vec::new(),
            size: None,
            seq: u32::MAX,
            redefinable: false,
            shadowed: false,
        });
        self.index.insert(key, id);
        id
    }

    /// The id `name` has now, if it was ever mentioned.
    pub fn lookup(&mut self, name: &str) -> Option<SymId> {
        self.key_into_scratch(name);
        self.index.get(self.scratch.as_str()).copied()
    }

    /// The lookup key of `name`: lower case (as written after ASM11's
    /// `#CaseOn`), for a local `@@` name the number of its scope and for a
    /// file-private `?` name the file (each after `#`, which no name can
    /// contain).
    fn key_into_scratch(&mut self, name: &str) {
        self.plain_key_into_scratch(name, self.case_sensitive);
        if self.case_sensitive && !self.index.contains_key(self.scratch.as_str()) {
            // A name defined before `#CaseOn` is still found when it is
            // written the same way.
            let exact = std::mem::take(&mut self.scratch);
            self.plain_key_into_scratch(name, false);
            let same = self
                .index
                .get(self.scratch.as_str())
                .and_then(|&id| self.syms.get(id as usize))
                .is_some_and(|s| s.name == name);
            if !same {
                self.scratch = exact;
            }
        }
    }

    fn plain_key_into_scratch(&mut self, name: &str, exact: bool) {
        self.scratch.clear();
        if exact {
            self.scratch.push_str(name);
        } else if name.is_ascii() {
            self.scratch
                .extend(name.chars().map(|c| c.to_ascii_lowercase()));
        } else {
            self.scratch.push_str(&name.to_lowercase());
        }
        // The mark is not ASCII, so only such names can contain it.
        if !name.is_ascii() && name.contains(LOCAL_MARK) {
            self.scratch.push('#');
            self.scratch.push_str(&self.scope.id.to_string());
        }
        if name.starts_with('?') {
            self.scratch.push_str("#f");
            self.scratch.push_str(&self.private_file.to_string());
        }
    }

    /// The name as messages and the symbol table show it: `@@` as written,
    /// qualified by its `proc` or macro expansion (`Delay.Loop@@`).
    pub fn shown_name(&self, name: &str) -> String {
        if name == super::super::asm11::TEMP_NAME {
            return ":temp".to_string();
        }
        if !name.contains(LOCAL_MARK) {
            return name.to_string();
        }
        let plain = name.replace(LOCAL_MARK, "@@");
        if self.scope.qualifier.is_empty() {
            plain
        } else {
            format!("{}.{plain}", self.scope.qualifier)
        }
    }

    /// Opens a new scope for `@@` names (a `proc` or a macro expansion) and
    /// returns the one it replaces.
    pub fn enter_scope(&mut self, qualifier: &str) -> Scope {
        self.scopes += 1;
        std::mem::replace(
            &mut self.scope,
            Scope {
                id: self.scopes,
                qualifier: qualifier.to_string(),
            },
        )
    }

    /// A fresh version of the `set` symbol `old` under the same name: later
    /// mentions of the name find the new one, earlier ones keep the old.
    pub fn new_version(&mut self, old: SymId, written: &str) -> Option<SymId> {
        self.key_into_scratch(written);
        let key = self.scratch.clone();
        let name = self.get(old)?.name.clone();
        let id = self.syms.len() as SymId;
        self.syms.push(Sym {
            name,
            value: None,
            kind: None,
            defined: None,
            predefined: false,
            used_at: Vec::new(),
            size: None,
            seq: u32::MAX,
            redefinable: true,
            shadowed: false,
        });
        if let Some(s) = self.get_mut(old) {
            s.shadowed = true;
        }
        self.index.insert(key, id);
        Some(id)
    }

    pub fn get(&self, id: SymId) -> Option<&Sym> {
        self.syms.get(id as usize)
    }

    pub fn get_mut(&mut self, id: SymId) -> Option<&mut Sym> {
        self.syms.get_mut(id as usize)
    }

    pub fn is_defined(&self, id: SymId) -> bool {
        self.get(id).is_some_and(|s| s.kind.is_some())
    }

    pub fn defined_names(&self) -> impl Iterator<Item = &str> {
        self.syms
            .iter()
            .filter(|s| s.kind.is_some())
            .map(|s| s.name.as_str())
    }
}
