//! The neighbourhood of a symbol or a file as nodes and edges (`cg graph`,
//! `codegraph_graph`): calls (callers and callees), imports (imported and
//! importing files) and inheritance (supertypes, subtypes, overrides), to a
//! depth, each node once.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::{DefCat, DefView, Graph, GraphError};

/// Most nodes an answer lists.
pub const MAX_NODES: usize = 300;

/// The relations a neighbourhood can follow.
pub const RELATIONS: [&str; 3] = ["calls", "imports", "inherits"];

#[derive(Clone, Debug, Default, Serialize)]
pub struct Neighborhood {
    /// The node ids of the seed (one per definition a symbol names, or the file).
    pub seeds: Vec<usize>,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// Nodes past [`MAX_NODES`] were left out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GraphNode {
    pub id: usize,
    /// `symbol`, `file` or `external` (a callee or supertype outside the
    /// project, by name).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// A symbol's qualified name, a file's path, an external name.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol_kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    /// `calls`, `imports`, `inherits` (subtype to supertype), `overrides`, or
    /// `defined_in` (a symbol to its file, when imports are followed).
    pub relation: &'static str,
}

#[derive(Default)]
struct Builder {
    out: Neighborhood,
    by_key: FxHashMap<(String, Option<String>, Option<u32>), usize>,
    by_name: FxHashMap<String, usize>,
}

impl Builder {
    fn node(&mut self, kind: &'static str, name: &str, view: Option<&DefView>) -> Option<usize> {
        let key = (name.to_string(), view.map(|v| v.file.clone()), view.map(|v| v.line));
        if let Some(&id) = self.by_key.get(&key) {
            return Some(id);
        }
        if self.out.nodes.len() >= MAX_NODES {
            self.out.truncated = true;
            return None;
        }
        let id = self.out.nodes.len();
        self.out.nodes.push(GraphNode {
            id,
            kind,
            name: name.to_string(),
            symbol_kind: view.map(|v| v.kind.clone()),
            file: view.map(|v| v.file.clone()),
            line: view.map(|v| v.line),
        });
        self.by_key.insert(key, id);
        self.by_name.entry(name.to_string()).or_insert(id);
        Some(id)
    }

    fn symbol(&mut self, v: &DefView) -> Option<usize> {
        self.node("symbol", &v.qualified_name, Some(v))
    }

    fn file(&mut self, path: &str) -> Option<usize> {
        self.node("file", path, None)
    }

    fn edge(&mut self, from: Option<usize>, to: Option<usize>, relation: &'static str) {
        if let (Some(from), Some(to)) = (from, to) {
            let e = GraphEdge { from, to, relation };
            if from != to && !self.out.edges.contains(&e) {
                self.out.edges.push(e);
            }
        }
    }
}

impl Graph<'_> {
    /// The nodes and edges around `seed` (a symbol as [`Graph::find`] takes it,
    /// or an indexed file's path), following `relations` (all when empty) to
    /// `depth` levels (1-3).
    pub fn neighborhood(&self, seed: &str, depth: usize, relations: &[&str]) -> Result<Neighborhood, GraphError> {
        let follows = |r: &str| relations.is_empty() || relations.contains(&r);
        let mut b = Builder::default();
        if let Some(file) = self.index.locate(seed.trim().trim_start_matches("./"))? {
            let path = file.path.to_string();
            let me = b.file(&path);
            b.out.seeds.extend(me);
            if follows("imports") {
                self.file_imports(&mut b, &path, depth)?;
            }
            return Ok(b.out);
        }
        let defs = self.find(seed)?;
        for &id in defs.iter().take(4) {
            let view = self.view(id)?;
            let me = b.symbol(&view);
            b.out.seeds.extend(me);
            if follows("calls") {
                for e in self.callees(id, depth)? {
                    let from = match &e.via {
                        Some(via) => b.by_name.get(via).copied(),
                        None => me,
                    };
                    let to = match (&e.symbol, &e.external) {
                        (Some(s), _) => b.symbol(s),
                        (None, Some(name)) => b.node("external", name, None),
                        (None, None) => None,
                    };
                    b.edge(from, to, "calls");
                }
                for e in self.callers(&[id], depth)? {
                    let to = match &e.via {
                        Some(via) => b.by_name.get(via).copied(),
                        None => me,
                    };
                    // A file's top-level code calls: the file is the caller.
                    let from = match &e.symbol {
                        Some(s) => b.symbol(s),
                        None => b.file(&e.file),
                    };
                    b.edge(from, to, "calls");
                }
            }
            if follows("inherits") {
                let h = self.hierarchy(id);
                // A type's supertypes and subtypes; a method's overrides (its
                // type's supertypes belong to the type).
                let is_type = self.def(id)?.1.cat == DefCat::Type;
                if let Ok(mut h) = h {
                    if !is_type {
                        h.supertypes.clear();
                        h.subtypes.clear();
                    }
                    let mut chain: Vec<Option<usize>> = vec![me];
                    for r in &h.supertypes {
                        let node = match &r.symbol {
                            Some(s) => b.symbol(s),
                            None => b.node("external", &r.name, None),
                        };
                        // Depth d's supertype extends the chain at depth d - 1.
                        let below = chain.get(r.depth.saturating_sub(1)).copied().flatten();
                        b.edge(below, node, "inherits");
                        chain.truncate(r.depth);
                        chain.push(node);
                    }
                    let mut chain: Vec<Option<usize>> = vec![me];
                    for r in &h.subtypes {
                        let node = r.symbol.as_ref().and_then(|s| b.symbol(s));
                        let above = chain.get(r.depth.saturating_sub(1)).copied().flatten();
                        b.edge(node, above, "inherits");
                        chain.truncate(r.depth);
                        chain.push(node);
                    }
                    for r in &h.overrides {
                        let node = r.symbol.as_ref().and_then(|s| b.symbol(s));
                        b.edge(me, node, "overrides");
                    }
                    for r in &h.overridden_by {
                        let node = r.symbol.as_ref().and_then(|s| b.symbol(s));
                        b.edge(node, me, "overrides");
                    }
                }
            }
            if follows("imports") {
                let file = b.file(&view.file);
                b.edge(me, file, "defined_in");
                self.file_imports(&mut b, &view.file, depth)?;
            }
        }
        Ok(b.out)
    }

    fn file_imports(&self, b: &mut Builder, path: &str, depth: usize) -> Result<(), GraphError> {
        for imp in self.imports(path, depth)? {
            let from = b.file(&imp.file);
            for target in &imp.resolved {
                let to = b.file(target);
                b.edge(from, to, "imports");
            }
        }
        for imp in self.importers(path, depth)? {
            let from = b.file(&imp.file);
            for target in &imp.resolved {
                let to = b.file(target);
                b.edge(from, to, "imports");
            }
        }
        Ok(())
    }
}
