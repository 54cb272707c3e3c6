//! The symbol card: everything about one definition an agent needs to act
//! without another search — its code (bounded), what it calls, who calls it,
//! its file's imports, the other symbols of its file, and the other
//! definitions sharing its name.

use serde::Serialize;

use super::{CallEdge, DefCat, DefId, DefView, Graph, GraphError};
use crate::query::text::{snippet, Snippet};

/// Most lines of a definition's code a card shows (`cg snippet` reads more).
pub const CARD_CODE_LINES: u32 = 60;
/// Most entries of each list of a card (the totals count all).
pub const CARD_LIST: usize = 20;

#[derive(Clone, Debug, Serialize)]
pub struct SymbolCard {
    pub symbol: DefView,
    /// Its lines as they are now; absent when the file cannot be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<Snippet>,
    pub calls: Vec<CallEdge>,
    pub calls_total: usize,
    pub called_by: Vec<CallEdge>,
    pub called_by_total: usize,
    /// The modules its file imports, as written, with the files they resolve to.
    pub imports: Vec<ImportLine>,
    /// The other top-level definitions and members of its type in its file.
    pub same_file: Vec<Brief>,
    /// Other definitions with its name, elsewhere.
    pub same_name: Vec<Brief>,
    pub same_name_total: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct ImportLine {
    pub module: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resolved: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Brief {
    pub qualified_name: String,
    pub kind: String,
    pub file: String,
    pub line: u32,
}

impl Graph<'_> {
    /// The card of `target` (one of the definitions `find` gave).
    pub fn card(&self, target: DefId) -> Result<SymbolCard, GraphError> {
        let symbol = self.view(target)?;
        let (f, d) = self.def(target)?;
        let code = snippet(self.index, &symbol.file, d.line, d.end_line.min(d.line + CARD_CODE_LINES - 1)).ok().map(
            |mut s| {
                s.truncated |= d.end_line > s.end;
                s
            },
        );
        let mut calls = if d.cat == DefCat::Method { self.callees(target, 1)? } else { Vec::new() };
        let calls_total = calls.len();
        calls.truncate(CARD_LIST);
        let mut called_by = self.callers(&[target], 1)?;
        let called_by_total = called_by.len();
        called_by.truncate(CARD_LIST);
        let mut imports = Vec::new();
        for (i, imp) in f.imports.iter().enumerate().take(CARD_LIST) {
            let resolved = self.import_targets(&f, i as u32)?;
            let mut files = Vec::new();
            for &k in resolved.iter().take(4) {
                files.push(self.path_of(k)?);
            }
            imports.push(ImportLine { module: imp.spec.clone(), resolved: files });
        }
        // Siblings: the file's top-level definitions, and the members of its type.
        let owner = d.parent.clone().or_else(|| (d.cat == DefCat::Type).then(|| d.name.clone()));
        let mut near: Vec<(u32, usize)> = Vec::new();
        let nested = f.nested();
        for (i, o) in f.defs.iter().enumerate() {
            if i as u32 == target.1 || nested[i] {
                continue;
            }
            if o.parent.is_none() || o.parent == owner {
                near.push((o.line, i));
            }
        }
        // In source order, the nearest to it kept when there are many (only
        // those named: a large file's type has thousands of members).
        near.sort_unstable();
        let at = near.partition_point(|&(line, _)| line < d.line);
        let from = at.saturating_sub(CARD_LIST / 2).min(near.len().saturating_sub(CARD_LIST));
        let same_file: Vec<Brief> = near[from..]
            .iter()
            .take(CARD_LIST)
            .map(|&(line, i)| {
                let o = &f.defs[i];
                Brief { qualified_name: f.qualified_name(o), kind: o.kind.to_string(), file: f.path.clone(), line }
            })
            .collect();
        let nd = self.name_defs(&d.name)?;
        let others: Vec<_> = nd.items.iter().filter(|c| c.id != target).collect();
        let same_name = others
            .iter()
            .take(CARD_LIST)
            .map(|c| Brief {
                qualified_name: c.qualified_name(),
                kind: c.def.kind.to_string(),
                file: c.path.clone(),
                line: c.def.line,
            })
            .collect();
        Ok(SymbolCard {
            symbol,
            code,
            calls,
            calls_total,
            called_by,
            called_by_total,
            imports,
            same_file,
            same_name,
            same_name_total: others.len(),
        })
    }
}
