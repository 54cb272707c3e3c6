//! A readable rendering of one file's facts: what `cg extract FILE` prints and what
//! the golden files under `fixtures/extract/` hold. Every line of the source is
//! shown with its type and the terms found on it.

use std::fmt::Write;

use super::{FileFacts, ImportKind, Receiver, RefFact};

/// Renders `facts` with `source` (the file's text) beside each line. The mtime is
/// left out so the output depends on the bytes only.
pub fn render(facts: &FileFacts, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "file: {}", facts.path);
    let _ = writeln!(out, "language: {}", facts.language);
    let _ = writeln!(out, "size: {} bytes, {} lines, xxh3 {:016x}", facts.size, facts.line_count(), facts.hash);
    for d in &facts.diagnostics {
        let _ = writeln!(out, "diagnostic: {d}");
    }
    out.push_str("\n## header\n");
    for line in facts.header.lines() {
        let _ = writeln!(out, "  | {line}");
    }
    out.push_str("\n## types\n");
    for t in &facts.types {
        let (l, name, p, v) = (span(t.line, t.end_line), &t.name, parent(&t.parent), vis(t.visibility));
        let _ = writeln!(out, "  {l} {} {name}{p}{v}", t.kind);
        for line in t.doc.lines() {
            let _ = writeln!(out, "      doc | {line}");
        }
    }
    out.push_str("\n## methods\n");
    for m in &facts.methods {
        let flags = [(m.is_static, " static"), (m.is_async, " async")];
        let flags: String = flags.iter().filter(|(on, _)| *on).map(|(_, s)| *s).collect();
        let l = span(m.line, m.end_line);
        let returns = m.returns.as_ref().map(|r| match r.strip_prefix(super::GUARD_OR) {
            Some(t) => format!(" -> is {t}"),
            None => format!(" -> {r}"),
        });
        let returns = returns.unwrap_or_default();
        let _ = writeln!(out, "  {l} {}{}{}{}{returns}", m.name, parent(&m.parent), vis(m.visibility), flags);
        let _ = writeln!(out, "      {}", m.prototype);
    }
    out.push_str("\n## properties\n");
    for p in &facts.properties {
        let flags = if p.is_static { " static" } else { "" };
        let l = span(p.line, p.end_line);
        let _ = writeln!(out, "  {l} {}{}{}{}", p.name, parent(&p.parent), vis(p.visibility), flags);
        let _ = writeln!(out, "      {}", p.declaration);
    }
    out.push_str("\n## imports\n");
    if !facts.scope.is_empty() {
        let _ = writeln!(out, "  scope {}", facts.scope);
    }
    for i in &facts.imports {
        let kind = match i.kind {
            ImportKind::Import => "import",
            ImportKind::Reexport => "reexport",
            ImportKind::Mod => "mod",
        };
        let names: Vec<String> =
            i.names.iter().map(|(n, a)| if n == a { n.clone() } else { format!("{n} as {a}") }).collect();
        let _ = writeln!(out, "  L{} {kind} {:?} {}", i.line, i.spec, names.join(", "));
    }
    out.push_str("\n## lines\n");
    let mut refs_by_line: Vec<Vec<&RefFact>> = vec![Vec::new(); facts.line_types.len()];
    for r in &facts.refs {
        if let Some(v) = refs_by_line.get_mut(r.line as usize - 1) {
            v.push(r);
        }
    }
    let mut terms_by_line: Vec<Vec<&str>> = vec![Vec::new(); facts.line_types.len()];
    for t in &facts.terms {
        for &l in &t.lines {
            if let Some(v) = terms_by_line.get_mut(l as usize - 1) {
                v.push(&t.term);
            }
        }
    }
    let mut source_lines = source.lines();
    for (i, ty) in facts.line_types.iter().enumerate() {
        let text = source_lines.next().unwrap_or("").trim_end();
        let _ = writeln!(out, "{:>4} {:<8} | {}", i + 1, ty.name(), text);
        if !terms_by_line[i].is_empty() {
            let _ = writeln!(out, "     {:<8}   > {}", "", terms_by_line[i].join(" "));
        }
        if !refs_by_line[i].is_empty() {
            let refs: Vec<String> = refs_by_line[i].iter().map(|r| reference(r)).collect();
            let _ = writeln!(out, "     {:<8}   @ {}", "", refs.join("  "));
        }
    }
    out
}

/// `L3` or `L3-9`.
fn span(line: u32, end: u32) -> String {
    if end > line {
        format!("L{line}-{end}")
    } else {
        format!("L{line}")
    }
}

/// `call Store.add`, `type Foo`, `other ?.len`, `call pkg:fmt.Println`.
fn reference(r: &RefFact) -> String {
    let recv = match &r.receiver {
        Receiver::None => String::new(),
        Receiver::Type(t) => format!("{}.", readable(t)),
        Receiver::Name(n) => format!("{n}:"),
        Receiver::Unknown => "?.".to_string(),
        Receiver::Returns(f) => format!("{}().", readable(f)),
        Receiver::Member(t, m) => format!("{}.{}.", readable(t), readable(m)),
        Receiver::Qualified(t, q) => format!("{}.{q}:", readable(t)),
    };
    let args = r.args.map(|n| format!("/{n}")).unwrap_or_default();
    format!("{} {recv}{}{args}", r.role.name(), r.name)
}

/// A receiver's name as read: a chain's fields joined by `.`, a guarded
/// value's fallback after `|`, a discriminant as `[kind=A|B]`.
fn readable(name: &str) -> String {
    let mut parts = name.split(super::DISCRIMINANT);
    let base = parts.next().unwrap_or_default().replace(super::FIELD_OF, ".").replace(super::GUARD_OR, "|");
    let base = match base.strip_prefix(super::SUPER_OF) {
        Some(t) => format!("super({t})"),
        None => base,
    };
    match (parts.next(), parts.next()) {
        (Some(field), Some(members)) => format!("{base}[{field}={members}]"),
        _ => base,
    }
}

fn parent(p: &Option<String>) -> String {
    p.as_ref().map(|p| format!(" in {p}")).unwrap_or_default()
}

fn vis(v: Option<&str>) -> String {
    v.map(|v| format!(" [{v}]")).unwrap_or_default()
}
