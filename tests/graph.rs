//! The code graph on hand-written projects with the traps of each language: the
//! same method name on two types, aliased imports, re-exports, embedding and
//! trait impls, typed receivers (`this`, parameters, locals assigned `new T()` or
//! a function's declared result, fields of `this`), interface dispatch. Every
//! expected answer below was read and checked against the fixture sources under
//! `fixtures/graph/`.

use codegraph::graph::Graph;
use codegraph::project::{self, Index, InitOptions};

mod common;

fn indexed(lang: &str) -> (tempfile::TempDir, Index) {
    common::indexed_graph_fixture(lang)
}

/// `file:line role [ambiguous]` of every reference to SYMBOL.
fn refs(index: &Index, symbol: &str) -> Vec<String> {
    let g = Graph::new(index);
    let defs = g.find(symbol).unwrap();
    g.refs(&defs, &[])
        .unwrap()
        .into_iter()
        .map(|r| format!("{}:{} {}{}", r.file, r.line, r.role, if r.ambiguous { " ambiguous" } else { "" }))
        .collect()
}

fn qualified(index: &Index, symbol: &str) -> Vec<String> {
    let g = Graph::new(index);
    g.find(symbol).unwrap().into_iter().map(|d| g.view(d).unwrap().qualified_name).collect()
}

#[test]
fn go_receivers_embedding_packages_and_interfaces() {
    let (_dir, index) = indexed("go");
    assert_eq!(qualified(&index, "Store.Add"), ["store.Store.Add"]);
    // `s *st.Store` (a parameter), and `s := New()` (New's declared result);
    // `a.Add(2)` through the interface `Adder`, which `Store` implements by
    // having its methods: a possible dispatch.
    assert_eq!(
        refs(&index, "Store.Add"),
        ["cmd/main.go:11 call", "cmd/main.go:12 call ambiguous", "store/store_test.go:7 call"]
    );
    // The same name on another type binds there; `inv` is `var inv billing.Invoice`.
    // (`Invoice` has `Adder`'s methods too.)
    assert_eq!(
        refs(&index, "Invoice.Add"),
        ["billing/charge.go:4 call", "cmd/main.go:12 call ambiguous", "cmd/main.go:14 call"]
    );
    // A call through the interface references the interface's method.
    assert_eq!(refs(&index, "Adder.Add"), ["cmd/main.go:12 call"]);
    // Embedding: Store's Flush is Base's.
    assert_eq!(refs(&index, "Base.Flush"), ["cmd/main.go:15 call", "store/store.go:20 call"]);
    // `st.New()` through the aliased import, `New()` in the same package.
    assert_eq!(refs(&index, "store.New"), ["cmd/main.go:19 call", "store/store_test.go:6 call"]);

    let g = Graph::new(&index);
    let callers = g.callers(&g.find("Store.Add").unwrap(), 2).unwrap();
    let shown: Vec<String> = callers
        .iter()
        .map(|c| format!("{} {} {:?}", c.depth, c.symbol.as_ref().unwrap().qualified_name, c.lines))
        .collect();
    // (Line 12 calls it through the interface.)
    assert_eq!(shown, ["1 main.fill [11, 12]", "1 store.TestAdd [7]", "2 main.main [20]"]);
    // A caller is certain when one of its lines is (line 11 is; line 12 a
    // possible dispatch): regression, one ambiguous line made the caller so.
    assert!(!callers[0].ambiguous);
    let callees = g.callees(g.find("main").unwrap()[0], 1).unwrap();
    let shown: Vec<String> = callees
        .iter()
        .map(|c| match &c.symbol {
            Some(s) => s.qualified_name.clone(),
            None => format!("external {}", c.external.as_deref().unwrap_or("")),
        })
        .collect();
    assert_eq!(shown, ["store.New", "main.fill", "billing.Charge", "external fmt.Println"]);

    let imports = g.imports("cmd/main.go", 1).unwrap();
    let shown: Vec<(String, Vec<String>)> = imports.iter().map(|i| (i.module.clone(), i.resolved.clone())).collect();
    assert_eq!(
        shown,
        [
            ("fmt".to_string(), vec![]),
            (
                "example.com/shop/billing".to_string(),
                vec!["billing/charge.go".to_string(), "billing/invoice.go".to_string()]
            ),
            (
                "example.com/shop/store".to_string(),
                vec!["store/store.go".to_string(), "store/store_test.go".to_string()]
            ),
        ]
    );
    let importers: Vec<String> = g.importers("store/store.go", 1).unwrap().into_iter().map(|i| i.file).collect();
    assert_eq!(importers, ["cmd/main.go"]);
    let h = g.hierarchy(g.find("Base").unwrap()[0]).unwrap();
    let subs: Vec<String> = h.subtypes.iter().map(|r| r.symbol.as_ref().unwrap().qualified_name.clone()).collect();
    assert_eq!(subs, ["store.Store"]);
    // Go interfaces are satisfied without being named: Store and Invoice implement
    // Adder by their methods, and Adder.Add's implementations are theirs.
    let h = g.hierarchy(g.find("Adder").unwrap()[0]).unwrap();
    let subs: Vec<&str> = h.subtypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(subs, ["Invoice", "Store"]);
    let h = g.hierarchy(g.find("Adder.Add").unwrap()[0]).unwrap();
    let impls: Vec<String> =
        h.overridden_by.iter().map(|r| r.symbol.as_ref().unwrap().qualified_name.clone()).collect();
    assert_eq!(impls, ["billing.Invoice.Add", "store.Store.Add"]);
    let h = g.hierarchy(g.find("Store").unwrap()[0]).unwrap();
    let sup: Vec<&str> = h.supertypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(sup, ["Base", "Adder"]);
    let impact = g.impact("Store.Add", 2).unwrap();
    assert_eq!(impact.test_files, ["store/store_test.go"]);
    assert_eq!(impact.tests.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["TestAdd"]);
}

#[test]
fn typescript_aliases_reexports_this_fields_and_results() {
    let (_dir, index) = indexed("ts");
    // TS/JS qualified names start with the module (the file's stem).
    assert_eq!(qualified(&index, "Store.add"), ["store.Store.add"]);
    assert_eq!(refs(&index, "store.Store.add"), refs(&index, "Store.add"));
    // `this.store` (a field typed `S`, an alias of Store), `new S()`, and
    // `makeStore()`'s declared result.
    assert_eq!(refs(&index, "Store.add"), ["src/app.ts:11 call", "src/app.ts:14 call", "src/app.ts:16 call"]);
    assert_eq!(refs(&index, "Invoice.add"), ["src/app.ts:12 call"]);
    assert_eq!(refs(&index, "Adder.add"), Vec::<String>::new());
    // The local arrow function `add` is not Store.add; the alias `S` is Store.
    assert_eq!(
        refs(&index, "Store"),
        [
            "src/app.ts:1 import",
            "src/app.ts:6 type",
            "src/app.ts:13 call",
            "src/models/index.ts:1 import",
            "src/models/store.ts:17 type",
            "src/models/store.ts:18 call",
        ]
    );
    // A module sees other files' names only through its imports.
    assert_eq!(refs(&index, "helper"), Vec::<String>::new());
    let g = Graph::new(&index);
    let imports: Vec<Vec<String>> = g.imports("src/app.ts", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(imports, [vec!["src/models/store.ts".to_string()], vec!["src/models/index.ts".to_string()], vec![]]);
    // Invoice through the re-exporting index file.
    assert_eq!(refs(&index, "Invoice"), ["src/app.ts:2 import", "src/app.ts:10 type", "src/models/index.ts:2 import"]);
    let h = g.hierarchy(g.find("Store").unwrap()[0]).unwrap();
    let sup: Vec<&str> = h.supertypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(sup, ["Base", "Adder"]);
}

#[test]
fn rust_trait_impls_paths_and_aliased_uses() {
    let (_dir, index) = indexed("rust");
    assert_eq!(qualified(&index, "Store.add"), ["shop::store::Store::add"]);
    assert_eq!(refs(&index, "Store.add"), ["src/lib.rs:8 call", "src/shop/store.rs:28 call"]);
    // `use ...::Invoice as Bill; Bill::default()`.
    assert_eq!(refs(&index, "Invoice.add"), ["src/lib.rs:10 call"]);
    assert_eq!(refs(&index, "Store::new"), ["src/lib.rs:7 call", "src/shop/store.rs:27 call"]);
    assert_eq!(refs(&index, "shop::store::make"), ["src/lib.rs:11 call"]);
    // `self.items.len()` is Vec's len, not Store's.
    assert_eq!(refs(&index, "Store.len"), ["src/lib.rs:16 call"]);
    let g = Graph::new(&index);
    let h = g.hierarchy(g.find("Store.add").unwrap()[0]).unwrap();
    let over: Vec<String> = h.overrides.iter().map(|r| r.symbol.as_ref().unwrap().qualified_name.clone()).collect();
    assert_eq!(over, ["shop::store::Adder::add"]);
    let h = g.hierarchy(g.find("Adder").unwrap()[0]).unwrap();
    let subs: Vec<&str> = h.subtypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(subs, ["Invoice", "Store"]);
    let imports: Vec<Vec<String>> = g.imports("src/lib.rs", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(
        imports,
        [
            vec!["src/shop/mod.rs".to_string()],
            vec!["src/shop/store.rs".to_string()],
            vec!["src/shop/invoice.rs".to_string()]
        ]
    );
}

#[test]
fn csharp_namespaces_fields_and_implicit_this() {
    let (_dir, index) = indexed("csharp");
    assert_eq!(qualified(&index, "Store.Add"), ["Shop.Models.Store.Add"]);
    // The field `store`, and `var s = new Store()`; `items.Add` is List's;
    // `adder.Add(3)` through `IAdder`, which Store implements, may dispatch
    // to it (a reference of `IAdder.Add` for certain).
    assert_eq!(refs(&index, "Store.Add"), ["App.cs:12 call", "App.cs:14 call ambiguous", "App.cs:16 call"]);
    assert_eq!(refs(&index, "Invoice.Add"), ["App.cs:13 call"]);
    assert_eq!(refs(&index, "IAdder.Add"), ["App.cs:14 call"]);
    // Inherited, and called with C#'s implicit `this`.
    assert_eq!(refs(&index, "Base.Flush"), ["App.cs:17 call", "Store.cs:22 call"]);
    let g = Graph::new(&index);
    let imports: Vec<Vec<String>> = g.imports("App.cs", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(imports, [vec!["Store.cs".to_string()], vec!["Invoice.cs".to_string()]]);
}

#[test]
fn unknown_symbols_and_files_are_clear_errors() {
    let (_dir, index) = indexed("go");
    let g = Graph::new(&index);
    let err = g.find("NoSuchThing").unwrap_err().to_string();
    assert!(err.contains("no definition matches"), "{err}");
    let err = g.imports("nope.go", 1).unwrap_err().to_string();
    assert!(err.contains("no indexed file"), "{err}");
    let err = g.hierarchy(g.find("store.New").unwrap()[0]).unwrap_err().to_string();
    assert!(err.contains("is not a type"), "{err}");
}

/// A Go package where `Get` is a method of 10 types, called in 70 files, and the member
/// `Base.Get` is reached through every route a receiver can take: a typed
/// receiver, a subtype by embedding, a function's declared result, a field's
/// declared type.
fn many_gets() -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let write = |rel: &str, text: &str| {
        let path = p.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("go.mod", "module example.com/m\n");
    write("p/base.go", "package p\n\ntype Base struct{}\n\nfunc (b *Base) Get() int { return 1 }\n\nfunc (b *Base) Twice() int {\n\treturn b.Get() + b.Get()\n}\n");
    write("p/store.go", "package p\n\ntype Store struct {\n\tBase\n}\n\nfunc NewStore() *Store { return &Store{} }\n");
    write(
        "p/holder.go",
        "package p\n\ntype Holder struct {\n\tst *Base\n}\n\nfunc (h *Holder) Run() int {\n\treturn h.st.Get()\n}\n",
    );
    write("p/run.go", "package p\n\nfunc (h *Holder) Again() int {\n\treturn h.st.Get()\n}\n");
    write("p/typed.go", "package p\n\nfunc UseTyped(s *Store) int {\n\treturn s.Get()\n}\n");
    write("p/returns.go", "package p\n\nfunc UseReturns() int {\n\ts := NewStore()\n\treturn s.Get()\n}\n");
    for i in 0..10 {
        write(
            &format!("p/t{i}.go"),
            &format!("package p\n\ntype T{i} struct{{}}\n\nfunc (t *T{i}) Get() int {{ return {i} }}\n"),
        );
    }
    for i in 0..70 {
        let t = i % 10;
        write(
            &format!("p/use{i:02}.go"),
            &format!("package p\n\nfunc Use{i}(x *T{t}, m map[int]*T{t}) int {{\n\treturn x.Get() + m[0].Get()\n}}\n"),
        );
    }
    project::init(p, &InitOptions::default(), &|_| {}).unwrap();
    let index = Index::open(p).unwrap();
    (dir, index)
}

/// `file:line role` of every reference to SYMBOL, and the count of other lines
/// naming it.
fn refs_and_other_lines(g: &Graph<'_>, symbol: &str) -> (Vec<String>, usize) {
    let defs = g.find(symbol).unwrap();
    let (refs, other) = g.refs_counted(&defs, &[]).unwrap();
    let refs: Vec<String> = refs.into_iter().map(|r| format!("{}:{} {}", r.file, r.line, r.role)).collect();
    (refs, other)
}

#[test]
fn narrowing_to_receiver_files_reads_fewer_files_and_answers_the_same() {
    let (_dir, index) = many_gets();
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "Base.Get");
    assert_eq!(got, refs_and_other_lines(&wide, "Base.Get"));
    assert_eq!(
        got.0,
        [
            "p/base.go:8 call",
            "p/base.go:8 call",
            "p/holder.go:8 call",
            "p/returns.go:5 call",
            "p/run.go:4 call",
            "p/typed.go:4 call"
        ],
        "a typed receiver (twice on a line), a field's type (declared in another file), a declared result, a subtype by embedding"
    );
    // Lines naming `Get` outside definition lines and not answered: each user
    // file's `x.Get() + m[0].Get()` line.
    assert_eq!(got.1, 70);
    assert!(
        narrowed.files_read() * 4 < wide.files_read(),
        "narrowing read {} files, reading all {}",
        narrowed.files_read(),
        wide.files_read()
    );
    for i in [0, 3, 9] {
        let symbol = format!("T{i}.Get");
        let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
        let got = refs_and_other_lines(&narrowed, &symbol);
        assert_eq!(got, refs_and_other_lines(&wide, &symbol));
        let expected: Vec<String> = (0..70).filter(|u| u % 10 == i).map(|u| format!("p/use{u:02}.go:4 call")).collect();
        assert_eq!(got.0, expected);
    }
}

/// The definitions table (format v6) against the archives it is derived from:
/// every definition of every file of every fixture, found by its name with the
/// same id, kind, parent, declared type, extent and nesting, and nothing else.
#[test]
fn definitions_table_holds_exactly_the_archives_definitions() {
    for lang in ["go", "ts", "rust", "csharp", "python", "java", "c", "cpp", "php", "ruby"] {
        let (_dir, index) = indexed(lang);
        let g = Graph::new(&index);
        let mut from_files = Vec::new();
        for x in index.files().unwrap() {
            let f = g.file((x.segment, x.slot_id)).unwrap();
            let flags = f.nested();
            for (i, d) in f.defs.iter().enumerate() {
                let nested = flags[i];
                from_files.push((
                    d.name.clone(),
                    (f.key, i as u32),
                    d.kind.clone(),
                    d.parent.clone(),
                    d.outer.clone(),
                    d.returns.clone(),
                    d.line,
                    d.end_line,
                    nested,
                    f.scope.clone(),
                ));
            }
        }
        assert!(from_files.len() >= 5, "{lang}: {} definitions", from_files.len());
        let mut from_table = Vec::new();
        let mut names: Vec<String> = from_files.iter().map(|d| d.0.clone()).collect();
        names.sort();
        names.dedup();
        for name in &names {
            for c in g.name_defs(name).unwrap().items.iter() {
                let d = &c.def;
                assert_eq!(&d.name, name);
                from_table.push((
                    d.name.clone(),
                    c.id,
                    d.kind.clone(),
                    d.parent.clone(),
                    d.outer.clone(),
                    d.returns.clone(),
                    d.line,
                    d.end_line,
                    c.nested,
                    c.scope.clone(),
                ));
            }
        }
        from_files.sort();
        from_table.sort();
        assert_eq!(from_table, from_files, "{lang}");
    }
}

/// A definition's view made from the definitions tables (a callee whose file
/// was not read) is the one made from its file, in every fixture language.
#[test]
fn a_view_from_the_tables_is_the_view_from_the_file() {
    for lang in ["go", "ts", "rust", "csharp", "python", "java", "c", "cpp", "php", "ruby"] {
        let (_dir, index) = indexed(lang);
        let g = Graph::new(&index);
        let mut checked = 0;
        for x in index.files().unwrap() {
            let f = g.file((x.segment, x.slot_id)).unwrap();
            for (i, d) in f.defs.iter().enumerate() {
                let id = (f.key, i as u32);
                // A fresh question that looked the name up and read no file.
                let fresh = Graph::new(&index);
                fresh.name_defs(&d.name).unwrap();
                assert_eq!(fresh.view(id).unwrap(), g.view_read(id).unwrap(), "{lang}: {}", d.name);
                assert_eq!(fresh.files_read(), 0, "{lang}: {}", d.name);
                checked += 1;
            }
        }
        assert!(checked >= 5, "{lang}: {checked} definitions");
    }
}

/// The relation sections hold each `inherit` reference whose receiver is its
/// subtype, both ways, with the supertype dealiased by the file's imports, and
/// each file under its package or namespace: what scanning every file's archive
/// finds.
#[test]
fn relation_sections_hold_exactly_the_archives_supertypes_and_scopes() {
    use codegraph::extract::RefRole;
    use codegraph::snapshot::structure::PackedReceiver;
    use std::collections::{BTreeMap, BTreeSet};
    for lang in ["go", "ts", "rust", "csharp", "java", "python", "c", "cpp", "php", "ruby"] {
        let (_dir, index) = indexed(lang);
        let g = Graph::new(&index);
        let mut up: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut down: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut scopes: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for x in index.files().unwrap() {
            let f = g.file((x.segment, x.slot_id)).unwrap();
            if !f.scope.is_empty() {
                scopes.entry(f.scope.clone()).or_default().push(f.path.clone());
            }
            for r in f.refs.iter().filter(|r| r.role == RefRole::Inherit) {
                let PackedReceiver::Type(sub) = r.receiver else { continue };
                let name = f.name(r.name);
                let alias = f
                    .imports
                    .iter()
                    .flat_map(|i| i.names.iter())
                    .find(|n| n.alias == name && n.name != "*" && n.name != "default" && !n.name.is_empty());
                let sup = alias.map_or(name.to_string(), |n| n.name.clone());
                up.entry(f.name(sub).to_string()).or_default().insert(sup.clone());
                down.entry(sup).or_default().insert(f.name(sub).to_string());
            }
        }
        assert!(!up.is_empty(), "{lang}: the fixture has supertypes");
        for (map, is_up) in [(&up, true), (&down, false)] {
            for (name, others) in map {
                let table: BTreeSet<String> = g.inherit_edges(name, is_up).unwrap().into_iter().collect();
                assert_eq!(&table, others, "{lang}: {name} {}", if is_up { "up" } else { "down" });
            }
        }
        // A name with no edges has none in the table.
        assert!(g.inherit_edges("NoSuchTypeAnywhere", true).unwrap().is_empty());
        if ["go", "csharp", "java", "php"].contains(&lang) {
            assert!(!scopes.is_empty(), "{lang}: the fixture has packages or namespaces");
        }
        for (scope, mut paths) in scopes {
            let mut table: Vec<String> =
                g.scope_files(&scope).unwrap().into_iter().map(|k| g.path_of(k).unwrap()).collect();
            table.sort();
            paths.sort();
            assert_eq!(table, paths, "{lang}: {scope}");
        }
    }
}

#[test]
fn symbol_card_has_code_calls_callers_siblings_and_namesakes() {
    let (_dir, index) = indexed("go");
    let g = Graph::new(&index);
    let card = g.card(g.find("Store.Add").unwrap()[0]).unwrap();
    assert_eq!(card.symbol.qualified_name, "store.Store.Add");
    let code = card.code.unwrap();
    assert_eq!((code.start, code.end), (18, 21));
    assert!(code.text.starts_with("func (s *Store) Add(n int) {\n") && code.text.ends_with("}\n"), "{}", code.text);
    let calls: Vec<String> = card
        .calls
        .iter()
        .map(|e| e.symbol.as_ref().map_or_else(|| e.external.clone().unwrap(), |s| s.qualified_name.clone()))
        .collect();
    assert_eq!(calls, ["append", "store.Base.Flush"]);
    let callers: Vec<String> =
        card.called_by.iter().map(|e| e.symbol.as_ref().unwrap().qualified_name.clone()).collect();
    assert_eq!(callers, ["main.fill", "store.TestAdd"]);
    let siblings: Vec<(u32, &str)> = card.same_file.iter().map(|b| (b.line, b.qualified_name.as_str())).collect();
    assert_eq!(
        siblings,
        [(4, "store.Base"), (9, "store.Adder"), (13, "store.Store"), (15, "store.Store.items"), (23, "store.New")]
    );
    let namesakes: Vec<&str> = card.same_name.iter().map(|b| b.qualified_name.as_str()).collect();
    assert_eq!(namesakes, ["billing.Invoice.Add", "store.Adder.Add"]);
    assert_eq!(card.same_name_total, 2);
    // A file with imports lists them, resolved.
    let card = g.card(g.find("main.fill").unwrap()[0]).unwrap();
    let store = card.imports.iter().find(|i| i.module == "example.com/shop/store").unwrap();
    assert_eq!(store.resolved, ["store/store.go", "store/store_test.go"]);
    assert!(card.imports.iter().any(|i| i.module == "fmt" && i.resolved.is_empty()));
}

#[test]
fn python_self_fields_relative_imports_submodules_and_constructors() {
    let (_dir, index) = indexed("python");
    assert_eq!(qualified(&index, "Store.add"), ["store.Store.add"]);
    // `s = store.Store()` (a class called through the imported submodule
    // `store`). `made = make_store()` has no declared result: in Python an
    // untyped receiver's member with several candidates is counted, not listed.
    // `import shop; shop.Store()`: the package's `__init__.py` imports `Store`.
    assert_eq!(refs(&index, "Store.add"), ["app/main.py:12 call", "app/reexport.py:7 call"]);
    // `self.bill = Bill()` with `Bill` an alias of `Invoice`; `invoice.Invoice()`.
    assert_eq!(refs(&index, "Invoice.add"), ["app/main.py:14 call", "shop/store.py:14 call"]);
    let g = Graph::new(&index);
    let counted = g.refs(&g.find("Invoice.add").unwrap(), &[]).unwrap();
    assert_eq!(counted.len(), 2);
    // A module-level function named like the methods is only called plainly.
    assert_eq!(refs(&index, "main.add"), ["app/main.py:17 call"]);
    // Inherited through `class Store(Base, Adder)`, by `self.flush()` and `s.flush()`.
    assert_eq!(refs(&index, "Base.flush"), ["app/main.py:18 call", "shop/store.py:15 call"]);
    // Also through the package: `from shop import make_store as mk; mk()`.
    assert_eq!(
        refs(&index, "make_store"),
        [
            "app/main.py:3 import",
            "app/main.py:15 call",
            "app/reexport.py:2 import",
            "app/reexport.py:8 call",
            "shop/__init__.py:2 import"
        ]
    );
    let imports: Vec<Vec<String>> = g.imports("app/main.py", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(
        imports,
        [
            vec!["shop/__init__.py".to_string(), "shop/store.py".to_string()],
            vec!["shop/models/__init__.py".to_string(), "shop/models/invoice.py".to_string()],
            vec!["shop/store.py".to_string()],
        ]
    );
    let h = g.hierarchy(g.find("Adder").unwrap()[0]).unwrap();
    let subs: Vec<&str> = h.subtypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(subs, ["Invoice", "Store"]);
}

#[test]
fn java_packages_fields_implicit_this_and_interfaces() {
    let (_dir, index) = indexed("java");
    assert_eq!(qualified(&index, "Store.add"), ["com.shop.model.Store.add"]);
    // The field `store` (`Store.create()`'s declared result), `Store s = ..`;
    // line 14 calls through the interface Store implements (may dispatch).
    assert_eq!(
        refs(&index, "Store.add"),
        [
            "src/main/java/com/shop/app/App.java:11 call",
            "src/main/java/com/shop/app/App.java:14 call ambiguous",
            "src/main/java/com/shop/app/App.java:16 call"
        ]
    );
    // `Invoice inv = new Invoice()`, and the field `invoice` with implicit
    // `this`; Invoice implements Adder too.
    assert_eq!(
        refs(&index, "Invoice.add"),
        [
            "src/main/java/com/shop/app/App.java:13 call",
            "src/main/java/com/shop/app/App.java:14 call ambiguous",
            "src/main/java/com/shop/model/Store.java:7 call"
        ]
    );
    // A call through the interface references the interface's method.
    assert_eq!(refs(&index, "Adder.add"), ["src/main/java/com/shop/app/App.java:14 call"]);
    // Inherited: `s.flush()`, and `flush()` with implicit `this` in a subclass.
    assert_eq!(
        refs(&index, "Base.flush"),
        ["src/main/java/com/shop/app/App.java:17 call", "src/main/java/com/shop/model/Store.java:8 call"]
    );
    let g = Graph::new(&index);
    let imports: Vec<Vec<String>> =
        g.imports("src/main/java/com/shop/app/App.java", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    let model = |c: &str| vec![format!("src/main/java/com/shop/model/{c}.java")];
    assert_eq!(imports, [model("Adder"), model("Invoice"), model("Store")]);
}

#[test]
fn c_prototypes_and_definitions_are_one_symbol_and_statics_stay_in_their_file() {
    let (_dir, index) = indexed("c");
    // The header's prototype and the source's definition: one function.
    assert_eq!(refs(&index, "store_add"), ["src/main.c:10 call"]);
    // Two `static int check`: each file calls its own.
    assert_eq!(refs(&index, "src/store.c:4"), ["src/store.c:13 call"]);
    assert_eq!(refs(&index, "src/main.c:3"), ["src/main.c:9 call"]);
    // `store_t *s`: the typedef stands for `struct store`, whose field it is.
    assert_eq!(
        refs(&index, "store.total"),
        ["src/main.c:12 other", "src/report.c:7 other", "src/store.c:16 other", "src/store.c:17 other"]
    );
    // A header's `static inline` is every including file's.
    assert_eq!(refs(&index, "store_min"), ["src/report.c:7 call"]);
    let g = Graph::new(&index);
    let imports: Vec<(String, Vec<String>)> =
        g.imports("src/main.c", 1).unwrap().into_iter().map(|i| (i.module, i.resolved)).collect();
    assert_eq!(imports, [("store.h".to_string(), vec!["include/store.h".to_string()])]);
}

/// Regression: a third file calling `check` (from a library header) was bound
/// to the `static int check` of two other source files, as one symbol.
#[test]
fn c_statics_of_source_files_are_never_another_files_callees() {
    let (_dir, index) = indexed("c");
    let g = Graph::new(&index);
    let report = g.find("report").unwrap();
    let callees: Vec<(Option<String>, Option<String>)> = g
        .callees(report[0], 1)
        .unwrap()
        .into_iter()
        .map(|e| (e.symbol.map(|s| format!("{}:{}", s.file, s.line)), e.external))
        .collect();
    assert_eq!(callees, [(None, Some("check".to_string())), (Some("include/store.h:11".to_string()), None)]);
    assert!(g.callers(g.find("src/store.c:4").unwrap().as_slice(), 1).unwrap().iter().all(|e| e.file == "src/store.c"));
}

#[test]
fn cpp_out_of_class_definitions_this_fields_and_namespaces() {
    let (_dir, index) = indexed("cpp");
    assert_eq!(qualified(&index, "Store.add"), ["shop::Store::add", "shop::Store::add"]);
    // `shop::Store* s = shop::Store::create()`; the declaration in the class
    // and the definition outside it are one method, so not ambiguous.
    assert_eq!(refs(&index, "Store.add"), ["src/main.cpp:5 call"]);
    // `inv.add`, and `invoice_.add` in `Store::add` (a field of `Store`,
    // declared in the header: C++'s implicit `this`).
    assert_eq!(refs(&index, "Invoice.add"), ["src/main.cpp:7 call", "src/store.cpp:10 call"]);
    // `auto* t = new shop::Store()`, `this->flush()`: inherited from `Base`.
    assert_eq!(refs(&index, "Base.flush"), ["src/main.cpp:9 call", "src/store.cpp:11 call"]);
    assert_eq!(refs(&index, "Store.create"), ["src/main.cpp:4 call"]);
}

#[test]
fn php_namespaces_use_aliases_and_this() {
    let (_dir, index) = indexed("php");
    assert_eq!(qualified(&index, "Store.add"), ["App\\Models\\Store::add"]);
    assert_eq!(refs(&index, "App\\Models\\Store::add"), ["app/Http/Controller.php:11 call"]);
    // `use App\Models\Invoice as Bill; $bill = new Bill()`, `$this->invoice`.
    assert_eq!(refs(&index, "Invoice.add"), ["app/Http/Controller.php:13 call", "app/Models/Store.php:20 call"]);
    assert_eq!(refs(&index, "Base.flush"), ["app/Http/Controller.php:15 call", "app/Models/Store.php:21 call"]);
}

#[test]
fn ruby_requires_instance_variables_and_implicit_self() {
    let (_dir, index) = indexed("ruby");
    assert_eq!(qualified(&index, "Store.add"), ["Shop::Store::add"]);
    // `store = Shop::Store.new`.
    assert_eq!(refs(&index, "Store.add"), ["lib/shop.rb:5 call"]);
    // `@invoice = Invoice.new` in `initialize`, then `@invoice.add(n)`.
    assert_eq!(refs(&index, "Invoice.add"), ["lib/shop.rb:7 call", "lib/shop/store.rb:14 call"]);
    // `flush` with Ruby's implicit `self`, inherited from `Base`.
    assert_eq!(refs(&index, "Base.flush"), ["lib/shop.rb:8 call", "lib/shop/store.rb:15 other"]);
    let g = Graph::new(&index);
    let imports: Vec<Vec<String>> = g.imports("lib/shop.rb", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(imports, [vec!["lib/shop/store.rb".to_string()]]);
}

/// Regression: on django, JavaScript's `cache.push(..)` in the admin's static
/// files was listed among the references of a Python method `push` (candidates
/// were not limited to the reference's own language).
#[test]
fn references_bind_only_to_definitions_of_their_own_language_family() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(
        p.join("context.py"),
        "class Context:\n    def push(self):\n        pass\n\n\ndef run(c: Context):\n    c.push()\n",
    )
    .unwrap();
    std::fs::write(p.join("box.js"), "function init(cache) {\n  cache.push(1);\n  cache.pushAll(1);\n}\n").unwrap();
    std::fs::write(p.join("stack.ts"), "export class Stack {\n  push(n: number) {}\n  pushAll(n: number) {}\n}\n")
        .unwrap();
    project::init(p, &InitOptions::default(), &|_| {}).unwrap();
    let index = Index::open(p).unwrap();
    assert_eq!(refs(&index, "Context.push"), ["context.py:7 call"]);
    // JavaScript still binds to TypeScript (one family): `cache` is untyped,
    // so the only `pushAll` of the family is a candidate (a guess); `push`
    // is also an array's, and box.js names no Stack: no binding.
    assert_eq!(refs(&index, "Stack.pushAll"), ["box.js:3 call ambiguous"]);
    assert_eq!(refs(&index, "Stack.push"), Vec::<String>::new());
}

/// `cg graph` / `codegraph_graph` on the Go fixture: calls both ways to depth 2
/// (through the level above), a method's overrides (not its type's
/// supertypes), a type's supertypes, a file's importers.
#[test]
fn neighborhood_of_a_method_a_type_and_a_file() {
    let (_dir, index) = indexed("go");
    let g = Graph::new(&index);
    let show = |seed: &str, depth: usize, relations: &[&str]| -> Vec<String> {
        let n = g.neighborhood(seed, depth, relations).unwrap();
        let name = |i: usize| n.nodes[i].name.clone();
        n.edges.iter().map(|e| format!("{} -{}-> {}", name(e.from), e.relation, name(e.to))).collect()
    };
    assert_eq!(
        show("Store.Add", 2, &["calls", "inherits"]),
        [
            "store.Store.Add -calls-> append",
            "store.Store.Add -calls-> store.Base.Flush",
            "main.fill -calls-> store.Store.Add",
            "store.TestAdd -calls-> store.Store.Add",
            "main.main -calls-> main.fill",
            "store.Store.Add -overrides-> store.Adder.Add",
        ]
    );
    assert_eq!(
        show("Store", 1, &["inherits"]),
        ["store.Store -inherits-> store.Base", "store.Store -inherits-> store.Adder"]
    );
    assert_eq!(
        show("store/store.go", 1, &[]),
        ["cmd/main.go -imports-> store/store.go", "cmd/main.go -imports-> store/store_test.go"]
    );
    assert!(g.neighborhood("NoSuchThing", 1, &[]).is_err());
}

/// Regression: a Go name without a package (`new(T)`, `helper()`) was bound to
/// the one function of that name anywhere (kubernetes: `new` to a vendored
/// package's unexported `hcn.new`); it is its own package's or a builtin.
#[test]
fn go_plain_names_never_bind_to_another_packages_functions() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n"),
        ("lib/h.go", "package lib\n\nfunc new() int { return 1 }\n\nfunc helper() int { return 2 }\n"),
        (
            "a/a.go",
            "package a\n\nfunc F() *int {\n\treturn new(int)\n}\n\nfunc G() int {\n\treturn helper() + own()\n}\n",
        ),
        ("a/own.go", "package a\n\nfunc own() int { return 3 }\n"),
    ]);
    assert_eq!(callees(&index, "a.F"), ["external new"]);
    assert_eq!(callees(&index, "a.G"), ["external helper", "a.own"]);
}

fn project_of(files: &[(&str, &str)]) -> (tempfile::TempDir, Index) {
    common::indexed_project(files)
}

/// The callers of SYMBOL, one level: `qualified name [call lines]`.
fn callers(index: &Index, symbol: &str) -> Vec<String> {
    let g = Graph::new(index);
    g.callers(&g.find(symbol).unwrap(), 1)
        .unwrap()
        .into_iter()
        .map(|c| format!("{} {:?}", c.symbol.map_or(String::new(), |s| s.qualified_name), c.lines))
        .collect()
}

/// The callees of SYMBOL by qualified name ("external NAME" for a library's).
fn callees(index: &Index, symbol: &str) -> Vec<String> {
    let g = Graph::new(index);
    let id = g.find(symbol).unwrap()[0];
    g.callees(id, 1)
        .unwrap()
        .into_iter()
        .map(|e| match (e.symbol, e.external) {
            (Some(s), _) => s.qualified_name,
            (None, Some(name)) => format!("external {name}"),
            _ => String::new(),
        })
        .collect()
}

/// Regression: a name imported from Rust's standard library (`use
/// std::mem::take;`) or the JDK (`import java.util.Optional;`) was bound to
/// the project's one definition of that name (the import found no project
/// file, and the "defined once in the project" step took over).
#[test]
fn names_imported_from_the_standard_library_never_bind_to_project_definitions() {
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[package]\nname = \"p\"\n"),
        ("src/lib.rs", "mod util;\nmod a;\n"),
        ("src/util.rs", "pub fn take(v: u32) -> u32 { v }\npub fn swap() {}\n"),
        (
            "src/a.rs",
            "use std::mem::take;\nuse crate::util::swap;\n\npub fn run(v: &mut Vec<u8>) {\n    let _ = take(v);\n    swap();\n}\n",
        ),
    ]);
    assert_eq!(callees(&index, "a::run"), ["external take", "util::swap"]);
    let (_dir, index) = project_of(&[
        ("src/main/java/p/util/Optional.java", "package p.util;\n\npublic class Optional {\n}\n"),
        (
            "src/main/java/p/App.java",
            "package p;\n\nimport java.util.Optional;\n\npublic class App {\n    Optional<String> none() { return Optional.empty(); }\n}\n",
        ),
        (
            "src/main/java/p/Mine.java",
            "package p;\n\nimport p.util.Optional;\n\npublic class Mine {\n    Optional mine;\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "p.util.Optional"),
        ["src/main/java/p/Mine.java:3 import", "src/main/java/p/Mine.java:6 type"]
    );
}

/// A Rust workspace: `use other_crate::m::Item` is followed into the crate
/// folder beside this one (`crates/other-crate/src/m.rs`), so a name defined
/// there and in another crate binds to the imported one, not to both.
#[test]
fn rust_imports_follow_into_the_workspaces_other_crates() {
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/other-crate/src/lib.rs", "pub mod m;\n"),
        ("crates/other-crate/src/m.rs", "pub fn build() {}\n"),
        ("crates/third/src/lib.rs", "pub fn build() {}\n"),
        ("crates/app/src/lib.rs", "use other_crate::m::build;\n\npub fn go() {\n    build();\n}\n"),
        ("crates/app/src/alias.rs", "use other_crate as oc;\nuse serde;\n"),
    ]);
    assert_eq!(callees(&index, "go"), ["m::build"]);
    let g = Graph::new(&index);
    let imports: Vec<(String, Vec<String>)> =
        g.imports("crates/app/src/alias.rs", 1).unwrap().into_iter().map(|i| (i.module, i.resolved)).collect();
    assert_eq!(imports[0].1, ["crates/other-crate/src/lib.rs"], "{imports:?}");
    assert!(imports[1].1.is_empty(), "{imports:?}");
}

/// Regression: a Rust name imported as a module (`use crate::fmt;`, then
/// `fmt::S`) was bound to the module file's members of that name (the `fmt`
/// methods of `fmt/mod.rs`). A module is no definition; but a call of the
/// name is of a function the module defines and its parent re-exports (`use
/// super::floor;`, then `floor(x)`).
#[test]
fn rust_module_names_are_not_definitions_but_calls_reach_their_functions() {
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[package]\nname = \"p\"\n"),
        ("src/lib.rs", "mod fmt;\nmod b;\nmod math;\n"),
        ("src/fmt/mod.rs", "pub struct S;\n\nimpl S {\n    pub fn fmt(&self) {}\n}\n"),
        ("src/b.rs", "use crate::fmt;\n\npub fn show(s: &fmt::S) {\n    s.fmt();\n}\n"),
        ("src/math/mod.rs", "mod floor;\nmod gamma;\npub use self::floor::floor;\n"),
        ("src/math/floor.rs", "pub fn floor(x: f64) -> f64 {\n    x\n}\n"),
        ("src/math/gamma.rs", "use super::floor;\n\npub fn gamma(x: f64) -> f64 {\n    floor(x)\n}\n"),
    ]);
    assert_eq!(refs(&index, "S.fmt"), ["src/b.rs:4 call"]);
    assert_eq!(callees(&index, "gamma"), ["math::floor::floor"]);
}

/// Go's `new(T)` makes a *T: `s := new(store.Store); s.Add()` is Store's Add,
/// not every Add of the project (kubernetes: `new(inf.Dec).SetString` was
/// ambiguous among three SetString methods).
#[test]
fn go_new_types_its_result() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n"),
        ("store/store.go", "package store\n\ntype Store struct{}\n\nfunc (s *Store) Add() {}\n"),
        (
            "a/a.go",
            "package a\n\nimport \"example.com/m/store\"\n\ntype Invoice struct{}\n\nfunc (i *Invoice) Add() {}\n\nfunc F() {\n\ts := new(store.Store)\n\ts.Add()\n\ti := new(Invoice)\n\ti.Add()\n\tnew(Invoice).Add()\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Store.Add"), ["a/a.go:11 call"]);
    assert_eq!(refs(&index, "Invoice.Add"), ["a/a.go:13 call", "a/a.go:14 call"]);
}

/// Regression: a Python annotation `Optional[Store]` typed its value as
/// `Optional` (and `typing.Optional[Store]` as `typing`, `"Store"` as nothing),
/// so `find().add()` and `s.add()` bound to no `add`.
#[test]
fn python_optional_and_quoted_annotations_type_their_values() {
    let (_dir, index) = project_of(&[(
        "shop/store.py",
        "import typing\nfrom typing import Optional\n\n\nclass Store:\n    def add(self):\n        pass\n\n\nclass Invoice:\n    def add(self):\n        pass\n\n\ndef find() -> Optional[Store]:\n    return None\n\n\ndef use(s: \"Store\", i: typing.Optional[Invoice], j: Invoice | None):\n    s.add()\n    i.add()\n    j.add()\n    x = find()\n    x.add()\n",
    )]);
    assert_eq!(refs(&index, "Store.add"), ["shop/store.py:20 call", "shop/store.py:24 call"]);
    assert_eq!(refs(&index, "Invoice.add"), ["shop/store.py:21 call", "shop/store.py:22 call"]);
}

/// Ruby's `Store.new` runs `Store#initialize` (a subclass without one runs its
/// base class's): the `.new` calls are its references and callers.
#[test]
fn ruby_new_calls_initialize() {
    let (_dir, index) = project_of(&[
        (
            "lib/shop.rb",
            "class Base\n  def initialize(x)\n    @x = x\n  end\nend\n\nclass Store < Base\n  def initialize\n    super(1)\n  end\nend\n\nclass Child < Base\nend\n",
        ),
        ("lib/run.rb", "require_relative 'shop'\n\ndef run\n  s = Store.new\n  c = Child.new(2)\n  [s, c]\nend\n"),
    ]);
    assert_eq!(refs(&index, "Store.initialize"), ["lib/run.rb:4 call"]);
    // `super(1)` in `Store#initialize` too.
    assert_eq!(refs(&index, "Base.initialize"), ["lib/run.rb:5 call", "lib/shop.rb:9 call"]);
    assert_eq!(callers(&index, "Store.initialize"), ["run [4]"]);
    assert_eq!(callees(&index, "run"), ["Store::initialize", "Base::initialize"]);
}

/// Regression: a receiver typed by a generic parameter (`x: T`) was typed as a
/// type named `T`, whose supertypes by name are every blanket impl's (`impl<T>
/// Describe for T`): on rustc, walking them read most of the tree, and `T`
/// stood in the hierarchy as a subtype of `Describe`.
#[test]
fn receivers_typed_by_a_generic_parameter_are_of_unknown_type() {
    let (_dir, index) = project_of(&[(
        "src/lib.rs",
        "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\
         pub struct Square;\n\
         impl Shape for Square {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n\
         pub trait Describe {\n    fn describe(&self);\n}\n\
         impl<T: Shape> Describe for T {\n    fn describe(&self) {}\n}\n\
         pub fn total<T: Shape>(x: T) -> f64 {\n    x.area()\n}\n",
    )]);
    let g = Graph::new(&index);
    assert!(g.inherit_edges("Describe", false).unwrap().is_empty());
    assert_eq!(g.inherit_edges("Square", true).unwrap(), ["Shape"]);
    // `x.area()`: one of the two `area`s, unknown which.
    assert_eq!(refs(&index, "Shape.area"), ["src/lib.rs:17 call ambiguous"]);
}

/// Regression: with `import . "path"`, a plain `New()` was bound to every
/// package's `New` (the project-wide step); it is the dot-imported package's.
/// And `refs` of a package's function read only the files that can name it.
#[test]
fn go_dot_imports_bring_in_their_packages_names_only() {
    let mut files: Vec<(String, String)> = vec![
        ("go.mod".into(), "module example.com/m\n".into()),
        ("aa/a.go".into(), "package aa\n\nfunc New() int { return 1 }\n".into()),
        ("bb/b.go".into(), "package bb\n\nfunc New() int { return 2 }\n".into()),
        ("cc/c.go".into(), "package cc\n\nimport . \"example.com/m/aa\"\n\nfunc C() int { return New() }\n".into()),
        (
            "dd/d.go".into(),
            "package dd\n\nimport bee \"example.com/m/bb\"\n\nfunc D() int { return bee.New() }\n".into(),
        ),
    ];
    // Enough other files naming `New` for `refs` to narrow what it reads.
    for i in 0..80 {
        files.push((format!("u/u{i:02}.go"), format!("package u\n\nfunc New{i}() int {{ return New() }}\n")));
    }
    files.push(("u/new.go".into(), "package u\n\nfunc New() int { return 0 }\n".into()));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = project_of(&files);
    assert_eq!(callees(&index, "cc.C"), ["aa.New"]);
    assert_eq!(callees(&index, "dd.D"), ["bb.New"]);
    for (symbol, expected) in [("aa.New", vec!["cc/c.go:5 call"]), ("bb.New", vec!["dd/d.go:5 call"])] {
        let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
        let answer = |g: &Graph<'_>| -> Vec<String> {
            let defs = g.find(symbol).unwrap();
            g.refs(&defs, &[]).unwrap().into_iter().map(|r| format!("{}:{} {}", r.file, r.line, r.role)).collect()
        };
        assert_eq!(answer(&narrowed), expected, "{symbol}");
        assert_eq!(answer(&wide), expected, "{symbol}");
        assert!(
            narrowed.files_read() * 4 < wide.files_read(),
            "{symbol}: {} of {}",
            narrowed.files_read(),
            wide.files_read()
        );
    }
}

/// Regression: a Go struct literal's key (`Pod{Name: n}`) was a plain name, bound
/// to the package's function or constant of that name (kubernetes: `Resource: x`
/// under a `Resource` function) and hidden by a local `name` (`Pod{name: name}`).
/// It is a field of the literal's type, in elided inner literals too
/// (`[]Pod{p, {Name: n}}`, `map[string]*api.Pod{"a": {Name: ..}}`); a map's keys
/// stay expressions. An embedded field is named after its type (`Pod{Meta: ..}`,
/// `p.Meta`).
#[test]
fn go_struct_literal_keys_are_fields_of_the_literals_type() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n"),
        (
            "api/pod.go",
            "package api\n\ntype Pod struct {\n\tName string\n\tSpec *Spec\n\tname string\n\tMeta\n}\n\ntype Spec struct {\n\tName string\n}\n\nfunc Name() string { return \"n\" }\n\ntype Meta struct {\n\tUID string\n}\n",
        ),
        (
            "api/make.go",
            "package api\n\nconst Key = \"k\"\n\nfunc Make(name string) []Pod {\n\tp := Pod{Name: name, Spec: &Spec{Name: Name()}, name: name}\n\tm := map[string]string{Key: name}\n\t_ = m\n\treturn []Pod{p, {Name: name}}\n}\n\nfunc UID(p Pod) string {\n\tq := Pod{Meta: Meta{UID: \"u\"}}\n\treturn p.Meta.UID + q.UID\n}\n",
        ),
        (
            "app/app.go",
            "package app\n\nimport \"example.com/m/api\"\n\nvar pods = map[string]*api.Pod{\"a\": {Name: \"a\"}}\n\nvar anon = struct{ Name string }{Name: \"x\"}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Pod.Name"), ["api/make.go:6 other", "api/make.go:9 other", "app/app.go:5 other"]);
    assert_eq!(refs(&index, "Spec.Name"), ["api/make.go:6 other"]);
    assert_eq!(refs(&index, "Pod.Spec"), ["api/make.go:6 other"]);
    assert_eq!(refs(&index, "Pod.name"), ["api/make.go:6 other"]);
    assert_eq!(refs(&index, "api.Name"), ["api/make.go:6 call"]);
    assert_eq!(refs(&index, "Key"), ["api/make.go:7 other"]);
    // An embedded field is named after its type: `Pod{Meta: ..}`, `p.Meta`.
    assert_eq!(
        refs(&index, "Meta"),
        ["api/make.go:13 other", "api/make.go:13 type", "api/make.go:14 other", "api/pod.go:7 inherit"]
    );
    assert_eq!(refs(&index, "Meta.UID"), ["api/make.go:13 other", "api/make.go:14 other", "api/make.go:14 other"]);
    assert!(refs(&index, "api.UID").is_empty());
}

/// Regression: Go receiver and literal types are kept by simple name, so a
/// member of `v1.PodSpec` was ambiguous with the same member of every other
/// `PodSpec` (kubernetes: `refs PodSpec.Containers` listed 1,704 of 1,704
/// ambiguous, between `core.PodSpec` and `v1.PodSpec`). A type written in a Go
/// file is its package's or an imported package's: a file importing one of them
/// binds to that one; a file importing both stays ambiguous. A field's type is
/// its package's (`p.Spec.Containers` with `p *v1.Pod`: `v1.PodSpec`'s).
#[test]
fn go_receiver_types_are_of_the_files_package_or_its_imports() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n"),
        (
            "api/v1/types.go",
            "package v1\n\ntype PodSpec struct {\n\tContainers []string\n}\n\ntype Pod struct {\n\tSpec PodSpec\n}\n",
        ),
        (
            "internal/core/types.go",
            "package core\n\ntype PodSpec struct {\n\tContainers []string\n}\n\nfunc (s *PodSpec) Count() int {\n\treturn len(s.Containers)\n}\n\ntype Pod struct {\n\tSpec PodSpec\n}\n",
        ),
        (
            "app/app.go",
            "package app\n\nimport v1 \"example.com/m/api/v1\"\n\nvar spec = v1.PodSpec{Containers: nil}\n\nfunc Count(s *v1.PodSpec) int {\n\treturn len(s.Containers)\n}\n\nfunc OfPod(p *v1.Pod) int {\n\treturn len(p.Spec.Containers)\n}\n",
        ),
        (
            "conv/conv.go",
            "package conv\n\nimport (\n\t\"example.com/m/api/v1\"\n\t\"example.com/m/internal/core\"\n)\n\nfunc Convert(in *v1.PodSpec, out *core.PodSpec) {\n\tout.Containers = in.Containers\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "v1.PodSpec.Containers"),
        [
            "app/app.go:5 other",
            "app/app.go:8 other",
            "app/app.go:12 other",
            "conv/conv.go:9 other ambiguous",
            "conv/conv.go:9 other ambiguous"
        ]
    );
    // `p.Spec` with `p *v1.Pod`: the field of the `Pod` the file sees.
    assert_eq!(refs(&index, "v1.Pod.Spec"), ["app/app.go:12 other"]);
    assert_eq!(
        refs(&index, "core.PodSpec.Containers"),
        ["conv/conv.go:9 other ambiguous", "conv/conv.go:9 other ambiguous", "internal/core/types.go:8 other"]
    );
}

/// Regression: Go imports of a module that the project's `go.mod` replaces with
/// a project folder were external (kubernetes: `k8s.io/api`,
/// `k8s.io/apimachinery`, `k8s.io/client-go` => `./staging/src/k8s.io/..`, so
/// `metav1.ObjectMeta` bound nowhere and no caller outside apimachinery was
/// found). A nested module's own `replace` (`=> ../util`) counts from its folder.
#[test]
fn go_imports_follow_go_mod_replacements_into_the_project() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n\ngo 1.15\n\nreplace example.com/lib => ./staging/lib\n"),
        (
            "staging/lib/go.mod",
            "module example.com/lib\n\nreplace (\n\texample.com/util v0.0.0 => ../util // the local copy\n\tgithub.com/x/y => github.com/x/y v1.2.0\n)\n",
        ),
        ("staging/lib/pkg/store/store.go", "package store\n\ntype Store struct{}\n\nfunc New() *Store { return &Store{} }\n"),
        (
            "staging/lib/pkg/store/use.go",
            "package store\n\nimport \"example.com/util\"\n\nfunc Use() int { return util.Helper() }\n",
        ),
        ("staging/util/util.go", "package util\n\nfunc Helper() int { return 1 }\n"),
        (
            "cmd/main.go",
            "package main\n\nimport \"example.com/lib/pkg/store\"\n\nfunc main() {\n\tstore.New()\n\tstore.Use()\n}\n",
        ),
    ]);
    let g = Graph::new(&index);
    let imports: Vec<Vec<String>> = g.imports("cmd/main.go", 1).unwrap().into_iter().map(|i| i.resolved).collect();
    assert_eq!(imports, [["staging/lib/pkg/store/store.go", "staging/lib/pkg/store/use.go"]]);
    assert_eq!(callees(&index, "main.main"), ["store.New", "store.Use"]);
    assert_eq!(callees(&index, "store.Use"), ["util.Helper"]);
}

/// TS/JS object keys are properties of the object's type where the file tells
/// it: a declared variable, field or parameter type (arrays of it too), `as T`,
/// a function's declared result for what it returns, the value a pattern
/// destructures, the field a nested literal is the value of. A type alias's
/// constituents are its supertypes (`x.name` with `x: Option`, a union of
/// types extending `Base`, is `Base.name`), and `type` is a property name like
/// any other. A key whose object's type is not told (a call's argument) is no
/// reference; the same key of another type binds there.
#[test]
fn typescript_object_keys_are_properties_of_the_contextual_type() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface Base {\n  name: string;\n  type: string;\n}\n\
             export interface Str extends Base {\n  size: number;\n}\n\
             export interface Num extends Base {\n  max: number;\n  inner: Inner;\n}\n\
             export interface Inner {\n  depth: number;\n}\n\
             export type Option = Str | Num;\n\
             export type Table = Partial<Num>;\n\
             export interface Host {\n  read(): string;\n}\n\
             export interface Other {\n  name: string;\n}\n",
        ),
        (
            "src/use.ts",
            "import { Option, Str, Num, Host, Other, Table } from \"./types\";\n\
             \n\
             export const all: Option[] = [\n  { name: \"a\", type: \"string\", size: 1 },\n];\n\
             export function make(): Num {\n  return { name: \"b\", type: \"n\", max: 2, inner: { depth: 3 } };\n}\n\
             export function show({ size }: Str, o: Option): string {\n  const { name } = o;\n  return name + size + o.type;\n}\n\
             const host: Host = {\n  read() { return \"r\"; },\n};\n\
             const cast = { max: 4 } as Num;\n\
             const t: Table = { max: 5 };\n\
             const other: Other = { name: \"o\" };\n\
             log({ name: \"untyped\" });\n\
             function log(x: unknown) {}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Base.name"), ["src/use.ts:4 other", "src/use.ts:7 other", "src/use.ts:10 other"]);
    assert_eq!(refs(&index, "Base.type"), ["src/use.ts:4 other", "src/use.ts:7 other", "src/use.ts:11 other"]);
    assert_eq!(refs(&index, "Str.size"), ["src/use.ts:4 other", "src/use.ts:9 other"]);
    assert_eq!(refs(&index, "Num.max"), ["src/use.ts:7 other", "src/use.ts:16 other", "src/use.ts:17 other"]);
    assert_eq!(refs(&index, "Num.inner"), ["src/use.ts:7 other"]);
    assert_eq!(refs(&index, "Inner.depth"), ["src/use.ts:7 other"]);
    assert_eq!(refs(&index, "Host.read"), ["src/use.ts:14 other"]);
    assert_eq!(refs(&index, "Other.name"), ["src/use.ts:18 other"]);
    // The alias is made of its constituents.
    let g = Graph::new(&index);
    let h = g.hierarchy(g.find("Option").unwrap()[0]).unwrap();
    let supers: Vec<String> = h.supertypes.iter().map(|s| format!("{} {}", s.depth, s.name)).collect();
    assert_eq!(supers, ["1 Str", "1 Num", "2 Base"]);
}

/// TS: a member its receiver's type does not declare, nor its supertypes, is a
/// subtype's (the compiler narrowed the receiver: `if (isBinary(node))
/// node.operator` with `node: Node`), ambiguous when several declare it; an
/// enum member as a type (`kind: Kind.Binary`, `type Op = Kind.Binary | ..`)
/// is the member; a name bound
/// outside functions with a told type types its uses in the file's functions.
#[test]
fn typescript_narrowed_receivers_enum_member_types_and_module_level_bindings() {
    let (_dir, index) = project_of(&[
        (
            "src/nodes.ts",
            "export enum Kind { Binary, Call }\n\
             export interface Node {\n  kind: Kind;\n}\n\
             export interface Binary extends Node {\n  kind: Kind.Binary;\n  operator: string;\n  left: Node;\n}\n\
             export interface Call extends Node {\n  kind: Kind.Call;\n  left: Node;\n}\n\
             export class Cache {\n  get(k: string): Node { return null as any; }\n}\n\
             export type Op = Kind.Binary | Kind.Call;\n",
        ),
        (
            "src/use.ts",
            "import { Node, Kind, Cache } from \"./nodes\";\n\
             \n\
             const cache = new Cache();\n\
             export function visit(node: Node): string {\n  const n = cache.get(\"k\");\n  return node.operator + node.left + n.kind;\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Binary.operator"), ["src/use.ts:6 other"]);
    assert_eq!(refs(&index, "Binary.left"), ["src/use.ts:6 other ambiguous"]);
    assert_eq!(refs(&index, "Call.left"), ["src/use.ts:6 other ambiguous"]);
    // Also in a type alias (not a constituent: `ns.A` may be an enum member).
    assert_eq!(refs(&index, "Kind.Binary"), ["src/nodes.ts:6 type", "src/nodes.ts:17 type"]);
    assert_eq!(refs(&index, "Cache.get"), ["src/use.ts:5 call"]);
    // `n.kind`: Node's own member, not its subtypes'.
    assert_eq!(refs(&index, "Node.kind"), ["src/use.ts:6 other"]);
    assert!(refs(&index, "Binary.kind").is_empty());
}

/// Ten TS classes `T0`..`T9` declaring `member` (a class body line) and 70
/// files each using `x.<used>` of one of them: a member name many types share,
/// so that `refs` narrows the files it reads.
fn ts_namesakes(files: &mut Vec<(String, String)>, member: &str, used: &str) {
    for i in 0..10 {
        files.push((format!("src/t{i}.ts"), format!("export class T{i} {{\n  {member}\n}}\n")));
    }
    for i in 0..70 {
        let t = i % 10;
        files.push((
            format!("src/use{i:02}.ts"),
            format!("import {{ T{t} }} from \"./t{t}\";\nexport function use{i}(x: T{t}) {{\n  return x.{used};\n}}\n"),
        ));
    }
}

/// A project of `files` and [`ts_namesakes`]' types and users.
fn ts_project(mut files: Vec<(String, String)>, member: &str, used: &str) -> (tempfile::TempDir, Index) {
    ts_namesakes(&mut files, member, used);
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    project_of(&files)
}

/// The references to SYMBOL ([`refs_and_other_lines`]), checked to be those
/// reading every file gives.
fn narrowed_refs(index: &Index, symbol: &str) -> Vec<String> {
    let (narrowed, wide) = (Graph::new(index), Graph::new(index).exhaustive());
    let got = refs_and_other_lines(&narrowed, symbol);
    assert_eq!(got, refs_and_other_lines(&wide, symbol), "{symbol}");
    got.0
}

/// `refs` of a TS member that many types share reads only the files naming a
/// type it can be reached through, and a receiver typed as a supertype of the
/// member's type reaches it (narrowed): those files are read too, and the
/// answer is the one reading every file gives.
#[test]
fn typescript_narrowed_receivers_are_found_when_refs_reads_fewer_files() {
    let files: Vec<(String, String)> = vec![
        ("src/base.ts".into(), "export interface Base {\n  id: number;\n}\n".into()),
        (
            "src/sub.ts".into(),
            "import { Base } from \"./base\";\nexport interface Sub extends Base {\n  get(): number;\n}\n".into(),
        ),
        (
            "src/narrow.ts".into(),
            "import { Base } from \"./base\";\nexport function run(b: Base): number {\n  return b.get();\n}\n".into(),
        ),
    ];
    let (_dir, index) = ts_project(files, "get(): number { return 0; }", "get()");
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "Sub.get");
    assert_eq!(got, refs_and_other_lines(&wide, "Sub.get"));
    assert_eq!(got.0, ["src/narrow.ts:3 call"]);
    assert!(narrowed.files_read() * 4 < wide.files_read(), "{} vs {}", narrowed.files_read(), wide.files_read());
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "T3.get");
    assert_eq!(got, refs_and_other_lines(&wide, "T3.get"));
    assert_eq!(got.0.len(), 7);
}

/// Regression: a member of a field of a value that is not a typed name lost
/// its receiver's type, so `s.exports!.get()` and `look(n).exports.get()` were
/// listed under every `get` (ambiguous) or, past eight of them, not at all:
/// TS's `x!` and `(x)` hide nothing; a field of a call's result is a field of
/// what the function is declared to return (`mk().direct`, `const h = mk();
/// h.direct`), through fields of fields (`mkOuter().inner.direct`); a local
/// assigned or destructured from a field (`const e = h.direct`, `const { inner }
/// = mkOuter()`) is that field.
/// With many `get`s `refs` reads only the files a receiver can reach the type
/// through, which must include those naming a function returning the field's
/// owner (the file naming neither the map type nor `Holder`).
#[test]
fn typescript_fields_of_call_results_and_non_null_values_keep_their_type() {
    let mut files: Vec<(String, String)> = vec![
        (
            "src/map.ts".into(),
            "export interface ReadonlyMap2<K, V> {\n  get(key: K): V | undefined;\n}\nexport interface Map2<K, V> extends ReadonlyMap2<K, V> {\n  set(key: K, v: V): void;\n}\n".into(),
        ),
        (
            "src/holder.ts".into(),
            "import { Map2 } from \"./map\";\nexport interface Holder {\n  direct: Map2<string, number>;\n  opt?: Map2<string, number>;\n}\n".into(),
        ),
        (
            "src/make.ts".into(),
            "import { Holder } from \"./holder\";\nexport function mk(): Holder | undefined {\n  return undefined;\n}\n".into(),
        ),
        (
            "src/outer.ts".into(),
            "import { Holder } from \"./holder\";\nexport interface Outer {\n  inner: Holder;\n}\nexport function mkOuter(): Outer {\n  return { inner: { direct: new Map() } } as any;\n}\n".into(),
        ),
        (
            "src/use.ts".into(),
            [
                "import { mk } from \"./make\";",
                "export function a() {",
                "  return mk()!.direct.get(\"a\");",
                "}",
                "export function b() {",
                "  const h = mk();",
                "  return h && h.opt!.get(\"b\");",
                "}",
                "export function c() {",
                "  const h = mk()!;",
                "  const e = h.direct;",
                "  return (e).get(\"c\");",
                "}",
                "",
            ]
            .join("\n"),
        ),
        (
            // Naming neither `Holder` nor a function returning one.
            "src/use2.ts".into(),
            [
                "import { mkOuter } from \"./outer\";",
                "export function d() {",
                "  return mkOuter().inner.direct.get(\"d\");",
                "}",
                "",
            ]
            .join("\n"),
        ),
        (
            "src/use3.ts".into(),
            [
                "import { mkOuter } from \"./outer\";",
                "export function e() {",
                "  const { inner } = mkOuter();",
                "  return inner.opt!.get(\"e\");",
                "}",
                "",
            ]
            .join("\n"),
        ),
    ];
    ts_namesakes(&mut files, "get(): number { return 0; }", "get()");
    // Files naming the fields more than those naming their owners: `refs`
    // follows the owners (three fields up) rather than read them all.
    for i in 0..30 {
        files.push((format!("src/n{i:02}.ts"), format!("export const n{i} = {{ direct: {i}, inner: {i} }};\n")));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let (_dir, index) = project_of(&files);
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "ReadonlyMap2.get");
    assert_eq!(got, refs_and_other_lines(&wide, "ReadonlyMap2.get"));
    assert_eq!(
        got.0,
        ["src/use.ts:3 call", "src/use.ts:7 call", "src/use.ts:12 call", "src/use2.ts:3 call", "src/use3.ts:4 call"]
    );
    assert!(narrowed.files_read() * 4 < wide.files_read(), "{} vs {}", narrowed.files_read(), wide.files_read());
}

/// A TS type guard (`isDecl(n: Node): n is Decl`) narrows what it guards in
/// the branch it holds in (`if (isDecl(x)) x.name`, `isDecl(x) && x.name`,
/// `isDecl(x) ? x.name : ..`); a function returning a boolean narrows nothing
/// (the local keeps its declared type); after `if (!isDecl(x)) return;` the
/// rest of the block is narrowed; a field of a guarded value is typed too; a
/// declared `Readonly<T>` is a `T`.
/// With many `name`s, `refs` reads the files naming a guard of the type too.
#[test]
fn typescript_type_guards_narrow_the_branch_they_hold_in() {
    let files: Vec<(String, String)> = vec![
        (
            "src/a.ts".into(),
            [
                "export interface Node {\n  kind: number;\n}",
                "export interface Decl extends Node {\n  name: string;\n  next: Decl;\n}",
                "export function isDecl(n: Node): n is Decl {\n  return n.kind === 1;\n}",
                "export function hasKind(n: Node): boolean {\n  return n.kind === 2;\n}\n",
            ]
            .join("\n"),
        ),
        (
            // Naming neither `Decl` nor `Node`.
            "src/b.ts".into(),
            [
                "import { isDecl, hasKind } from \"./a\";",
                "export function f1(x) {",
                "  if (isDecl(x)) {",
                "    return x.name;",
                "  }",
                "  return isDecl(x) && x.name;",
                "}",
                "export function f2(x) {",
                "  return isDecl(x) ? x.name : x.name;",
                "}",
                "",
            ]
            .join("\n"),
        ),
        (
            // After `if (!isDecl(x)) return;` the rest of the block.
            "src/d.ts".into(),
            [
                "import { isDecl } from \"./a\";",
                "export function g1(x) {",
                "  if (!x || !isDecl(x)) return;",
                "  // a comment",
                "  return x.name;",
                "}",
                "export function g2(x) {",
                "  if (!isDecl(x)) {",
                "    x.name;",
                "  }",
                "}",
                "export function g3(x) {",
                "  if (isDecl(x)) return x.next.name;",
                "}",
                "",
            ]
            .join("\n"),
        ),
        (
            "src/c.ts".into(),
            [
                "import { Decl, hasKind } from \"./a\";",
                "export function f3(d: Readonly<Decl>) {",
                "  if (hasKind(d)) {",
                "    return d.name;",
                "  }",
                "}",
                "",
            ]
            .join("\n"),
        ),
    ];
    let (_dir, index) = ts_project(files, "name = 0;", "name");
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "Decl.name");
    assert_eq!(got, refs_and_other_lines(&wide, "Decl.name"));
    assert_eq!(
        got.0,
        [
            "src/b.ts:4 other",
            "src/b.ts:6 other",
            "src/b.ts:9 other",
            "src/c.ts:4 other",
            "src/d.ts:5 other",
            "src/d.ts:13 other"
        ]
    );
    assert!(narrowed.files_read() * 4 < wide.files_read(), "{} vs {}", narrowed.files_read(), wide.files_read());
}

/// Rust's struct literals and patterns (`Store { name: 1 }`, `Store { name }`,
/// `let Store { name } = s`, `Self { .. }`) and C#'s object initializers (`new
/// Store { Name = 1 }`, `Inner = { Depth = 2 }` inside one) name fields of the
/// literal's type, not a same-named field of another type nor a local.
#[test]
fn rust_struct_literals_and_csharp_initializers_name_the_literals_fields() {
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[package]\nname = \"lit\"\n"),
        (
            "src/lib.rs",
            "pub struct Store { pub name: u32 }\npub struct Other { pub name: u32 }\n\
             impl Store {\n    pub fn new(name: u32) -> Self { Self { name } }\n}\n\
             pub fn make() -> Store {\n    let s = Store { name: 1 };\n    let Store { name } = s;\n    Store { name }\n}\n",
        ),
        (
            "Shop.cs",
            "namespace Shop {\n  public class Inner { public int Depth { get; set; } }\n\
             public class Store { public int Name { get; set; } public Inner Inner { get; set; } }\n\
             public class Other { public int Name { get; set; } }\n\
             public class App {\n    public int Name;\n\
             public Store Make() { return new Store { Name = 1, Inner = { Depth = 2 } }; }\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "Store.name"),
        ["src/lib.rs:4 other", "src/lib.rs:7 other", "src/lib.rs:8 other", "src/lib.rs:9 other"]
    );
    assert!(refs(&index, "Other.name").is_empty());
    assert_eq!(refs(&index, "Store.Name"), ["Shop.cs:7 other"]);
    assert_eq!(refs(&index, "Store.Inner"), ["Shop.cs:7 other"]);
    assert_eq!(refs(&index, "Inner.Depth"), ["Shop.cs:7 other"]);
    assert!(refs(&index, "Other.Name").is_empty());
    assert!(refs(&index, "App.Name").is_empty());
}

/// Regression: a TS/JS property or method named by a keyword (`map.delete(k)`,
/// `promise.catch(f)`, a method `default()`) was no term and no reference, so
/// `cg query delete` missed those lines and `cg refs Cache.delete` found no
/// definition.
#[test]
fn typescript_members_named_by_keywords_are_terms_and_references() {
    let (_dir, index) = project_of(&[(
        "src/cache.ts",
        "export class Cache {\n  delete(k: string): void {}\n  default(): number { return 1; }\n}\n\
         export function drop(c: Cache, p: Promise<void>) {\n  c.delete(\"a\");\n  p.catch(() => c.default());\n}\n",
    )]);
    assert_eq!(refs(&index, "Cache.delete"), ["src/cache.ts:6 call"]);
    assert_eq!(refs(&index, "Cache.default"), ["src/cache.ts:7 call"]);
    let hits = |term: &str| -> Vec<u32> {
        let q = codegraph::query::Query::new(term, codegraph::query::Mode::Exact);
        codegraph::query::search(&index, &q).unwrap().hits.iter().map(|h| h.line).collect()
    };
    assert_eq!(hits("delete"), [2, 6]);
    assert_eq!(hits("catch"), [7]);
}

/// TS: a name destructured from a value of a known type (`const { sheet } =
/// ctx` with `ctx: Ctx`, a parameter `{ sheet }: Ctx`) is that type's field,
/// so its members bind through the field's declared type. Regression: a
/// destructured parameter's names were typed as the parameter's type itself
/// (`sheet.cells` bound to `Ctx.cells`).
#[test]
fn typescript_destructured_names_are_fields_of_the_destructured_type() {
    let (_dir, index) = project_of(&[(
        "src/ctx.ts",
        "export interface Sheet {\n  cells: number;\n}\n\
         export interface Ctx {\n  sheet: Sheet;\n  cells: string;\n}\n\
         export function a(ctx: Ctx) {\n  const { sheet } = ctx;\n  return sheet.cells;\n}\n\
         export function b({ sheet }: Ctx) {\n  return sheet.cells;\n}\n",
    )]);
    assert_eq!(refs(&index, "Sheet.cells"), ["src/ctx.ts:10 other", "src/ctx.ts:13 other"]);
    assert!(refs(&index, "Ctx.cells").is_empty());
    assert_eq!(refs(&index, "Ctx.sheet"), ["src/ctx.ts:9 other", "src/ctx.ts:12 other"]);
}

/// TS declaration merging in script files (no imports): a namespace's exported
/// interfaces of one name, over several files, are one interface (the
/// TypeScript compiler's `Identifier`, augmented by its services), so a
/// reference to it binds to all its declarations, not ambiguously; an
/// interface a namespace body does not export is that body's alone (each
/// codefix file's `interface Info`), and is seen by no other file.
#[test]
fn typescript_script_files_merge_exported_interfaces_and_keep_unexported_ones() {
    let (_dir, index) = project_of(&[
        ("src/types.ts", "namespace ts {\n    export interface Ident {\n        text: string;\n    }\n    export function use(i: Ident) {}\n}\n"),
        ("src/more.ts", "namespace ts {\n    export interface Ident {\n        extra(): number;\n    }\n}\n"),
        ("src/fixA.ts", "namespace ts.fix {\n    interface Info {\n        a: number;\n    }\n    function f(i: Info, d: Ident) {}\n}\n"),
        ("src/fixB.ts", "namespace ts.fix {\n    interface Info {\n        b: number;\n    }\n    function g(i: Info) {}\n}\n"),
    ]);
    let g = Graph::new(&index);
    let ident = g.find("Ident").unwrap();
    assert_eq!(ident.len(), 2);
    let shown: Vec<String> = g
        .refs(&ident[..1], &[])
        .unwrap()
        .into_iter()
        .map(|r| format!("{}:{} {}{}", r.file, r.line, r.role, if r.ambiguous { " ambiguous" } else { "" }))
        .collect();
    assert_eq!(shown, ["src/fixA.ts:5 type", "src/types.ts:5 type"]);
    assert_eq!(refs(&index, "src/fixA.ts:2"), ["src/fixA.ts:5 type"]);
    assert_eq!(refs(&index, "src/fixB.ts:2"), ["src/fixB.ts:5 type"]);
}

/// Regression: a symbol spelled by its qualified name was not found when its
/// name has more definitions than resolution followed (2,000): `find` looked
/// only among the first ones in path order, so `cg symbol m2099.foo` (or
/// `Test.GetEnumerator` in mono) said "no definition matches". And a call of a
/// file's own `foo` or of its type's own `Run` past those was not bound to it
/// (its callers were empty).
#[test]
fn qualified_names_are_found_past_the_candidates_resolution_follows() {
    let n = 2_100;
    let mut files: Vec<(String, String)> =
        (0..n - 1).map(|i| (format!("src/m{i:04}.ts"), "export function foo() {}\n".to_string())).collect();
    files.push((
        format!("src/m{:04}.ts", n - 1),
        "import { x } from './m0000';\nexport function foo() {}\nfoo();\n".into(),
    ));
    let mut classes = String::new();
    for i in 0..n {
        classes.push_str(&format!("class C{i:04} {{ public void Run() {{ }} public void Go() {{ Run(); }} }}\n"));
    }
    files.push(("Many.cs".to_string(), classes));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&files);
    let g = Graph::new(&index);
    for symbol in ["m2099.foo", "m0000.foo", "C2099.Run", "C0007.Run"] {
        let found: Vec<String> =
            g.find(symbol).unwrap().into_iter().map(|d| g.view(d).unwrap().qualified_name).collect();
        assert_eq!(found, vec![symbol.to_string()], "{symbol}");
    }
    assert!(g.find("C2100.Run").is_err());
    // Unqualified, it is not answered with an arbitrary first 2,000: it says so.
    let err = g.find("foo").unwrap_err().to_string();
    assert!(err.contains("\"foo\" names 2100 definitions") && err.contains("qualified name"), "{err}");
    let callers = |symbol: &str| -> Vec<(String, Vec<u32>, bool)> {
        g.callers(&g.find(symbol).unwrap(), 1).unwrap().into_iter().map(|e| (e.file, e.lines, e.ambiguous)).collect()
    };
    assert_eq!(callers("m2099.foo"), vec![("src/m2099.ts".to_string(), vec![3], false)]);
    assert_eq!(callers("C2099.Run"), vec![("Many.cs".to_string(), vec![2100], false)]);
    assert_eq!(callers("C0003.Run"), vec![("Many.cs".to_string(), vec![4], false)]);
}

/// `find` by qualified name against a brute-force oracle, in every fixture
/// language: the definitions whose qualified names are the one asked, or end
/// with it after a `.` (`::` and `\` read as `.`). `find` passes most
/// candidates without spelling their qualified names (by parent, or by the
/// path and scope a top-level one's module is taken from).
#[test]
fn find_by_qualified_name_matches_every_definition_so_named() {
    let norm = |s: &str| s.replace("::", ".").replace('\\', ".");
    for lang in ["go", "ts", "rust", "csharp", "python", "java", "c", "cpp", "php", "ruby"] {
        let (_dir, index) = indexed(lang);
        let g = Graph::new(&index);
        let mut all: Vec<((usize, u32), u32, String)> = Vec::new();
        for x in index.files().unwrap() {
            let f = g.file((x.segment, x.slot_id)).unwrap();
            for (i, d) in f.defs.iter().enumerate() {
                all.push((f.key, i as u32, f.qualified_name(d)));
            }
        }
        for (_, _, q) in &all {
            let asked = norm(q);
            // Also by its last two parts (`Type.member`, `module.f`).
            let parts: Vec<&str> = asked.split('.').collect();
            let short = parts[parts.len().saturating_sub(2)..].join(".");
            for symbol in [asked.clone(), short] {
                if !symbol.contains('.') {
                    continue;
                }
                let mut expected: Vec<((usize, u32), u32)> = all
                    .iter()
                    .filter(|(.., o)| {
                        let o = norm(o);
                        o == symbol || o.strip_suffix(symbol.as_str()).is_some_and(|h| h.ends_with('.'))
                    })
                    .map(|(k, i, _)| (*k, *i))
                    .collect();
                let mut found = g.find(&symbol).unwrap();
                expected.sort();
                found.sort();
                assert_eq!(found, expected, "{lang}: {symbol}");
            }
        }
    }
}

/// A TS union alias's member is each constituent's: all of a long union's
/// (`type HasModifiers = A | B | ..` with 25 constituents nests to the left,
/// and the first ones used to be lost past six levels of the tree: 20 of
/// `HasModifiers`'s were not its supertypes), and a constituent alias's own
/// constituents (`type Outer = Inner | M2`: `o.modifiers` was only `M2`'s).
#[test]
fn typescript_unions_bind_a_member_to_every_constituent_regression() {
    let mut types = String::new();
    for i in 0..12 {
        types.push_str(&format!("export interface M{i} {{\n  modifiers: number;\n}}\n"));
    }
    let list: Vec<String> = (0..12).map(|i| format!("M{i}")).collect();
    types.push_str(&format!("export type Has = {};\n", list.join(" | ")));
    types.push_str("export type Inner = M0 | M1;\nexport type Outer = Inner | M2;\n");
    types.push_str("export interface Unrelated {\n  modifiers: number;\n}\n");
    let files: Vec<(String, String)> = vec![
        ("src/types.ts".into(), types),
        (
            "src/use.ts".into(),
            "import { Has, Outer } from \"./types\";\nexport function f(h: Has, o: Outer) {\n  h.modifiers;\n  return o.modifiers;\n}\n".into(),
        ),
    ];
    // Enough namesakes for `refs` to read only the files a constituent's
    // value can be in.
    let (_dir, index) = ts_project(files, "modifiers = 0;", "modifiers");
    let g = Graph::new(&index);
    for symbol in ["M0.modifiers", "M2.modifiers", "M11.modifiers"] {
        let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
        assert_eq!(refs_and_other_lines(&narrowed, symbol), refs_and_other_lines(&wide, symbol));
        assert!(narrowed.files_read() * 4 < wide.files_read(), "{} vs {}", narrowed.files_read(), wide.files_read());
    }
    let direct = &g.supertypes("Has").unwrap()[0];
    assert_eq!(direct.len(), 12, "{direct:?}");
    assert_eq!(refs(&index, "M0.modifiers"), ["src/use.ts:3 other ambiguous", "src/use.ts:4 other ambiguous"]);
    assert_eq!(refs(&index, "M2.modifiers"), ["src/use.ts:3 other ambiguous", "src/use.ts:4 other ambiguous"]);
    assert_eq!(refs(&index, "M11.modifiers"), ["src/use.ts:3 other ambiguous"]);
    assert!(refs(&index, "Unrelated.modifiers").is_empty());
}

/// TS namespaces: `Debug.assert()` and `ts.toPath()` bind to what the namespace
/// declares (spread over several files, as the TypeScript compiler's `ts`),
/// not to a same-named declaration of a namespace inside it nor outside any;
/// `ts.Node` as a type too. Unresolved before (the qualifier named no type).
#[test]
fn typescript_namespace_members_bind_through_their_namespace() {
    let (_dir, index) = project_of(&[
        (
            "src/debug.ts",
            "namespace ts {\n  export namespace Debug {\n    export function assert(v: any) {}\n  }\n  export function assert(v: any) {}\n}\n",
        ),
        ("src/path.ts", "namespace ts {\n  export function toPath(p: string) {}\n  export interface Node {\n    kind: number;\n  }\n}\n"),
        ("src/other.ts", "namespace other {\n  export function toPath(p: string) {}\n}\nfunction assert(v: any) {}\n"),
        (
            "src/use.ts",
            "namespace ts.server {\n  export function run(n: ts.Node) {\n    Debug.assert(n);\n    ts.assert(n);\n    ts.toPath(\"a\");\n    other.toPath(\"b\");\n  }\n}\n",
        ),
    ]);
    assert_eq!(qualified(&index, "src/debug.ts:2"), ["debug.Debug"]);
    assert_eq!(qualified(&index, "src/use.ts:1"), ["use.server"]);
    let in_ns = |path_line: &str| {
        let g = Graph::new(&index);
        let defs = g.find(path_line).unwrap();
        let defs: Vec<_> = defs.into_iter().filter(|&d| g.view(d).unwrap().kind != "namespace").collect();
        g.refs(&defs, &[]).unwrap().into_iter().map(|r| format!("{}:{} {}", r.file, r.line, r.role)).collect::<Vec<_>>()
    };
    assert_eq!(in_ns("src/debug.ts:3"), ["src/use.ts:3 call"]);
    assert_eq!(in_ns("src/debug.ts:5"), ["src/use.ts:4 call"]);
    assert_eq!(in_ns("src/path.ts:2"), ["src/use.ts:5 call"]);
    assert_eq!(in_ns("src/other.ts:2"), ["src/use.ts:6 call"]);
    assert_eq!(in_ns("src/path.ts:3"), ["src/use.ts:2 type"]);
    assert!(in_ns("src/other.ts:4").is_empty());
    // A SYMBOL spelled through its namespace names it (it was "no definition
    // matches": the qualified name is the file's module's, `debug.assert`).
    let g = Graph::new(&index);
    let view = |s: &str| g.find(s).unwrap().into_iter().map(|d| g.view(d).unwrap().line).collect::<Vec<_>>();
    assert_eq!(view("Debug.assert"), [3]);
    assert_eq!(view("ts.Debug.assert"), [3]);
    assert_eq!(view("other.toPath"), [2]);
    assert!(g.find("Nowhere.assert").is_err());
}

/// A TS type alias's constituents written through a namespace the file
/// declares are its supertypes (`type UpToDateStatus = Status.Unbuildable |
/// Status.OutputMissing | ..` in the compiler's tsbuild.ts: `status.type` was
/// no reference of any `Status.X#type`, 3 x 34 of scip-typescript's references
/// missed); an enum member written as a type (`Kind.A`) is none.
#[test]
fn typescript_alias_constituents_through_a_namespace_are_supertypes_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/status.ts",
            "namespace ts {\n  export enum Kind { A, B }\n  export type Status = Status.Missing | Status.Blocked | Kind.A;\n  \
             export namespace Status {\n    export interface Missing {\n      type: Kind.A;\n    }\n    \
             export interface Blocked {\n      type: Kind.B;\n    }\n  }\n  export interface A {\n    type: number;\n  }\n\
             }\n",
        ),
        ("src/use.ts", "namespace ts {\n  export function f(s: Status) {\n    return s.type;\n  }\n}\n"),
    ]);
    let g = Graph::new(&index);
    assert_eq!(g.supertypes("Status").unwrap()[0], ["Missing", "Blocked"]);
    assert_eq!(refs(&index, "Missing.type"), ["src/use.ts:3 other ambiguous"]);
    assert_eq!(refs(&index, "Blocked.type"), ["src/use.ts:3 other ambiguous"]);
    assert!(refs(&index, "src/status.ts:12").is_empty(), "the interface A is no constituent");
}

/// A TS cast to a union types its value as each constituent
/// (`(node as PropertyAccessExpression | ElementAccessExpression).expression`):
/// it was of unknown type, listed under every same-named member.
#[test]
fn typescript_a_cast_to_a_union_types_the_value_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface A {\n  x: number;\n}\nexport interface B {\n  x: number;\n}\nexport interface C {\n  x: number;\n}\n",
        ),
        (
            "src/use.ts",
            "import { A, B } from \"./types\";\nexport function f(n: unknown) {\n  return (n as A | B | undefined).x;\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "A.x"), ["src/use.ts:3 other ambiguous"]);
    assert_eq!(refs(&index, "B.x"), ["src/use.ts:3 other ambiguous"]);
    assert!(refs(&index, "C.x").is_empty());
}

/// A TS function of one type parameter returning a value of it, its result
/// not declared or declared as the parameter, makes what its call's type
/// argument names (`const node = createBaseNode<JsxSelfClosingElement>(k);
/// node.tagName = ..` in the compiler's nodeFactory.ts, 67 references missed in
/// a sample of 1,000 symbols): `node` was of unknown type.
#[test]
fn typescript_a_generic_functions_result_is_its_type_argument_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface Decl {\n  name: string;\n}\nexport interface Other {\n  name: string;\n}\n\
             export interface Box<T> {\n  name: string;\n}\n",
        ),
        (
            "src/factory.ts",
            "import { Decl, Box } from \"./types\";\nexport function createFactory() {\n  \
             function createBase<T extends Decl>(k: number) {\n    return {} as T;\n  }\n  \
             function cast<T>(x: unknown): T {\n    return x as T;\n  }\n  \
             function box<T>(x: T): Box<T> {\n    return { name: \"\" };\n  }\n  \
             const a = createBase<Decl>(1);\n  a.name = \"a\";\n  const b = cast<Decl>(a);\n  b.name;\n  \
             const c = box<Decl>(a);\n  c.name;\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Decl.name"), ["src/factory.ts:13 other", "src/factory.ts:15 other"]);
    assert_eq!(refs(&index, "Box.name"), ["src/factory.ts:10 other", "src/factory.ts:17 other"]);
    assert!(refs(&index, "Other.name").is_empty());
}

/// A field of a value of a TS alias type is any of its constituents' fields
/// when they declare it differently (`func.parent.kind` with `func:
/// FunctionLikeDeclaration`, whose `MethodDeclaration`'s parent is a
/// `ClassLikeDeclaration | ObjectLiteralExpression` and `FunctionDeclaration`'s a
/// `SourceFile`): `func.parent` was of unknown type.
#[test]
fn typescript_a_field_through_an_alias_is_any_constituents_regression() {
    let files: Vec<(String, String)> = vec![
        (
            "src/types.ts".into(),
            "export interface Cls {\n  kind: number;\n}\nexport interface Obj {\n  kind: number;\n}\n\
             export interface Src {\n  kind: number;\n}\nexport interface Other {\n  kind: number;\n}\n\
             export interface Method {\n  parent: Cls | Obj;\n}\nexport interface Func {\n  parent: Src;\n}\n\
             export type FnLike = Method | Func;\n"
                .into(),
        ),
        (
            "src/use.ts".into(),
            "import { FnLike } from \"./types\";\nexport function f(x: FnLike) {\n  return x.parent.kind;\n}\n".into(),
        ),
    ];
    // Enough namesakes for `refs` to read only the files the field's owner
    // can be in.
    let (_dir, index) = ts_project(files, "kind = 0;", "kind");
    for symbol in ["Cls.kind", "Obj.kind", "Src.kind"] {
        assert_eq!(narrowed_refs(&index, symbol), ["src/use.ts:3 other"], "{symbol}");
        assert_eq!(refs(&index, symbol), ["src/use.ts:3 other ambiguous"], "{symbol}");
    }
    assert!(narrowed_refs(&index, "Other.kind").is_empty());
}

/// Functions of one name declared to return different types make the one
/// the others derive from (the compiler's binder `createSymbol(): Symbol` and
/// `TypeChecker.createSymbol(): TransientSymbol`, a `Symbol`): a call's result
/// was of unknown type.
#[test]
fn results_declared_as_a_type_and_its_subtype_are_the_type_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface Symbol {\n  parent: Symbol;\n}\nexport interface TransientSymbol extends Symbol {\n  \
             links: number;\n}\nexport interface Checker {\n  createSymbol(): TransientSymbol;\n}\n\
             export interface Other {\n  parent: Symbol;\n}\nexport interface Unrelated {\n  make(): Other;\n}\n",
        ),
        (
            "src/binder.ts",
            "import { Symbol } from \"./types\";\nfunction createSymbol(): Symbol {\n  return {} as Symbol;\n}\n\
             function make(): Symbol {\n  return {} as Symbol;\n}\nexport function bind() {\n  \
             const s = createSymbol();\n  s.parent = s;\n  const m = make();\n  return m.parent;\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Symbol.parent"), ["src/binder.ts:10 other", "src/binder.ts:12 other ambiguous"]);
    assert_eq!(refs(&index, "Other.parent"), ["src/binder.ts:12 other ambiguous"]);
}

/// A TS generic named `*Array` is an array of its type argument, as `Array<T>`
/// and `ReadonlyArray<T>` are (the compiler's `NodeArray<T>`: `for (const p of
/// node.properties) p.kind` was no reference of the element type's `kind`).
#[test]
fn typescript_a_generic_named_array_holds_its_argument_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface NodeArray<T> extends ReadonlyArray<T> {\n  trailing: boolean;\n}\n\
             export interface Prop {\n  kind: number;\n}\nexport interface Other {\n  kind: number;\n}\n\
             export interface Obj {\n  properties: NodeArray<Prop>;\n}\n",
        ),
        (
            "src/use.ts",
            "import { Obj } from \"./types\";\nexport function f(o: Obj) {\n  for (const p of o.properties) {\n    \
             p.kind;\n  }\n  return o.properties.find(q => q.kind);\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Prop.kind"), ["src/use.ts:4 other", "src/use.ts:6 other"]);
    assert!(refs(&index, "Other.kind").is_empty());
}

/// TS's indexed access type `T["name"]` names `T`'s field `name`
/// (`kind: SignatureDeclaration["kind"]`, `BindingElement["parent"]["parent"]`):
/// it was no reference (a word of a string).
#[test]
fn typescript_an_indexed_access_type_names_the_field_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface Sig {\n  kind: number;\n  parent: Decl;\n}\nexport interface Decl {\n  kind: number;\n}\n\
             export interface Other {\n  kind: number;\n}\n",
        ),
        (
            "src/use.ts",
            "import { Sig } from \"./types\";\nexport function f(k: Sig[\"kind\"], p: Sig[\"parent\"][\"kind\"]) {}\n\
             export function g<T extends Sig>(k: T[\"kind\"]) {}\n",
        ),
    ]);
    // `T["kind"]` of a generic `T` is a field of a value of unknown type.
    assert_eq!(refs(&index, "Sig.kind"), ["src/use.ts:2 other", "src/use.ts:3 other ambiguous"]);
    assert_eq!(refs(&index, "Sig.parent"), ["src/use.ts:2 other"]);
    assert_eq!(refs(&index, "Decl.kind"), ["src/use.ts:2 other", "src/use.ts:3 other ambiguous"]);
    assert_eq!(refs(&index, "Other.kind"), ["src/use.ts:3 other ambiguous"]);
    // With namesakes enough for `refs` to read only the files the field's
    // type can be in, the answer is the one reading every file gives.
    let files: Vec<(String, String)> = vec![
        (
            "src/types.ts".into(),
            "export interface Sig {\n  parent: Decl;\n}\nexport interface Decl {\n  kind: number;\n}\n".into(),
        ),
        (
            "src/use.ts".into(),
            "import { Sig } from \"./types\";\nexport function f(p: Sig[\"parent\"][\"kind\"]) {}\n".into(),
        ),
    ];
    let (_dir, index) = ts_project(files, "kind = 0;", "kind");
    assert_eq!(narrowed_refs(&index, "Decl.kind"), ["src/use.ts:2 other"]);
}

/// The untyped parameters of a TS callback given to a function the file
/// declares (before or after) are what that function's parameter declares
/// (`filterType(type, t => t.flags)` with `function filterType(type: Type, f:
/// (t: Type) => boolean)`): `t` was of unknown type.
#[test]
fn typescript_callback_parameters_typed_by_the_function_taking_them_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/types.ts",
            "export interface Type {\n  flags: number;\n}\nexport interface Other {\n  flags: number;\n}\n",
        ),
        (
            "src/checker.ts",
            "import { Type, Other } from \"./types\";\nexport function check(types: Type[]) {\n  \
             filterType(types[0], t => t.flags > 0);\n  reduce(types[0], (n, t) => t.flags);\n  \
             elsewhere(types[0], u => u.flags);\n  elsewhere(types[0], v => isOther(v) && v.flags);\n}\n\
             function filterType(type: Type, f: (t: Type) => boolean) {}\n\
             function reduce(type: Type, f: (n: number, t: Type) => number) {}\n\
             function isOther(x: unknown): x is Other {\n  return true;\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "Type.flags"),
        ["src/checker.ts:3 other", "src/checker.ts:4 other", "src/checker.ts:5 other ambiguous"]
    );
    // A callback of a function declared elsewhere: its parameter is of
    // unknown type, and what a guard asserts where it holds.
    assert_eq!(refs(&index, "Other.flags"), ["src/checker.ts:5 other ambiguous", "src/checker.ts:6 other"]);
}

/// A TS value does not hide a type of its name where a type is written: the
/// TypeScript checker's `const Type = objectAllocator.getTypeConstructor()`
/// made every `x: Type` of its 2.8 MB file a local, not a reference to the
/// interface (scip-typescript sample of 3,000 symbols: `Type` 316 of 1,318
/// references found, types' recall 0.864 -> 1.000).
#[test]
fn typescript_a_value_does_not_hide_a_type_of_its_name_regression() {
    let (_dir, index) = project_of(&[
        ("src/types.ts", "export interface Type {\n  flags: number;\n}\n"),
        (
            "src/checker.ts",
            "import { Type } from \"./types\";\nexport function createChecker(make: any) {\n  const Type = make();\n  \
             const t: Type = new Type();\n  function f(x: Type): Type[] {\n    return [x];\n  }\n  return t.flags;\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "src/types.ts:1"),
        ["src/checker.ts:1 import", "src/checker.ts:4 type", "src/checker.ts:5 type", "src/checker.ts:5 type"]
    );
    assert_eq!(refs(&index, "Type.flags"), ["src/checker.ts:8 other"]);
}

/// TS/JS values taken from typed values keep their type: a `for .. of` loop's
/// element, a local copied from another (`const u = type`), an array's element
/// (`types[0]`; arrays are their element's type), the first parameter of a
/// callback given to an array method or helper (`types.filter(t => ..)`,
/// `filter(types, t => ..)`). Not a `for .. in` key, `o["key"]` nor another
/// function's callback. Before, all three were receivers of unknown type: with more
/// than eight same-named members, not listed at all.
#[test]
fn typescript_loop_elements_copies_and_subscripts_keep_their_type() {
    let files: Vec<(String, String)> = vec![
        (
            "src/ty.ts".into(),
            "export interface Ty {\n  flags: number;\n  types: Ty[];\n}\nexport interface Other {\n  extra: number;\n}\n\
             export function isOther(x: any): x is Other {\n  return true;\n}\n"
                .into(),
        ),
        (
            "src/use.ts".into(),
            [
                "import { Ty } from \"./ty\";",
                "export function g(types: Ty[], type: Ty, o: { [k: string]: Ty }) {",
                "  for (const t of types) {",
                "    t.flags;",
                "  }",
                "  for (const k in o) {",
                "    k.flags;",
                "  }",
                "  const u = type;",
                "  u.flags;",
                "  types[0].flags;",
                "  type.types[1].flags;",
                "  o[\"x\"].flags;",
                "  types.filter(t => t.flags);",
                "  filter(types, (t) => t.flags);",
                "  types.forEach(function (t) { t.flags; });",
                "  other(types, t => t.flags);",
                "  for (const d of type.types) {",
                "    if (isOther(d)) {",
                "      d.extra;",
                "    }",
                "  }",
                "}",
                "",
            ]
            .join("\n"),
        ),
    ];
    let (_dir, index) = ts_project(files, "flags = 0;", "flags");
    assert_eq!(
        narrowed_refs(&index, "Ty.flags"),
        [
            "src/use.ts:4 other",
            "src/use.ts:10 other",
            "src/use.ts:11 other",
            "src/use.ts:12 other",
            "src/use.ts:14 other",
            "src/use.ts:15 other",
            "src/use.ts:16 other"
        ]
    );
    // A guard on an element of a field (`for (const d of type.types)`).
    assert_eq!(refs(&index, "Other.extra"), ["src/use.ts:20 other"]);
}

/// TS discriminated unions: where `n.kind === SyntaxKind.A` holds (an `if`,
/// `&&`, after `if (n.kind !== SyntaxKind.B) return;`, a `switch (n.kind)`
/// case, with the empty cases falling into it), a value of a union alias is
/// the constituents whose `kind` is declared as that enum member; `default:`
/// and a value of no union type are not narrowed. A union written where a
/// parameter is declared (`n: NodeA | NodeC`) is each of its types (it was the
/// first one), and is narrowed likewise.
#[test]
fn typescript_discriminants_narrow_a_union_to_its_constituents() {
    let files: Vec<(String, String)> = vec![
        (
            "src/kinds.ts".into(),
            [
                "export enum SyntaxKind { A, B, C }",
                "export interface NodeA {\n  readonly kind: SyntaxKind.A;\n  name: string;\n}",
                "export interface NodeB {\n  readonly kind: SyntaxKind.B;\n  name: string;\n}",
                "export interface NodeC {\n  readonly kind: SyntaxKind.C;\n  name: string;\n}",
                "export type AB = NodeA | NodeB;\nexport type Any = AB | NodeC;\n",
            ]
            .join("\n"),
        ),
        (
            "src/use.ts".into(),
            [
                "import { Any, NodeA, SyntaxKind } from \"./kinds\";",
                "export function f(n: Any, x: NodeA) {",
                "  switch (n.kind) {",
                "    case SyntaxKind.A:",
                "      n.name;",
                "      break;",
                "    case SyntaxKind.B:",
                "    case SyntaxKind.C:",
                "      n.name;",
                "      break;",
                "    default:",
                "      n.name;",
                "  }",
                "  if (n.kind === SyntaxKind.C) {",
                "    n.name;",
                "  }",
                "  n.kind === SyntaxKind.A && n.name;",
                "  if (x.kind === SyntaxKind.B) {",
                "    x.name;",
                "  }",
                "}",
                "export function g(n: Any) {",
                "  if (n.kind !== SyntaxKind.B) return;",
                "  return n.name;",
                "}",
                "export function h(n: NodeA | NodeC, m: null | NodeB) {",
                "  n.name;",
                "  m.name;",
                "  if (n.kind === SyntaxKind.C) {",
                "    n.name;",
                "  }",
                "}",
                "",
            ]
            .join("\n"),
        ),
    ];
    let (_dir, index) = ts_project(files, "name = 0;", "name");
    let lines = |symbol: &str| {
        let got = narrowed_refs(&index, symbol);
        got.into_iter().filter_map(|r| r.strip_prefix("src/use.ts:").map(str::to_string)).collect::<Vec<_>>()
    };
    assert_eq!(lines("NodeA.name"), ["5 other", "12 other", "17 other", "19 other", "27 other"]);
    assert_eq!(lines("NodeB.name"), ["9 other", "12 other", "24 other", "28 other"]);
    assert_eq!(lines("NodeC.name"), ["9 other", "12 other", "15 other", "27 other", "30 other"]);
}

/// A TS field declared as a union (`parent: A | B`) holds each type (it held
/// the first only), and `refs` of a member of one of them reads the files
/// naming the field's owner (`o.parent.name` in a file naming neither).
#[test]
fn typescript_union_typed_fields_hold_every_type() {
    let files: Vec<(String, String)> = vec![
        (
            "src/nodes.ts".into(),
            "export interface A {\n  name: string;\n}\nexport interface B {\n  name: string;\n}\n\
             export interface O {\n  parent: A | B;\n  other: null | B;\n}\n"
                .into(),
        ),
        (
            "src/use.ts".into(),
            "import { O } from \"./nodes\";\nexport function f(o: O) {\n  o.other.name;\n  return o.parent.name;\n}\n"
                .into(),
        ),
    ];
    let (_dir, index) = ts_project(files, "name = 0;", "name");
    for (symbol, expected) in
        [("A.name", &["src/use.ts:4 other"][..]), ("B.name", &["src/use.ts:3 other", "src/use.ts:4 other"])]
    {
        assert_eq!(narrowed_refs(&index, symbol), expected, "{symbol}");
    }
}

/// Regression: `new Store(1)` (and Python's `Store(1)`) bound to the type
/// alone, so `cg refs Store.Store` / `callers` of a constructor (C#, Java,
/// C++; `constructor`, `__construct`, `__init__`) answered "0 references"
/// for a type built all over the project. A call of a type is also a call of
/// its constructors (overloads told apart by their number of arguments); the
/// type keeps the reference.
#[test]
fn calls_of_a_type_are_calls_of_its_constructors() {
    let (_dir, index) = project_of(&[
        (
            "cs/Store.cs",
            "namespace Shop {\n    public class Store {\n        public Store(int n) {}\n        public Store() : this(1) {}\n    }\n    public class Other {\n        public Other() {}\n    }\n}\n",
        ),
        (
            "cs/Run.cs",
            "namespace Shop {\n    public class Run {\n        public void Go() {\n            var s = new Store(2);\n            Store t = new Store();\n            var o = new Other();\n        }\n    }\n}\n",
        ),
        (
            "java/shop/Store.java",
            "package shop;\n\npublic class Store {\n    public Store(int n) {}\n}\n",
        ),
        (
            "java/shop/Run.java",
            "package shop;\n\npublic class Run {\n    void go() {\n        Store s = new Store(2);\n    }\n}\n",
        ),
        ("cpp/store.h", "class Store {\npublic:\n    Store(int n);\n    void add();\n};\n"),
        ("cpp/store.cpp", "#include \"store.h\"\n\nStore::Store(int n) {}\n\nvoid go() {\n    Store* s = new Store(2);\n}\n\nvoid Store::add() {}\n"),
        ("ts/store.ts", "export class Store {\n    constructor(n: number) {}\n}\nexport class Plain {}\n"),
        (
            "ts/run.ts",
            "import { Store, Plain } from \"./store\";\n\nexport function go() {\n    const s = new Store(2);\n    const p = new Plain();\n    return [s, p];\n}\n",
        ),
        ("php/Store.php", "<?php\nnamespace App;\n\nclass Store {\n    public function __construct($n) {}\n}\n"),
        (
            "php/Run.php",
            "<?php\nnamespace App;\n\nfunction go() {\n    $s = new Store(2);\n    return $s;\n}\n",
        ),
        ("py/shop/store.py", "class Store:\n    def __init__(self, n):\n        self.n = n\n"),
        ("py/shop/run.py", "from .store import Store\n\n\ndef go():\n    return Store(2)\n"),
    ]);
    assert_eq!(refs(&index, "Shop.Store.Store"), ["cs/Run.cs:4 call", "cs/Run.cs:5 call", "cs/Store.cs:4 call"]);
    // Each overload by its number of arguments (`: this(1)` too).
    assert_eq!(refs(&index, "cs/Store.cs:3"), ["cs/Run.cs:4 call", "cs/Store.cs:4 call"]);
    assert_eq!(refs(&index, "cs/Store.cs:4"), ["cs/Run.cs:5 call"]);
    assert_eq!(refs(&index, "Shop.Other.Other"), ["cs/Run.cs:6 call"]);
    // The type keeps its references (a type position and the `new`).
    assert_eq!(refs(&index, "Shop.Store"), ["cs/Run.cs:4 call", "cs/Run.cs:5 type", "cs/Run.cs:5 call"]);
    assert_eq!(refs(&index, "shop.Store.Store"), ["java/shop/Run.java:5 call"]);
    assert_eq!(refs(&index, "cpp/store.cpp:3"), ["cpp/store.cpp:6 call"]);
    assert_eq!(refs(&index, "ts/store.ts:2"), ["ts/run.ts:4 call"]);
    assert_eq!(refs(&index, "php/Store.php:5"), ["php/Run.php:5 call"]);
    assert_eq!(refs(&index, "py/shop/store.py:2"), ["py/shop/run.py:5 call"]);
    assert_eq!(callers(&index, "ts/store.ts:2"), ["run.go [4]"]);
    assert_eq!(
        callees(&index, "Shop.Run.Go"),
        ["Shop.Store", "Shop.Store.Store", "Shop.Store.Store", "Shop.Other", "Shop.Other.Other"]
    );
}

/// The reference files (section 20) against the archives: for
/// every name a file defines or references, the files `refs` reads are
/// exactly those naming it whose archive holds a reference of it or imports
/// it.
fn assert_ref_files_match_the_archives(index: &Index, what: &str) {
    let g = Graph::new(index);
    let mut names: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for x in index.files().unwrap() {
        let f = g.file((x.segment, x.slot_id)).unwrap();
        names.extend(f.defs.iter().map(|d| d.name.clone()));
        names.extend(f.refs.iter().map(|r| f.name(r.name).to_string()));
        files.push(f);
    }
    names.sort();
    names.dedup();
    let mut listed = 0;
    for name in &names {
        let named = g.files_with(name, false).unwrap();
        let expected: Vec<_> = named
            .iter()
            .copied()
            .filter(|k| {
                // A name in under four files of a segment is not listed: its
                // files are all read (these projects are one segment).
                if named.len() < 4 {
                    return true;
                }
                let f = files.iter().find(|f| f.key == *k).unwrap();
                f.refs.iter().any(|r| f.name(r.name) == name)
                    || f.imports.iter().any(|i| i.names.iter().any(|n| n.name == *name))
            })
            .collect();
        for defs_only in [false, true] {
            let counted = g.files_with_lines(name, defs_only).unwrap().1;
            assert_eq!(g.lines_naming(name, defs_only).unwrap(), counted, "{what}: lines naming {name}");
        }
        let (got, plain) = g.files_with_refs(name).unwrap();
        assert_eq!(got, expected, "{what}: {name}");
        listed += (named.len() >= 4 && got.len() < named.len()) as usize;
        // Those whose references of it have no receiver (a supertype's is
        // its subtype, not counted) and that import no name spelled so, when
        // listed.
        let mut expected_plain: Vec<_> = got
            .iter()
            .copied()
            .filter(|k| {
                let f = files.iter().find(|f| f.key == *k).unwrap();
                named.len() >= 4
                    && f.refs.iter().filter(|r| f.name(r.name) == name).all(|r| {
                        r.receiver == codegraph::snapshot::structure::PackedReceiver::None
                            || r.role == codegraph::extract::RefRole::Inherit
                    })
                    && !f.imports.iter().any(|i| i.names.iter().any(|n| n.name == *name))
            })
            .collect();
        let mut plain: Vec<_> = plain.into_iter().collect();
        plain.sort();
        expected_plain.sort();
        assert_eq!(plain, expected_plain, "{what}: {name} without a receiver");
    }
    assert!(names.len() >= 3, "{what}: {} names", names.len());
    if what == "mains" {
        assert!(listed > 0, "some name is left out of some file");
    }
}

/// Many files defining their own `main`, one importing another's: `refs`
/// reads only the files holding a reference of the name, and answers what
/// reading every file naming it does.
fn mains() -> (tempfile::TempDir, Index) {
    let mut files: Vec<(String, String)> = (0..12)
        .map(|i| {
            (format!("src/m{i:02}.ts"), format!("// main of m{i:02}\nexport function main() {{\n    return {i};\n}}\n"))
        })
        .collect();
    files.push((
        "src/run.ts".into(),
        "import { main as start } from \"./m03\";\n\nexport function run() {\n    return start() + 1;\n}\n".into(),
    ));
    files.push(("src/own.ts".into(), "export function main() {\n    return main;\n}\n".into()));
    // Rust files calling their module's `main` by path: another family's.
    for i in 0..4 {
        files.push((format!("src/r{i}.rs"), "pub fn main() {}\n\npub fn go() {\n    self::main();\n}\n".into()));
    }
    // Its own `main` by name, another file's through a namespace import.
    files.push((
        "src/ns.ts".into(),
        "import * as m from \"./m03\";\n\nexport function main() {\n    return m.main() + main.length;\n}\n".into(),
    ));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    project_of(&refs)
}

#[test]
fn refs_read_only_the_files_holding_a_reference_of_the_name() {
    let (_dir, index) = mains();
    assert_ref_files_match_the_archives(&index, "mains");
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "src/m03.ts:2");
    assert_eq!(got, refs_and_other_lines(&wide, "src/m03.ts:2"));
    assert_eq!(got.0, ["src/ns.ts:4 call", "src/run.ts:1 import", "src/run.ts:4 call"]);
    // The comments naming `main` in each file are counted, not read, and
    // own.ts's `return main;` (its own `main`) and the Rust files' calls.
    assert_eq!(got.1, 17);
    // m03 itself, run.ts and ns.ts; not own.ts, whose `main` is its own,
    // nor the Rust files (a reference binds within its language family).
    assert_eq!(narrowed.files_read(), 3, "reading all: {}", wide.files_read());
    assert!(wide.files_read() >= 19);
    let own = refs_and_other_lines(&Graph::new(&index), "src/own.ts:1");
    assert_eq!(own, refs_and_other_lines(&Graph::new(&index).exhaustive(), "src/own.ts:1"));
    assert_eq!(own.0, ["src/own.ts:2 other"]);
    // A compaction copies every file out of the old segments (the bits are
    // then made from each archive, not from the extracted file).
    drop(narrowed);
    drop(wide);
    drop(index);
    let options = codegraph::project::UpdateOptions::default();
    codegraph::project::update(_dir.path(), &codegraph::project::Request::Compact, &options, &|_| {}).unwrap();
    let index = Index::open(_dir.path()).unwrap();
    assert_ref_files_match_the_archives(&index, "mains");
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    assert_eq!(refs_and_other_lines(&narrowed, "src/m03.ts:2"), refs_and_other_lines(&wide, "src/m03.ts:2"));
    assert_eq!(narrowed.files_read(), 3);
    let (_dir, index) = many_gets();
    assert_ref_files_match_the_archives(&index, "gets");
    for lang in ["go", "ts", "rust", "csharp", "python", "java", "c", "cpp", "php", "ruby"] {
        let (_dir, index) = indexed(lang);
        assert_ref_files_match_the_archives(&index, lang);
    }
}

/// A name on many lines in a file of two slots (over 65,536 lines: its
/// postings are in both, its reference file listed once, by its first slot):
/// the reference files are the archives' and refs read as narrowed as
/// exhaustive.
#[test]
fn reference_files_of_a_name_on_many_lines_in_a_file_of_two_parts() {
    let mut big = String::from(
        "package p\n\ntype T struct{}\n\nfunc (t *T) Get() int { return 1 }\n\nfunc Use(t *T) int {\n\tn := 0\n",
    );
    for _ in 0..700 {
        big.push_str("\tn += t.Get()\n");
    }
    for i in 0..66_000 {
        big.push_str(&format!("\tn += {i}\n"));
    }
    for _ in 0..700 {
        big.push_str("\tn += t.Get()\n");
    }
    big.push_str("\treturn n\n}\n");
    let mut files: Vec<(String, String)> = vec![("p/big.go".into(), big)];
    for i in 0..6 {
        files.push((format!("p/u{i}.go"), format!("package p\n\nfunc U{i}(t *T) int {{\n\treturn t.Get()\n}}\n")));
        files.push((
            format!("p/c{i}.go"),
            format!("package p\n\n// Get is named here, not called.\nfunc C{i}() {{}}\n"),
        ));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = project_of(&refs);
    let seg = &index.segments[0];
    assert!(seg.slot_count > 13, "the big file has two slots");
    assert_ref_files_match_the_archives(&index, "two parts");
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "p/big.go:5");
    assert_eq!(got, refs_and_other_lines(&wide, "p/big.go:5"));
    assert_eq!(got.0.len(), 1406, "{:?}", &got.0[..3]);
    // big.go and the six callers; not the files only commenting on it.
    assert_eq!(narrowed.files_read(), 7);
}

/// Supertypes and subtypes are kept by the opened index between questions:
/// what a later question gets from there is what a fresh index answers, in
/// either direction, in any order of asking.
#[test]
fn type_levels_kept_by_the_index_answer_like_a_fresh_index() {
    for lang in ["csharp", "ts", "java", "python"] {
        let (dir, index) = indexed(lang);
        let g = Graph::new(&index);
        let mut types: Vec<String> = Vec::new();
        for x in index.files().unwrap() {
            let f = g.file((x.segment, x.slot_id)).unwrap();
            types.extend(f.defs.iter().filter(|d| d.cat == codegraph::graph::DefCat::Type).map(|d| d.name.clone()));
        }
        types.sort();
        types.dedup();
        let mut related = 0;
        for t in &types {
            // Up first on this index, down first on the fresh one.
            let kept = (Graph::new(&index).supertypes(t).unwrap(), Graph::new(&index).subtypes(t).unwrap());
            let again = (Graph::new(&index).supertypes(t).unwrap(), Graph::new(&index).subtypes(t).unwrap());
            let fresh_index = Index::open(dir.path()).unwrap();
            let down = Graph::new(&fresh_index).subtypes(t).unwrap();
            let up = Graph::new(&fresh_index).supertypes(t).unwrap();
            assert_eq!((&kept.0, &kept.1), (&up, &down), "{lang} {t}");
            assert_eq!(again, kept, "{lang} {t}");
            related += (!up.is_empty() || !down.is_empty()) as usize;
        }
        assert!(related >= 2, "{lang}: {related} types with supertypes or subtypes");
    }
}

/// Regression: a C typedef whose name tree-sitter does not find (a macro
/// before the declarator: `typedef IntNative (WINAPI *FARPROC)();`) was a
/// supertype edge from an empty name, written as "no string", which readers
/// take for malformed bytes: `cg verify` failed on mono, and every question
/// about `IntNative`'s subtypes said the index was corrupted.
#[test]
fn unnamed_typedefs_make_no_supertype_edge_regression() {
    let (_dir, index) = project_of(&[
        (
            "pal.h",
            "typedef int IntNative;\n\ntypedef IntNative (WINAPI *FARPROC)();\n\ntypedef struct pal_s {\n    IntNative n;\n} Pal;\n",
        ),
        ("use.c", "#include \"pal.h\"\n\nIntNative twice(Pal *p) {\n    return p->n + p->n;\n}\n"),
    ]);
    index.verify().unwrap();
    let g = Graph::new(&index);
    assert!(g.inherit_edges("IntNative", false).unwrap().is_empty());
    assert_eq!(g.inherit_edges("pal_s", false).unwrap(), ["Pal"]);
    assert_eq!(refs(&index, "IntNative"), ["pal.h:3 other", "pal.h:6 type", "use.c:3 type"]);
}

/// Regression: module-level variables were no definitions in TS/JS and Go
/// (`cg refs ErrNotFound` for Go's `var ErrNotFound = errors.New(..)`, or an
/// `export const` of a TS module, answered "no definition matches"), while
/// the same names' uses in functions were references to nothing.
#[test]
fn module_level_variables_are_definitions_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/config.ts",
            "export const DEFAULT_TIMEOUT = 5;\n\
             export let mutable = 1, other = 2;\n\
             const { a } = obj;\n\
             const fs = require(\"fs\");\n\
             for (let i = 0; i < 3; i++) {}\n\
             export function timeout(): number {\n\
             \x20 const DEFAULT_TIMEOUT = 9;\n\
             \x20 return DEFAULT_TIMEOUT + mutable;\n\
             }\n",
        ),
        (
            "src/use.ts",
            "import { DEFAULT_TIMEOUT as T, mutable } from \"./config\";\nexport function f() { return T + mutable; }\n",
        ),
        ("lib/count.js", "var count = 0;\nfunction bump() { count += 1; return count; }\n"),
        ("go.mod", "module example.com/m\n"),
        (
            "store/errors.go",
            "package store\n\nimport \"errors\"\n\nvar ErrNotFound = errors.New(\"nf\")\n\nvar (\n\tcount int\n\t_     = count\n)\n",
        ),
        (
            "store/get.go",
            "package store\n\nfunc Get() error {\n\tcount++\n\treturn ErrNotFound\n}\n\n\
             func Local() int {\n\tvar count = 1\n\treturn count\n}\n",
        ),
        (
            "cmd/main.go",
            "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tif store.Get() == store.ErrNotFound {\n\t}\n}\n",
        ),
    ]);
    // The function's own `DEFAULT_TIMEOUT` shadows the module's.
    assert_eq!(refs(&index, "config.DEFAULT_TIMEOUT"), ["src/use.ts:1 import", "src/use.ts:2 other"]);
    assert_eq!(refs(&index, "mutable"), ["src/config.ts:8 other", "src/use.ts:1 import", "src/use.ts:2 other"]);
    assert_eq!(qualified(&index, "other"), ["config.other"]);
    // A `require` and a loop's binding declare nothing.
    let g = Graph::new(&index);
    for name in ["fs", "i"] {
        assert!(g.find(name).is_err(), "{name} is no definition");
    }
    // A destructuring pattern declares its names.
    assert_eq!(qualified(&index, "a"), ["config.a"]);
    assert_eq!(refs(&index, "bump"), Vec::<String>::new());
    assert_eq!(qualified(&index, "count"), ["count.count", "store.count"]);
    assert_eq!(refs(&index, "count.count"), ["lib/count.js:2 other", "lib/count.js:2 other"]);
    // Go: a package's var from its other files and through an import; a local
    // of the same name is the function's own.
    assert_eq!(refs(&index, "store.ErrNotFound"), ["cmd/main.go:6 other", "store/get.go:5 other"]);
    assert_eq!(refs(&index, "store.count"), ["store/errors.go:9 other", "store/get.go:4 other"]);
}

/// Module-level destructuring and CommonJS's `exports.X = value` are
/// definitions; a pattern's key names no local. Regression: `export const {
/// x, y } = point()` and `exports.MAX = 10` were no definitions (`cg refs MAX`:
/// "no definition matches"), and `const { parent: p } = node` made `parent` a
/// local, so the call `parent(p)` bound to nothing.
#[test]
fn destructuring_and_commonjs_exports_are_definitions_regression() {
    let (_dir, index) = project_of(&[
        (
            "lib/util.js",
            "function helper(x) { return x + 1; }\n\
             exports.MAX = 10;\n\
             exports.helper = helper;\n\
             exports.sub = require(\"./sub\");\n\
             exports.client = new Client();\n\
             function later() { exports.inner = 3; }\n",
        ),
        ("lib/client.js", "class Client {\n  lookup() { return 1; }\n}\n"),
        (
            "lib/main.js",
            "const util = require(\"./util\");\nfunction run() {\n  return util.MAX + util.client.lookup();\n}\n",
        ),
        ("src/point.ts", "export const { x, y: why } = point();\nexport function use() { return x + why; }\n"),
        (
            "src/walk.ts",
            "export function f(node: N) {\n  const { parent: p, kind } = node;\n  return parent(p) + kind;\n}\n\
             function parent(n: N) { return n; }\n",
        ),
    ]);
    assert_eq!(qualified(&index, "MAX"), ["util.MAX"]);
    assert_eq!(refs(&index, "util.MAX"), ["lib/main.js:3 other"]);
    // The file's own function is exported, not declared again; a module
    // passed on and an assignment in a function declare nothing.
    assert_eq!(qualified(&index, "helper"), ["util.helper"]);
    let g = Graph::new(&index);
    for name in ["sub", "inner", "y"] {
        assert!(g.find(name).is_err(), "{name} is no definition");
    }
    // `util.client` is untyped where it is used (main.js names no Client):
    // the project's one `lookup` is a guess.
    assert_eq!(refs(&index, "Client.lookup"), ["lib/main.js:3 call ambiguous"]);
    assert_eq!(refs(&index, "point.x"), ["src/point.ts:2 other"]);
    assert_eq!(refs(&index, "point.why"), ["src/point.ts:2 other"]);
    assert_eq!(refs(&index, "walk.parent"), ["src/walk.ts:3 call"]);
}

/// C's and C++'s enumerators (of an enum that is no `enum class`) are
/// declared where their enum is: plain names there, and `Mode::SLOW` too.
/// Regression: `typedef enum { RED, GREEN } color;` declared `color.RED`, a
/// member, and every use of `RED` bound to nothing (0 references).
#[test]
fn c_and_cpp_enumerators_are_plain_names_regression() {
    let (_dir, index) = project_of(&[
        ("src/color.h", "typedef enum { RED, GREEN } color;\nenum shade { DARK, LIGHT };\n"),
        ("src/paint.c", "#include \"color.h\"\nint paint(color c) { return c == RED ? DARK : GREEN; }\n"),
        (
            "cpp/engine.cpp",
            "enum Mode { FAST, SLOW };\nenum class Level { LOW, HIGH };\n\
             class Engine {\n public:\n  enum State { IDLE, BUSY };\n  int run() { return IDLE + FAST; }\n};\n\
             int go() { return Engine::BUSY + Mode::SLOW + (int)Level::HIGH + HIGH; }\n",
        ),
    ]);
    assert_eq!(qualified(&index, "RED"), ["RED"]);
    assert_eq!(refs(&index, "RED"), ["src/paint.c:2 other"]);
    assert_eq!(refs(&index, "DARK"), ["src/paint.c:2 other"]);
    assert_eq!(refs(&index, "FAST"), ["cpp/engine.cpp:6 other"]);
    assert_eq!(refs(&index, "SLOW"), ["cpp/engine.cpp:8 other"]);
    // A class's enum declares its enumerators in the class.
    assert_eq!(qualified(&index, "IDLE"), ["Engine::IDLE"]);
    assert_eq!(refs(&index, "Engine::IDLE"), ["cpp/engine.cpp:6 other"]);
    assert_eq!(refs(&index, "Engine::BUSY"), ["cpp/engine.cpp:8 other"]);
    // An enum class's are its own: the plain `HIGH` names none.
    assert_eq!(qualified(&index, "HIGH"), ["Level::HIGH"]);
    assert_eq!(refs(&index, "Level::HIGH"), ["cpp/engine.cpp:8 other"]);
}

/// Java names an enum's constant bare in a switch's `case` and after `import
/// static`, which also imports methods. Regression: `case RED:` and `GREEN`
/// after `import static p.Color.GREEN` bound to nothing, nor did guava's
/// `checkNotNull(x)` after `import static ..Preconditions.checkNotNull`.
#[test]
fn java_enum_constants_in_cases_and_static_imports_regression() {
    let (_dir, index) = project_of(&[
        ("src/p/Color.java", "package p;\npublic enum Color { RED, GREEN }\n"),
        (
            "src/p/Checks.java",
            "package p;\npublic final class Checks {\n  public static int check(int x) { return x; }\n}\n",
        ),
        (
            "src/q/Use.java",
            "package q;\nimport p.Color;\nimport static p.Color.GREEN;\nimport static p.Checks.check;\n\
             class Use {\n  int f(Color c) {\n    switch (c) {\n      case RED: return check(1);\n\
                   default: return c == GREEN ? 3 : 0;\n    }\n  }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Color.RED"), ["src/q/Use.java:8 other"]);
    assert_eq!(refs(&index, "Color.GREEN"), ["src/q/Use.java:3 import", "src/q/Use.java:9 other"]);
    assert_eq!(refs(&index, "Checks.check"), ["src/q/Use.java:4 import", "src/q/Use.java:8 call"]);
}

/// A type the file defines is the one its name means there: in languages that
/// keep a class's members in its body, `self.children` in one `class Node`
/// binds to that class's member only. Regression: django's `tree.Node` and
/// migrations' `graph.Node` made every `self.children` ambiguous between them
/// (scip-python, 500 symbols: precision 0.904 -> 0.918).
#[test]
fn members_of_the_files_own_class_regression() {
    let (_dir, index) = project_of(&[
        ("utils/tree.py", "class Node:\n    def __init__(self):\n        self.children = []\n\n    def size(self):\n        return len(self.children)\n"),
        ("migrations/graph.py", "class Node:\n    def __init__(self):\n        self.children = set()\n\n    def add(self, c):\n        self.children.add(c)\n"),
        ("a/Node.java", "package a;\nclass Node {\n  int size;\n  int get() { return this.size; }\n}\n"),
        ("b/Node.java", "package b;\nclass Node {\n  int size;\n  int get() { return size + this.size; }\n}\n"),
    ]);
    assert_eq!(refs(&index, "utils/tree.py:3"), ["utils/tree.py:6 other"]);
    assert_eq!(refs(&index, "migrations/graph.py:3"), ["migrations/graph.py:6 other"]);
    assert_eq!(refs(&index, "a/Node.java:3"), ["a/Node.java:4 other"]);
    assert_eq!(refs(&index, "b/Node.java:3"), ["b/Node.java:4 other", "b/Node.java:4 other"]);
}

/// A Java package in two source roots (two modules) is the nearest root's.
/// Regression: guava's `guava/src` and `android/guava/src` made every
/// reference to a class of either ambiguous between the two copies
/// (`Strings` of guava/src: 257 references, all ambiguous -> 131, 4).
#[test]
fn java_packages_in_two_source_roots_regression() {
    let util = "package p;\npublic class Util {\n  public static int f() { return 1; }\n}\n";
    let (_dir, index) = project_of(&[
        ("a/src/p/Util.java", util),
        ("b/src/p/Util.java", util),
        ("a/src/p/Use.java", "package p;\nclass Use {\n  int g() { return Util.f(); }\n}\n"),
        ("b/test/p/UseTest.java", "package p;\nclass UseTest {\n  int g() { return Util.f(); }\n}\n"),
        (
            "a/src/q/Imp.java",
            "package q;\nimport p.Util;\nclass Imp {\n  Util u;\n  int h() { return u.f() + new Util().f(); }\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "a/src/p/Util.java:3"),
        ["a/src/p/Use.java:3 call", "a/src/q/Imp.java:5 call", "a/src/q/Imp.java:5 call"]
    );
    assert_eq!(refs(&index, "b/src/p/Util.java:3"), ["b/test/p/UseTest.java:3 call"]);
    assert_eq!(
        refs(&index, "a/src/p/Util.java:2"),
        ["a/src/p/Use.java:3 other", "a/src/q/Imp.java:2 import", "a/src/q/Imp.java:4 type", "a/src/q/Imp.java:5 call"]
    );
}

/// Go constants declared in a function are that function's locals. Regression:
/// `const local = 5` in two functions were two package-level properties `m.local`,
/// and each function's use of its own was ambiguous between them; a local
/// `const Limit` did not shadow the package's.
#[test]
fn go_constants_in_functions_are_locals_regression() {
    let (_dir, index) = project_of(&[
        ("go.mod", "module example.com/m\n"),
        (
            "m/a.go",
            "package m\n\nconst Limit = 10\n\nconst (\n\tAlpha = iota\n\tBeta\n)\n\n\
             func Work() int {\n\tconst local = 5\n\treturn local + Limit + Beta\n}\n\n\
             func Other() int {\n\tconst local, Limit = 7, 1\n\treturn local + Limit\n}\n",
        ),
    ]);
    let g = Graph::new(&index);
    assert!(g.find("local").is_err(), "a function's constant is no definition");
    assert_eq!(qualified(&index, "Limit"), ["m.Limit"]);
    assert_eq!(qualified(&index, "Beta"), ["m.Beta"]);
    // Other's own `Limit` shadows the package's.
    assert_eq!(refs(&index, "m.Limit"), ["m/a.go:12 other"]);
    assert_eq!(refs(&index, "m.Beta"), ["m/a.go:12 other"]);
}

/// A call of a name no function or type of it fits is a call of a variable
/// or field holding a function; in TS/JS an interface is no value, and
/// `interface Map` with `const Map` in one file are one symbol. Regression:
/// `timestamp()` with `export const timestamp = hasNow ? () => .. : Date.now`
/// bound to nothing (scip-typescript: 42 references missed), `new Map()` to the
/// interface alone.
#[test]
fn calls_of_variables_holding_functions_bind_to_them() {
    let (_dir, index) = project_of(&[
        (
            "src/core.ts",
            "export interface Map<T> {\n  get(k: string): T;\n}\n\
             export const Map: MapCtor = make();\n\
             export const timestamp = hasNow ? () => now() : Date.now;\n",
        ),
        (
            "src/use.ts",
            "import { Map, timestamp } from \"./core\";\n\
             export interface Props {\n  onChange: () => void;\n}\n\
             export function f(m: Map<number>, p: Props) {\n\
             \x20 const x = new Map();\n\
             \x20 p.onChange();\n\
             \x20 return timestamp();\n\
             }\n",
        ),
        ("script/a.ts", "const run = make();\nfunction go() {\n  return run();\n}\n"),
        ("script/b.ts", "function run() {\n  return 1;\n}\nfunction again() {\n  return run();\n}\n"),
        // Not exported from its namespace's body, though `declare`d: that
        // file's alone (`performance.mark()` elsewhere was bound to it).
        (
            "ns/a.ts",
            "namespace ts {\n  declare const perf: Perf | undefined;\n  export function f() { return perf; }\n}\n",
        ),
        ("ns/b.ts", "namespace ts {\n  export function g() { return perf; }\n}\n"),
    ]);
    // The interface and the constant are one symbol (declaration merging).
    let merged = ["src/use.ts:1 import", "src/use.ts:5 type", "src/use.ts:6 call"];
    assert_eq!(refs(&index, "src/core.ts:4"), merged);
    assert_eq!(refs(&index, "src/core.ts:1"), merged);
    assert_eq!(refs(&index, "timestamp"), ["src/use.ts:1 import", "src/use.ts:8 call"]);
    assert_eq!(refs(&index, "Props.onChange"), ["src/use.ts:7 call"]);
    // A script's own variable wins over another script's function.
    assert_eq!(refs(&index, "script/a.ts:1"), ["script/a.ts:3 call"]);
    assert_eq!(refs(&index, "script/b.ts:1"), ["script/b.ts:5 call"]);
    assert_eq!(refs(&index, "ns/a.ts:2"), ["ns/a.ts:3 other"]);
}

/// A supertype written with a qualifier resolves through it, as any other
/// name after a module, package or namespace. Regression: the qualifier was
/// dropped and the bare name resolved as a plain one, which in Python and Go
/// sees only the file's and its package's own names: django's `class
/// LogEntry(models.Model)` was no reference of `Model` (nor `LogEntry` its
/// subtype), kubernetes' embedded `metav1.TypeMeta` 18 references of 547.
#[test]
fn qualified_supertypes_regression() {
    let (_dir, index) = project_of(&[
        ("pkg/__init__.py", ""),
        ("pkg/models/__init__.py", "from pkg.models.base import Model\n"),
        ("pkg/models/base.py", "class Model:\n    def save(self):\n        pass\n"),
        ("app.py", "from pkg import models\n\nclass Log(models.Model):\n    pass\n"),
        ("go.mod", "module example.com/m\n"),
        ("meta/meta.go", "package meta\n\ntype ObjectMeta struct {\n\tName string\n}\n"),
        (
            "app/app.go",
            "package app\n\nimport metav1 \"example.com/m/meta\"\n\ntype Pod struct {\n\tmetav1.ObjectMeta\n}\n",
        ),
        // The app's own `ObjectMeta` is not the one it embeds.
        ("app/own.go", "package app\n\ntype ObjectMeta struct{}\n"),
    ]);
    assert_eq!(refs(&index, "pkg/models/base.py:1"), ["app.py:3 inherit", "pkg/models/__init__.py:1 import"]);
    assert_eq!(refs(&index, "meta/meta.go:3"), ["app/app.go:6 inherit"]);
    assert_eq!(refs(&index, "app/own.go:3"), Vec::<String>::new());
    let g = Graph::new(&index);
    for (base, sub) in [("pkg/models/base.py:1", "Log"), ("meta/meta.go:3", "Pod")] {
        let h = g.hierarchy(g.find(base).unwrap()[0]).unwrap();
        let subs: Vec<&str> = h.subtypes.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(subs, [sub], "{base}");
    }
}

/// `super().m()` (Python), `super.m()` (TS, Java), `base.M()` (C#) and
/// `parent::m()` (PHP) call the method a base type declares, not the
/// override they are written in, nor a same-named class's. Regression: they
/// were of an unknown receiver, so Python's and PHP's bound to nothing
/// (django `Func.as_sql`: 7 of 44 references), TS's and Java's were ambiguous
/// among every `run` of the project.
#[test]
fn super_calls_bind_to_the_bases_method_regression() {
    let (_dir, index) = project_of(&[
        ("base.py", "class Base:\n    def run(self):\n        pass\n\nclass Mixin:\n    def run(self):\n        pass\n"),
        // A same-named `Base` elsewhere, and the subclass's own override.
        ("other.py", "class Base:\n    def run(self):\n        pass\n"),
        (
            "sub.py",
            "from base import Base, Mixin\n\nclass Sub(Base, Mixin):\n    def run(self):\n        \
             super().run()\n        super(Sub, self).run()\n\nclass Deeper(Sub):\n    def run(self):\n        \
             return super().run()\n\nclass Last(Mixin, Base):\n    def run(self):\n        super().run()\n",
        ),
        ("a.ts", "export class Base {\n  run(): void {}\n}\n"),
        ("b.ts", "import { Base } from './a';\nclass Sub extends Base {\n  run(): void { super.run(); }\n}\n"),
        ("c.ts", "class Other {\n  run(): void {}\n}\n"),
        ("Base.java", "class Base {\n  void run() {}\n}\n"),
        ("Sub.java", "class Sub extends Base {\n  void run() { super.run(); }\n}\n"),
        ("Other.java", "class Other {\n  void run() {}\n}\n"),
        ("a.cs", "class Base {\n  public virtual void Run() {}\n}\nclass Sub : Base {\n  public override void Run() { base.Run(); }\n}\n"),
        ("a.php", "<?php\nclass Base {\n  function run() {}\n}\nclass Sub extends Base {\n  function run() { parent::run(); }\n}\n"),
    ]);
    // The first base declaring it, in the order written; through a base's
    // own bases when it declares none (Deeper -> Sub's own `run`).
    assert_eq!(refs(&index, "base.py:2"), ["sub.py:5 call", "sub.py:6 call"]);
    assert_eq!(refs(&index, "base.py:6"), ["sub.py:14 call"]);
    assert_eq!(refs(&index, "sub.py:4"), ["sub.py:10 call"]);
    assert_eq!(refs(&index, "other.py:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "a.ts:2"), ["b.ts:3 call"]);
    assert_eq!(refs(&index, "b.ts:3"), Vec::<String>::new());
    assert_eq!(refs(&index, "Base.java:2"), ["Sub.java:2 call"]);
    assert_eq!(refs(&index, "Sub.java:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "a.cs:2"), ["a.cs:5 call"]);
    assert_eq!(refs(&index, "a.php:3"), ["a.php:6 call"]);
}

/// Python: a parameter's default is read, not bound (`def f(c=NAME)` made
/// `NAME` a local of `f`, so neither it nor `return NAME` in the body was a
/// reference); `self.x = ..` in a later method writes the property the first
/// assignment declared (it was neither a definition nor a reference: django's
/// `Query.default_cols` had 4 of its writes missing); `from pkg import mod as
/// m` then `m.f()` reads the module (django's `capi.geom_clone(..)`, with
/// `from django.contrib.gis.geos import prototypes as capi`, bound to nothing).
#[test]
fn python_defaults_writes_and_aliased_submodules_regression() {
    let (_dir, index) = project_of(&[
        ("pkg/__init__.py", ""),
        ("pkg/protos/__init__.py", "from pkg.protos.geom import clone\n"),
        ("pkg/protos/geom.py", "def clone(g):\n    return g\n"),
        (
            "pkg/use.py",
            "from pkg import protos as capi\n\nNAME = 'x'\n\ndef f(g, c=NAME, *, d: str = NAME):\n    \
             return capi.clone(g) if c == NAME else None\n\nclass Q:\n    def __init__(self):\n        \
             self.cols = True\n\n    def reset(self):\n        self.cols = False\n        return self.cols\n",
        ),
    ]);
    assert_eq!(refs(&index, "pkg/use.py:3"), ["pkg/use.py:5 other", "pkg/use.py:5 other", "pkg/use.py:6 other"]);
    assert_eq!(refs(&index, "pkg/protos/geom.py:1"), ["pkg/protos/__init__.py:1 import", "pkg/use.py:6 call"]);
    assert_eq!(refs(&index, "Q.cols"), ["pkg/use.py:13 other", "pkg/use.py:14 other"]);
}

/// Python, Ruby and PHP list a member of an untyped value whose name a
/// library value has too under the project's one member of that name only
/// when the file defines or names its type or a subtype of it, and then as
/// ambiguous. Regression: `dt.month` of a `datetime` in 35
/// django files was `MonthMixin.month` (scip-python seed 1: precision 0.924 ->
/// 0.951, recall 0.937 -> 0.935).
#[test]
fn untyped_members_need_their_type_in_sight_regression() {
    let (_dir, index) = project_of(&[
        ("dates.py", "class MonthMixin:\n    month = None\n\nclass MonthView(MonthMixin):\n    pass\n"),
        ("backend.py", "def trunc(dt):\n    return dt.month\n"),
        ("views.py", "from dates import MonthView\n\ndef show(view):\n    return view.month\n"),
        ("mixins.py", "import dates\n\ndef get(m):\n    return m.month\n\nclass Local(dates.MonthMixin):\n    pass\n"),
        ("date.rb", "class Cal\n  def month\n  end\nend\n"),
        ("use.rb", "def f(t)\n  t.month\nend\n"),
    ]);
    // `month` is also a datetime's: a file naming the type lists it, marked
    // ambiguous (a guess).
    assert_eq!(refs(&index, "dates.py:2"), ["mixins.py:4 other ambiguous", "views.py:4 other ambiguous"]);
    assert_eq!(refs(&index, "date.rb:2"), Vec::<String>::new());
}

/// A member of an untyped value whose name no value of the language's own
/// library has is the project's one member of that name, named type in sight
/// or not (without it, marked ambiguous: a guess); a library's name still
/// needs the type in sight; a member of a name
/// imported from an external module is no project member. Regressions: rails'
/// `column.bigint?` (schema_dumper.rb names no `Column`) was bound to nothing
/// (activerecord/lib oracle 0.575 -> 0.766), django's `FIELD_TYPE.BLOB` (of
/// `from MySQLdb.constants import FIELD_TYPE`) was Oracle's
/// `BulkInsertMapper.BLOB`. Only a call binds so: an attribute read may be
/// one set at run time (django's `request.session`, set by a middleware, was
/// the test client's `@property def session`; `model._meta` was
/// `MultiPartParser._meta` 1,004 times: scip-python seed 2 precision 0.627).
#[test]
fn untyped_members_named_like_no_library_member_bind_regression() {
    let (_dir, index) = project_of(&[
        (
            "column.rb",
            "class Column\n  def bigint?\n  end\n  def uniq!\n  end\nend\n",
        ),
        (
            "dumper.rb",
            "class Dumper\n  def schema_type(column)\n    column.bigint? && list.uniq!\n  end\nend\n",
        ),
        (
            "mapper.py",
            "class Mapper:\n    BLOB = 1\n    def setup_joins(self):\n        pass\n    @property\n    def session(self):\n        pass\n",
        ),
        (
            "intro.py",
            "from MySQLdb.constants import FIELD_TYPE\n\ndef f(q, request):\n    q.setup_joins()\n    request.session.get(1)\n    return FIELD_TYPE.BLOB\n",
        ),
        (
            "Rows.php",
            "<?php
class Rows {
  function addLoop() {}
  function count() {}
}
",
        ),
        (
            "view.php",
            "<?php
function f($env) {
  $env->addLoop();
  return $env->count();
}
",
        ),
    ]);
    assert_eq!(refs(&index, "column.rb:2"), ["dumper.rb:3 call ambiguous"]);
    assert_eq!(refs(&index, "column.rb:4"), Vec::<String>::new());
    assert_eq!(refs(&index, "mapper.py:3"), ["intro.py:4 call ambiguous"]);
    assert_eq!(refs(&index, "mapper.py:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "mapper.py:6"), Vec::<String>::new());
    assert_eq!(refs(&index, "Rows.php:3"), ["view.php:3 call ambiguous"]);
    assert_eq!(refs(&index, "Rows.php:4"), Vec::<String>::new());
}

/// Ruby and PHP types get members at run time (`delegate`, a concern's
/// `ClassMethods`, `__callStatic`): a project type's member it does not
/// declare is looked up as an untyped value's; a constant naming no project
/// type is a library's; a Ruby `attr_reader` is a method among a call's
/// candidates. Regressions: Rails' `Post.find_each` (delegated to a relation)
/// and Laravel's facade `URL::hasValidSignature()` bound to nothing
/// (activerecord/lib oracle 0.766 -> 0.951); `route.path.spec` was the one
/// `def spec` though three `attr_reader :spec` share the name; after the
/// first change, `ExecJS.runtime` (a gem's) was the project's `runtime`, and
/// then `UTF8_STRING.mb_chars` (a constant holding a string) bound to nothing.
#[test]
fn members_types_get_at_run_time_and_library_constants_regression() {
    let (_dir, index) = project_of(&[
        (
            "batches.rb",
            "module Batches\n  def find_each\n  end\n  def runtime\n  end\n  def spec\n  end\n  def mb_chars\n  end\nend\n",
        ),
        (
            "querying.rb",
            "module Querying
  delegate :find_each, to: :all
end
",
        ),
        (
            "base.rb",
            "class Base
  extend Querying
end
class Post < Base
end
",
        ),
        (
            "pattern.rb",
            "class Pattern
  attr_reader :spec
end
",
        ),
        (
            "use.rb",
            "def f(route)\n  Post.find_each\n  ExecJS.runtime\n  route.path.spec\n  UTF8_STRING.mb_chars\nend\n",
        ),
        (
            "Gen.php",
            "<?php
class UrlGenerator {
  function hasValidSignature() {}
}
",
        ),
        (
            "URL.php",
            "<?php
class URL extends Facade {
}
",
        ),
        (
            "mw.php",
            "<?php
function f() {
  return URL::hasValidSignature();
}
",
        ),
    ]);
    assert_eq!(refs(&index, "batches.rb:2"), ["use.rb:2 call ambiguous"]);
    assert_eq!(refs(&index, "batches.rb:4"), Vec::<String>::new());
    assert_eq!(refs(&index, "batches.rb:6"), Vec::<String>::new());
    assert_eq!(refs(&index, "batches.rb:8"), ["use.rb:5 call ambiguous"]);
    assert_eq!(refs(&index, "Gen.php:3"), ["mw.php:3 call ambiguous"]);
}

/// PHP's `self` and `static` as declared types name the class they are
/// written in: a parameter `self $from`, a fluent `function where(): static`,
/// `(new static)->m()`. Regression: laravel's `Request::createFrom(self
/// $from)` called `$from->getRouteResolver()` bound to nothing, and a chain
/// through `: static` results lost its type.
#[test]
fn php_self_and_static_types_name_their_class_regression() {
    let (_dir, index) = project_of(&[
        (
            "Builder.php",
            "<?php\nclass Builder {\n  public function where($a): static { return $this; }\n\
             public function get() {}\n  public static function make() { return (new static)->get(); }\n\
             public static function from(self $b) { return $b->get(); }\n}\n",
        ),
        ("Other.php", "<?php\nclass Other {\n  public function get() {}\n}\n"),
        ("Use.php", "<?php\nclass UseIt {\n  function f(Builder $b) { return $b->where(1)->get(); }\n}\n"),
    ]);
    assert_eq!(refs(&index, "Builder.php:4"), ["Builder.php:5 call", "Builder.php:6 call", "Use.php:3 call"]);
    assert_eq!(refs(&index, "Other.php:3"), Vec::<String>::new());
}

/// `Sub.member` where a base of `Sub` declares the member (a class method, a
/// static). Regression: a type named as the receiver without the member was
/// the end of the lookup (django's `CharField._unregister_lookup(..)`, of
/// `RegisterLookupMixin`, bound to nothing).
#[test]
fn static_members_of_a_base_through_a_subclass_regression() {
    let (_dir, index) = project_of(&[
        (
            "lookups.py",
            "class Mixin:\n    @classmethod\n    def unregister(cls, x):\n        pass\n\n\
             class Field(Mixin):\n    pass\n\nclass CharField(Field):\n    pass\n",
        ),
        ("apps.py", "from lookups import CharField\n\ndef ready():\n    CharField.unregister(1)\n"),
        ("Base.java", "class Base {\n  static int make() { return 1; }\n}\n"),
        ("Sub.java", "class Sub extends Base {\n}\n"),
        ("Use.java", "class Use {\n  int f() { return Sub.make(); }\n}\n"),
    ]);
    assert_eq!(refs(&index, "lookups.py:3"), ["apps.py:4 call"]);
    assert_eq!(refs(&index, "Base.java:2"), ["Use.java:2 call"]);
}

/// A member a class of the file inherits is its bases' as the file names
/// them, when same-named bases elsewhere declare it too. Regression: `class
/// Q(tree.Node)` then `self.children` was ambiguous between django's
/// `tree.Node.children` and migrations' `graph.Node.children` (bases were
/// followed by name).
#[test]
fn inherited_members_of_the_bases_the_file_names_regression() {
    let (_dir, index) = project_of(&[
        ("utils/__init__.py", ""),
        ("utils/tree.py", "class Node:\n    def __init__(self):\n        self.children = []\n"),
        ("migrations/__init__.py", ""),
        ("migrations/graph.py", "class Node:\n    def __init__(self):\n        self.children = set()\n"),
        (
            "query.py",
            "from utils import tree\n\nclass Q(tree.Node):\n    def size(self):\n        return len(self.children)\n",
        ),
    ]);
    assert_eq!(refs(&index, "utils/tree.py:3"), ["query.py:5 other"]);
    assert_eq!(refs(&index, "migrations/graph.py:3"), Vec::<String>::new());
}

/// A C# extension method called on a typed value: the value's type, or one
/// of its supertypes, is the method's `this` parameter's (a generic `this T`
/// takes any). Regression: mono's `return_type.IsCustomTaskType()` (a field
/// declared `TypeSpec`, with `static bool IsCustomTaskType(this TypeSpec
/// type)`) bound to nothing, as did every extension method called on a typed
/// field, property, parameter or local. The type's own method of the name
/// comes first; another type's extension is not the value's.
#[test]
fn csharp_extension_methods_of_typed_values_regression() {
    let (_dir, index) = project_of(&[
        (
            "Ext.cs",
            "namespace N {\n  static class TypeExt {\n    public static bool IsCustom(this TypeSpec t) { return false; }\n    \
             public static bool IsCustom(this Other o) { return true; }\n    \
             public static T Or<T>(this T x, T y) { return x; }\n    \
             public static int Size(this TypeSpec t) { return 0; }\n  }\n}\n",
        ),
        (
            "Types.cs",
            "namespace N {\n  public class TypeSpec {\n    public int Size() { return 1; }\n  }\n  \
             public class ArrayType : TypeSpec {\n  }\n  public class Other {\n  }\n}\n",
        ),
        (
            "Use.cs",
            "namespace N {\n  public class Storey {\n    readonly TypeSpec return_type;\n    \
             public TypeSpec ReturnType { get { return return_type; } }\n    \
             void F(ArrayType a, Other o) {\n      return_type.IsCustom();\n      ReturnType.IsCustom();\n      \
             a.IsCustom();\n      o.IsCustom();\n      a.Or(a);\n      return_type.Size();\n    }\n  }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Ext.cs:3"), ["Use.cs:6 call", "Use.cs:7 call", "Use.cs:8 call"]);
    assert_eq!(refs(&index, "Ext.cs:4"), ["Use.cs:9 call"]);
    assert_eq!(refs(&index, "Ext.cs:5"), ["Use.cs:10 call"]);
    assert_eq!(refs(&index, "Ext.cs:6"), Vec::<String>::new());
    assert_eq!(refs(&index, "Types.cs:3"), ["Use.cs:11 call"]);
}

/// Of the C# extension methods a typed value has, those of a namespace the
/// file imports (or is in), and the most specific: an `IQueryable`'s
/// `Count()` is `Queryable.Count(this IQueryable)`, not also
/// `Enumerable.Count(this IEnumerable)`, nor a namespace's the file does
/// not import (mono holds several copies of System.Linq and LinqBridge).
#[test]
fn csharp_extension_methods_in_scope_and_most_specific() {
    let (_dir, index) = project_of(&[
        (
            "Linq.cs",
            "namespace Lib.Linq {\n  public interface IEnumerable {}\n  public interface IQueryable : IEnumerable {}\n  \
             static class Queryable {\n    public static int Count(this IQueryable q) { return 0; }\n  }\n  \
             static class Enumerable {\n    public static int Count(this IEnumerable e) { return 0; }\n  }\n}\n",
        ),
        (
            "Bridge.cs",
            "namespace Other.Bridge {\n  static class Enumerable {\n    \
             public static int Count(this Lib.Linq.IEnumerable e) { return 0; }\n  }\n}\n",
        ),
        (
            "Use.cs",
            "using Lib.Linq;\nnamespace App {\n  class U {\n    void G(IQueryable q, IEnumerable e) {\n      \
             q.Count();\n      e.Count();\n    }\n  }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Linq.cs:5"), ["Use.cs:5 call"]);
    assert_eq!(refs(&index, "Linq.cs:8"), ["Use.cs:6 call"]);
    assert_eq!(refs(&index, "Bridge.cs:3"), Vec::<String>::new());
}

/// Java, C# and C++ overloads told apart by a call's number of arguments:
/// guava's `checkArgument(ok)` was listed, ambiguous, under all 20
/// `checkArgument` overloads (364 callers of the one-parameter one, every one
/// marked ambiguous). Varargs, C# `params`, defaults and extension methods
/// take their ranges; overloads of one count stay ambiguous; a call no
/// overload fits keeps them all.
#[test]
fn overloads_told_apart_by_their_arguments_regression() {
    let (_dir, index) = project_of(&[
        (
            "Checks.java",
            "class Checks {\n  static void check(boolean ok) {}\n  static void check(boolean ok, String m) {}\n  \
             static void check(boolean ok, String m, Object... args) {}\n  static void check(boolean ok, char c) {}\n  \
             Checks() {}\n  Checks(int n) {}\n}\n",
        ),
        (
            "Use.java",
            "class Use {\n  void run() {\n    Checks.check(true);\n    Checks.check(true, \"m\");\n    \
             Checks.check(true, \"m\", 1, 2);\n    Checks.check(true /* ok */, \"m\");\n    \
             Checks c = new Checks(3);\n    Checks.check();\n  }\n}\n",
        ),
        (
            "a.cs",
            "static class Ext {\n  public static int Twice(this int x) { return x; }\n  \
             public static int Twice(this int x, int y, int z = 0) { return x; }\n}\nclass Log {\n  \
             public void Write(string s) {}\n  public void Write(string f, params object[] args) {}\n  \
             void Run() {\n    Write(\"a\");\n    Write(\"a\", 1, 2);\n    int n = 2.Twice();\n    \
             int m = 2.Twice(3);\n    int k = Ext.Twice(2);\n  }\n}\n",
        ),
        (
            "s.cpp",
            "struct S {\n  void put(int a);\n  void put(int a, int b, int c = 0);\n};\nvoid S::put(int a) {}\n\
             void S::put(int a, int b, int c) {}\nvoid use(S& s) {\n  s.put(1);\n  s.put(1, 2);\n}\n",
        ),
    ]);
    // One parameter; the `(boolean, String)` and `(boolean, char)` pair
    // share two (a comment is no argument); varargs take three or more (two
    // fit the pair without them, which the languages prefer). `check()`,
    // which none takes (a mistake, or a prototype not understood), keeps
    // them all.
    let none = "Use.java:8 call ambiguous";
    assert_eq!(refs(&index, "Checks.java:2"), ["Use.java:3 call", none]);
    assert_eq!(refs(&index, "Checks.java:3"), ["Use.java:4 call ambiguous", "Use.java:6 call ambiguous", none]);
    assert_eq!(refs(&index, "Checks.java:4"), ["Use.java:5 call", none]);
    assert_eq!(refs(&index, "Checks.java:5"), ["Use.java:4 call ambiguous", "Use.java:6 call ambiguous", none]);
    // Constructors: `new Checks(3)` is the one-parameter one.
    assert_eq!(refs(&index, "Checks.java:7").iter().filter(|r| r.contains("call")).count(), 1);
    assert!(refs(&index, "Checks.java:6").iter().all(|r| !r.contains("Use.java:7")));
    // C#: `params` takes any number; an extension method called on a value
    // takes it as its first argument (`2.Twice(3)` passes two), called on a
    // name (`Ext.Twice(2, 3)`, or a field's) either.
    assert_eq!(refs(&index, "a.cs:6"), ["a.cs:9 call"]);
    assert_eq!(refs(&index, "a.cs:7"), ["a.cs:10 call"]);
    assert_eq!(refs(&index, "a.cs:2"), ["a.cs:11 call", "a.cs:13 call ambiguous"]);
    assert_eq!(refs(&index, "a.cs:3"), ["a.cs:12 call", "a.cs:13 call ambiguous"]);
    // C++: a default fills the third.
    let put = |line: &str| {
        refs(&index, line)
            .into_iter()
            .filter(|r| r.starts_with("s.cpp:8") || r.starts_with("s.cpp:9"))
            .collect::<Vec<_>>()
    };
    assert_eq!(put("s.cpp:2"), ["s.cpp:8 call"]);
    assert_eq!(put("s.cpp:3"), ["s.cpp:9 call"]);
}

/// Overloads were told apart only among candidates in at most four files
/// (each method's prototype was read from its file's archive at question
/// time): a member call on a receiver of unknown type, with same-named methods
/// in six classes, stayed ambiguous between all of them. Each method's arity
/// is now in the definitions table.
#[test]
fn overloads_in_many_files_told_apart_regression() {
    let mut files: Vec<(String, String)> =
        (0..6).map(|i| (format!("C{i}.java"), format!("class C{i} {{\n  void put(int a) {{}}\n}}\n"))).collect();
    files.push(("Map.java".into(), "class Map {\n  void put(int k, int v) {}\n}\n".into()));
    files.push((
        "Use.java".into(),
        "class Use {\n  void run() {\n    get().put(1, 2);\n    var x = make();\n    x.put(3, 4);\n  }\n}\n".into(),
    ));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = project_of(&files);
    assert_eq!(refs(&index, "Map.java:2"), ["Use.java:3 call", "Use.java:5 call"]);
    for i in 0..6 {
        assert_eq!(refs(&index, &format!("C{i}.java:2")), Vec::<String>::new(), "C{i}");
    }
}

/// A C++ constructor's member initializer naming a base class (`Derived() :
/// Base(1)`) or the class itself (a delegating constructor) was a plain name
/// (`other`), bound to every constructor of the base and not a call: the
/// base's constructors had no callers. It is a call of the constructor of
/// that many arguments; an initializer of a member stays the member's.
#[test]
fn cpp_base_initializers_call_the_bases_constructor_regression() {
    let (_dir, index) = project_of(&[
        ("base.hpp", "struct Base {\n  Base(int a) {}\n  Base(int a, int b) {}\n};\n"),
        (
            "derived.hpp",
            "#include \"base.hpp\"\nstruct Member {\n  Member(int x) {}\n};\nstruct Derived : public Base {\n  \
             Member m_;\n  Derived() : Base(1), m_(2) {}\n  Derived(int a) : Derived() {}\n  \
             Derived(int a, int b) : Base{a, b}, m_{3} {}\n};\n",
        ),
    ]);
    assert_eq!(refs(&index, "base.hpp:2"), ["derived.hpp:7 call"]);
    assert_eq!(refs(&index, "base.hpp:3"), ["derived.hpp:9 call"]);
    assert_eq!(refs(&index, "derived.hpp:7"), ["derived.hpp:8 call"]);
    assert_eq!(refs(&index, "derived.hpp:6"), ["derived.hpp:7 other", "derived.hpp:9 other"]);
    assert_eq!(refs(&index, "derived.hpp:3"), Vec::<String>::new());
}

/// A scope without a name took its first child for one: C++'s and PHP's
/// unnamed `namespace { .. }` made the whole body the file's namespace (a
/// qualified name `{\nint helper(..) ..}::helper`), and a Java
/// `package-info.java` with annotations before `package` was in the package
/// `@Deprecated`, not `p`.
#[test]
fn unnamed_namespaces_and_annotated_packages_regression() {
    let (_dir, index) = project_of(&[
        ("a.cpp", "namespace {\nint helper(int a) { return a; }\n}\n"),
        ("b.cpp", "namespace outer::inner {\nstruct S {};\n}\n"),
        ("c.php", "<?php\nnamespace {\nfunction g() {}\n}\n"),
        ("p/package-info.java", "@Deprecated\n@SuppressWarnings(\"x\")\npackage p;\n"),
        ("p/A.java", "package p;\nclass A {}\n"),
    ]);
    assert_eq!(qualified(&index, "helper"), ["helper"]);
    assert_eq!(qualified(&index, "S"), ["outer::inner::S"]);
    assert_eq!(qualified(&index, "g"), ["g"]);
    let g = Graph::new(&index);
    let mut files: Vec<String> = g.scope_files("p").unwrap().into_iter().map(|k| g.path_of(k).unwrap()).collect();
    files.sort();
    assert_eq!(files, ["p/A.java", "p/package-info.java"]);
    assert!(g.scope_files("@Deprecated").unwrap().is_empty());
}

/// A C++ file's namespace was its first named one only: `namespace leveldb {
/// namespace log { class Reader` qualified `leveldb::Reader`, and
/// `leveldb::log::Reader` found nothing. A namespace opened first in that one's
/// body extends it; one after other declarations leaves it (one namespace a
/// file: `x::V` below is a known limit).
#[test]
fn nested_cpp_namespaces_regression() {
    let (_dir, index) = project_of(&[
        (
            "a.cpp",
            "// log\nnamespace leveldb {\n// inner\nclass Env;\nstruct File;\nnamespace log {\nstruct Reader {};\n}\n}\n",
        ),
        ("b.cpp", "namespace x {\nstruct U {};\nnamespace y {\nstruct V {};\n}\n}\n"),
    ]);
    assert_eq!(qualified(&index, "Reader"), ["leveldb::log::Reader"]);
    assert_eq!(qualified(&index, "leveldb::log::Reader"), ["leveldb::log::Reader"]);
    assert_eq!(qualified(&index, "U"), ["x::U"]);
    assert_eq!(qualified(&index, "V"), ["x::V"]);
}

/// Ruby's `super`, bare or with arguments, calls the method it is written in
/// as the base class declares it: it was no reference at all (rails'
/// `initialize` methods calling `super` were missing from their bases'
/// callers).
#[test]
fn ruby_super_calls_the_bases_method_regression() {
    let (_dir, index) = project_of(&[
        ("base.rb", "class Base\n  def run\n  end\n\n  def initialize(a)\n  end\nend\n"),
        ("other.rb", "class Other\n  def run\n  end\nend\n"),
        (
            "sub.rb",
            "require_relative 'base'\n\nclass Sub < Base\n  def run\n    super\n  end\n\n  def initialize(a)\n    \
             super(a)\n    [1].each { super(a) }\n  end\nend\n",
        ),
    ]);
    assert_eq!(refs(&index, "base.rb:2"), ["sub.rb:5 call"]);
    assert_eq!(refs(&index, "base.rb:5"), ["sub.rb:9 call", "sub.rb:10 call"]);
    assert_eq!(refs(&index, "other.rb:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "sub.rb:4"), Vec::<String>::new());
}

/// A constructor calling another, Java's `this(..)` / `super(..)` and C#'s
/// `: this(..)` / `: base(..)`, calls the overload of that many arguments:
/// they were no references, so an abstract class's constructors had no
/// callers at all.
#[test]
fn constructor_chains_call_the_overload_they_pass_arguments_to_regression() {
    let (_dir, index) = project_of(&[
        ("Shape.java", "abstract class Shape {\n  Shape() {}\n  Shape(int n) {}\n}\n"),
        (
            "Square.java",
            "class Square extends Shape {\n  Square() {\n    this(4);\n  }\n  Square(int side) {\n    super(side);\n  }\n}\n",
        ),
        // A base written with its outer class and type arguments.
        ("Outer.java", "class Outer {\n  Outer() {}\n  static class Inner<T> {\n    Inner(int n) {}\n  }\n}\n"),
        ("Sub.java", "class Sub extends Outer.Inner<String> {\n  Sub() {\n    super(1);\n  }\n}\n"),
        (
            "a.cs",
            "class Shape {\n  public Shape() {}\n  public Shape(int n) {}\n}\nclass Square : Shape {\n  \
             public Square() : this(4) {}\n  public Square(int side) : base(side) {}\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Shape.java:3"), ["Square.java:6 call"]);
    assert_eq!(refs(&index, "Shape.java:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "Square.java:5"), ["Square.java:3 call"]);
    assert_eq!(refs(&index, "a.cs:3"), ["a.cs:7 call"]);
    assert_eq!(refs(&index, "a.cs:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "a.cs:7"), ["a.cs:6 call"]);
    assert_eq!(callers(&index, "Shape.java:3"), ["Square.Square [6]"]);
    assert_eq!(refs(&index, "Outer.java:4"), ["Sub.java:3 call"]);
    assert_eq!(refs(&index, "Outer.java:2"), Vec::<String>::new());
}

/// A C++ class declared with an export macro (`class LEVELDB_EXPORT
/// EnvWrapper : public Env {`) parses as a function `EnvWrapper` whose body is
/// the class's: its constructors and destructor were calls and errors (not
/// methods), its base an error (no supertype), and the file had syntax
/// errors. So did a macro alone on a line of a class body (`Q_OBJECT`). Such
/// files are parsed again with the macros blanked out; the macro stays a word
/// of its line and a reference.
#[test]
fn cpp_export_macro_classes_regression() {
    let (_dir, index) = project_of(&[
        (
            "api.h",
            "#define API\nnamespace ns {\nclass API Base {\n public:\n  Base();\n  virtual ~Base();\n};\n\
             class API Derived : public Base {\n public:\n  Derived();\n  class API Inner final {\n    Inner(int a);\n  };\n};\n}\n",
        ),
        ("use.cpp", "#include \"api.h\"\nnamespace ns {\nvoid use() {\n  Base* b = new Derived();\n}\n}\n"),
        ("widget.h", "class Widget : public QObject {\n  Q_OBJECT\n\n public:\n  Widget();\n  void paint();\n};\n"),
    ]);
    // A macro alone on a line of a class body took in the label and the
    // constructor after it (a field `public` of type `Q_OBJECT`).
    assert_eq!(qualified(&index, "widget.h:5"), ["Widget::Widget"]);
    let extract = |path: &str| {
        let bytes = std::fs::read(_dir.path().join(path)).unwrap();
        codegraph::extract::Extractor::new().extract(path, codegraph::lang::Language::Cpp, &bytes, 0)
    };
    let widget = extract("widget.h");
    let methods: Vec<(&str, Option<&str>)> = widget.methods.iter().map(|m| (m.name.as_str(), m.visibility)).collect();
    assert_eq!(methods, [("Widget", Some("public")), ("paint", Some("public"))]);
    assert!(widget.properties.is_empty());
    assert_eq!(qualified(&index, "api.h:5"), ["ns::Base::Base"]);
    assert_eq!(qualified(&index, "api.h:6"), ["ns::Base::~Base"]);
    assert_eq!(qualified(&index, "api.h:12"), ["ns::Derived::Inner::Inner"]);
    assert_eq!(refs(&index, "api.h:10"), ["use.cpp:4 call"]);
    let g = Graph::new(&index);
    let h = g.hierarchy(g.find("Derived").unwrap()[0]).unwrap();
    let sup: Vec<&str> = h.supertypes.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(sup, ["Base"]);
    assert_eq!(refs(&index, "API"), ["api.h:3 other", "api.h:8 other", "api.h:11 other"]);
    let mut q = codegraph::query::Query::new("API", codegraph::query::Mode::Exact);
    q.case_sensitive = true;
    let hits = codegraph::query::search(&index, &q).unwrap().hits;
    let lines: Vec<String> = hits.iter().map(|h| format!("{}:{}", h.path, h.line)).collect();
    assert_eq!(lines, ["api.h:1", "api.h:3", "api.h:8", "api.h:11"]);
    let facts = extract("api.h");
    assert!(facts.diagnostics.is_empty(), "{:?}", facts.diagnostics);
}

/// A qualified SYMBOL of three names or more passes the candidates whose
/// file, scope or parents do not hold the name before the type's (thousands
/// of TypeScript test files declare `class C { constructor() }`); the ones
/// that do are still found: a file's stem, an `index` file's folder, a
/// namespace's part.
#[test]
fn qualified_symbols_of_three_names_find_their_definition_among_namesakes() {
    let (_dir, index) = project_of(&[
        ("one.ts", "export class C {\n  constructor() {}\n}\n"),
        ("two.ts", "export class C {\n  constructor() {}\n}\n"),
        ("lib/index.ts", "export class C {\n  constructor() {}\n}\n"),
        ("A.cs", "namespace Shop.Orders {\n  class C {\n    public C() {}\n  }\n}\n"),
        ("B.cs", "namespace Shop.Bills {\n  class Outer {\n    class C {\n      public C() {}\n    }\n  }\n}\n"),
    ]);
    assert_eq!(qualified(&index, "one.C.constructor"), ["one.C.constructor"]);
    assert_eq!(qualified(&index, "lib.C.constructor"), ["lib.C.constructor"]);
    assert_eq!(qualified(&index, "Orders.C.C"), ["Shop.Orders.C.C"]);
    // A nested class's members are named through its outer class.
    assert_eq!(qualified(&index, "Outer.C.C"), ["Shop.Bills.Outer.C.C"]);
    assert_eq!(qualified(&index, "Shop.Bills.Outer.C.C"), ["Shop.Bills.Outer.C.C"]);
    let g = Graph::new(&index);
    assert!(g.find("three.C.constructor").is_err());
    assert!(g.find("Bills.C.C").is_err());
}

/// A member of a nested type was qualified by its own type alone
/// (`Shop.Bills.C.Add` for `Add` of class `C` declared in class `Outer`), so
/// `Outer.C.Add` found nothing and answers named it as if `C` were top-level;
/// the type itself was already `Shop.Bills.Outer.C`.
#[test]
fn nested_types_members_are_named_through_their_outer_types_regression() {
    let (_dir, index) = project_of(&[
        (
            "Shop.cs",
            "namespace Shop.Bills {\n  public class Outer {\n    public class C {\n      public C() {}\n      public void Add(int x) {}\n    }\n    public void Run() { var c = new C(); c.Add(1); }\n  }\n}\n",
        ),
        (
            "shop/Outer.java",
            "package shop;\npublic class Outer {\n  public static class C {\n    public static class D {\n      public void put(int x) {}\n    }\n  }\n  public void put() {}\n}\n",
        ),
        ("shop.py", "class Outer:\n    class C:\n        def add(self, x):\n            pass\n    def run(self):\n        pass\n"),
        ("shop.rb", "module Shop\n  class Outer\n    class C\n      def add(x); end\n    end\n  end\nend\n"),
        ("shop.h", "namespace shop {\nclass Outer {\n public:\n  class C {\n   public:\n    void add(int x) {}\n  };\n};\n}\n"),
        // A method whose receiver type is declared at top level: no outer.
        ("store.go", "package store\n\ntype Store struct{}\n\nfunc (s *Store) Add() {}\n"),
    ]);
    assert_eq!(qualified(&index, "Outer.C.Add"), ["Shop.Bills.Outer.C.Add"]);
    assert_eq!(qualified(&index, "Outer.C.C"), ["Shop.Bills.Outer.C.C"]);
    assert_eq!(qualified(&index, "Outer.Run"), ["Shop.Bills.Outer.Run"]);
    assert_eq!(qualified(&index, "C.D.put"), ["shop.Outer.C.D.put"]);
    assert_eq!(qualified(&index, "Outer.put"), ["shop.Outer.put"]);
    let mut add = qualified(&index, "Outer.C.add");
    add.sort();
    assert_eq!(add, ["Shop::Outer::C::add", "shop.Outer.C.add", "shop::Outer::C::add"]);
    assert_eq!(qualified(&index, "Shop::Outer::C::add"), ["Shop::Outer::C::add"]);
    assert_eq!(qualified(&index, "Outer.run"), ["shop.Outer.run"]);
    assert_eq!(qualified(&index, "Store.Add"), ["store.Store.Add"]);
    let g = Graph::new(&index);
    for wrong in ["Bills.C.Add", "shop.C.D.put", "shop.C.add"] {
        assert!(g.find(wrong).is_err(), "{wrong}");
    }
    // The file's view (its archive read) names them as the table does.
    let add = g.find("Outer.C.Add").unwrap();
    assert_eq!(g.view_read(add[0]).unwrap().qualified_name, "Shop.Bills.Outer.C.Add");
    // The call through a local of the nested type binds to it.
    assert_eq!(refs(&index, "Outer.C.Add"), ["Shop.cs:7 call"]);
}

/// Rust's inline modules were not definitions: three `bar`s of one file (the
/// file's, `mod foo`'s, `mod foo { mod deep }`'s) were all `shop::bar`, every
/// plain `bar()` was ambiguous between them, and `foo::bar()` was external.
#[test]
fn rust_inline_modules_name_and_scope_their_items_regression() {
    let shop = "pub fn bar() -> u32 { 2 }

pub mod foo {
    pub fn bar() -> u32 { 3 }
    pub struct Cart;
    impl Cart {
        pub fn total(&self) -> u32 { bar() }
    }
    pub mod deep {
        pub fn bar() -> u32 { 4 }
    }
}

pub fn run() -> u32 {
    let c = foo::Cart;
    foo::bar() + bar() + c.total() + foo::deep::bar()
}

#[cfg(test)]
mod tests {
    use super::*;
    fn it_runs() { bar(); }
}
";
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[package]\nname = \"shop\"\n"),
        ("src/lib.rs", "pub mod shop;\nmod other;\npub fn bar() -> u32 { 1 }\n"),
        ("src/shop.rs", shop),
        ("src/other.rs", "pub fn other() {}\n"),
    ]);
    let mut bars = qualified(&index, "bar");
    bars.sort();
    assert_eq!(bars, ["bar", "shop::bar", "shop::foo::bar", "shop::foo::deep::bar"]);
    assert_eq!(qualified(&index, "foo::Cart::total"), ["shop::foo::Cart::total"]);
    assert_eq!(qualified(&index, "tests::it_runs"), ["shop::tests::it_runs"]);
    assert_eq!(qualified(&index, "shop::foo"), ["shop::foo"]);
    // `mod other;` declares no module here: it is the file other.rs.
    assert!(Graph::new(&index).find("other").unwrap().len() == 1);
    // Each plain `bar()` is its own module's (or, in `mod tests`, its
    // parent's); `foo::bar()` and `foo::deep::bar()` are those modules'.
    assert_eq!(refs(&index, "shop::bar"), ["src/shop.rs:16 call", "src/shop.rs:22 call"]);
    assert_eq!(refs(&index, "shop::foo::bar"), ["src/shop.rs:7 call", "src/shop.rs:16 call"]);
    assert_eq!(refs(&index, "shop::foo::deep::bar"), ["src/shop.rs:16 call"]);
    let g = Graph::new(&index);
    let run = g.find("shop::run").unwrap();
    let mut callees: Vec<String> = g
        .callees(run[0], 1)
        .unwrap()
        .into_iter()
        .map(|c| {
            format!(
                "{}{}",
                c.symbol.map_or("?".into(), |s| s.qualified_name),
                if c.ambiguous { " ambiguous" } else { "" }
            )
        })
        .collect();
    callees.sort();
    assert_eq!(callees, ["shop::bar", "shop::foo::Cart::total", "shop::foo::bar", "shop::foo::deep::bar"]);
}

/// A plain name no module around it declares is still the file's own (rustc's
/// ui test `import2.rs`: `use baz::zed::bar;`, which fails, then `bar()`), not
/// every `bar` of the project (976 of them there).
#[test]
fn rust_plain_names_of_an_inner_module_stay_in_their_file() {
    let (_dir, index) = project_of(&[
        (
            "src/main.rs",
            "use baz::zed::bar;\nmod baz {}\nmod zed {\n    pub fn bar() {}\n}\nfn main() {\n    bar();\n}\n",
        ),
        ("src/other.rs", "pub fn bar() {}\n"),
    ]);
    assert_eq!(refs(&index, "zed::bar"), ["src/main.rs:1 import", "src/main.rs:7 call"]);
    assert_eq!(refs(&index, "other::bar"), Vec::<String>::new());
}

#[test]
fn rust_paths_from_crate_super_and_self_name_their_module_regression() {
    // `super::helper()` and `self::helper()` were receivers of unknown type,
    // `crate::util::helper()` was `util`'s by its last name (both `helper`s of
    // util.rs, ambiguous), `crate::top()` and `super::open()` found nothing.
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[package]\nname = \"shop\"\n"),
        ("src/lib.rs", "pub mod util;\npub mod net;\npub mod store;\npub fn top() -> u32 { 1 }\n"),
        (
            "src/util.rs",
            "pub fn helper() -> u32 { 1 }
pub fn top() -> u32 { 9 }
pub mod inner {
    pub fn helper() -> u32 { 2 }
    pub fn call_up() -> u32 { super::helper() + self::helper() }
}
",
        ),
        (
            "src/net/mod.rs",
            "pub mod conn;
pub fn open() -> u32 { crate::util::helper() + super::top() + self::conn::dial() }
",
        ),
        (
            "src/net/conn.rs",
            "pub fn dial() -> u32 { super::open() + crate::top() + crate::util::inner::helper() }
pub struct Store;
impl Store {
    pub fn new() -> Store { Store }
}
pub fn make() { crate::store::Store::new(); }
",
        ),
        (
            "src/store.rs",
            "pub struct Store;
impl Store {
    pub fn new() -> Store { Store }
    pub fn helper(&self) -> u32 { self::helper() + self.size() }
    fn size(&self) -> u32 { 0 }
}
pub fn helper() -> u32 { 5 }
",
        ),
    ]);
    assert_eq!(refs(&index, "util::helper"), ["src/net/mod.rs:2 call", "src/util.rs:5 call"]);
    assert_eq!(refs(&index, "util::inner::helper"), ["src/net/conn.rs:1 call", "src/util.rs:5 call"]);
    assert_eq!(refs(&index, "src/lib.rs:4"), ["src/net/conn.rs:1 call", "src/net/mod.rs:2 call"]);
    assert_eq!(refs(&index, "net::open"), ["src/net/conn.rs:1 call"]);
    assert_eq!(refs(&index, "net::conn::dial"), ["src/net/mod.rs:2 call"]);
    assert_eq!(refs(&index, "util::top"), Vec::<String>::new());
    // `self::helper()` in an impl is the module's function, not the method.
    assert_eq!(refs(&index, "store::helper"), ["src/store.rs:4 call"]);
    assert_eq!(refs(&index, "store::Store::helper"), Vec::<String>::new());
    assert_eq!(refs(&index, "store::Store::size"), ["src/store.rs:4 call"]);
    // `crate::store::Store::new()`: the `Store` of module `store`.
    assert_eq!(refs(&index, "store::Store::new"), ["src/net/conn.rs:6 call"]);
    assert_eq!(refs(&index, "net::conn::Store::new"), Vec::<String>::new());
    assert_eq!(callees(&index, "net::open"), ["util::helper", "top", "net::conn::dial"]);
}

#[test]
fn rust_paths_follow_the_files_modules_imports_and_crates_regression() {
    // A path's receiver was its last segment, a module or type by that name
    // anywhere: `shop::util::helper()` was ambiguous with the app's own `util`,
    // `store::Store::new()` with the app's `Store`.
    let (_dir, index) = project_of(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"shop\", \"app\", \"other\"]\n"),
        ("shop/src/lib.rs", "pub mod store;\npub mod util;\npub use self::util::deep::shout;\n"),
        ("shop/src/store.rs", "pub struct Store;\nimpl Store {\n    pub fn new() -> Store { Store }\n}\n"),
        ("shop/src/util/mod.rs", "pub mod deep;\npub fn helper() -> u32 { 1 }\n"),
        ("shop/src/util/deep.rs", "pub fn shout() {}\npub fn helper() -> u32 { 2 }\n"),
        ("other/src/lib.rs", "pub mod deep;\n"),
        ("other/src/deep.rs", "pub fn helper() -> u32 { 5 }\npub fn shout() {}\n"),
        (
            "app/src/main.rs",
            "use shop::store;
use shop::util::{self as u};
mod util;
mod local { pub fn helper() -> u32 { 3 } }
fn main() {
    store::Store::new();
    shop::util::helper();
    u::deep::helper();
    shop::shout();
    local::helper();
    util::helper();
}
",
        ),
        ("app/src/util.rs", "pub fn helper() -> u32 { 4 }\n"),
        ("app/src/store.rs", "pub struct Store;\nimpl Store {\n    pub fn new() -> Store { Store }\n}\n"),
    ]);
    assert_eq!(refs(&index, "shop/src/store.rs:3"), ["app/src/main.rs:6 call"]);
    assert_eq!(refs(&index, "app/src/store.rs:3"), Vec::<String>::new());
    assert_eq!(refs(&index, "shop/src/util/mod.rs:2"), ["app/src/main.rs:7 call"]);
    assert_eq!(refs(&index, "shop/src/util/deep.rs:2"), ["app/src/main.rs:8 call"]);
    assert_eq!(refs(&index, "other/src/deep.rs:1"), Vec::<String>::new());
    // `shop::shout()`: the crate's root brings it in from a module below it.
    assert_eq!(refs(&index, "shop/src/util/deep.rs:1"), ["app/src/main.rs:9 call", "shop/src/lib.rs:3 import"]);
    assert_eq!(refs(&index, "other/src/deep.rs:2"), Vec::<String>::new());
    assert_eq!(refs(&index, "local::helper"), ["app/src/main.rs:10 call"]);
    assert_eq!(refs(&index, "app/src/util.rs:1"), ["app/src/main.rs:11 call"]);
}

#[test]
fn rust_paths_through_a_reexported_module_are_that_module_regression() {
    // `use std::ptr;` then `ptr::write()`: std re-exports core's `ptr`, which
    // the path does not follow; `ptr` was then read as a type (a test's
    // `type ptr = Handle`) and the call bound to `Handle::write`.
    let (_dir, index) = project_of(&[
        ("core/src/lib.rs", "pub mod ptr;\n"),
        ("core/src/ptr.rs", "pub fn write() {}\n"),
        ("std/src/lib.rs", "pub use core::ptr;\n"),
        ("app/src/main.rs", "use std::ptr;\nfn main() {\n    ptr::write();\n}\n"),
        (
            "other/src/lib.rs",
            "pub struct Handle;\nimpl Handle {\n    pub fn write(&self) {}\n}\npub type ptr = Handle;\n",
        ),
    ]);
    assert_eq!(refs(&index, "core/src/ptr.rs:1"), ["app/src/main.rs:3 call"]);
    assert_eq!(refs(&index, "Handle::write"), Vec::<String>::new());
}

/// TS scripts each declaring their own `class foo` and writing `new foo()`
/// (the compiler tests' `class2.ts` among 3,379 such files): `refs` of one's
/// constructor reads only the files whose `new foo()` can construct it, and
/// answers what reading every file does: its own file, a script declaring
/// no `foo`, one declaring only an interface `foo` (which a script's class
/// may merge with), one writing `new m.foo()`; not the others.
#[test]
fn constructors_of_a_class_others_declare_too_read_only_files_without_their_own_regression() {
    let mut files: Vec<(String, String)> = (0..10)
        .map(|i| {
            (
                format!("tests/c{i:02}.ts"),
                format!("class foo {{\n    constructor(x: number) {{}}\n}}\nconst a{i} = new foo({i});\n"),
            )
        })
        .collect();
    files.push(("tests/class2.ts".into(), "class foo {\n    constructor() {}\n}\nvar f = new foo();\n".into()));
    files.push(("tests/use.ts".into(), "var g = new foo();\n".into()));
    files.push(("tests/iface.ts".into(), "interface foo {\n    x: number;\n}\nvar h = new foo();\n".into()));
    files.push(("tests/fn.ts".into(), "function foo() {}\nvar k = new foo();\n".into()));
    files.push(("tests/ns.ts".into(), "import * as m from \"./class2\";\nclass foo {}\nvar j = new m.foo();\n".into()));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = project_of(&refs);
    let (narrowed, wide) = (Graph::new(&index), Graph::new(&index).exhaustive());
    let got = refs_and_other_lines(&narrowed, "tests/class2.ts:2");
    assert_eq!(got, refs_and_other_lines(&wide, "tests/class2.ts:2"));
    assert_eq!(got.0, ["tests/class2.ts:4 call", "tests/iface.ts:4 call", "tests/ns.ts:3 call", "tests/use.ts:1 call"]);
    // The ten scripts with their own class are not read (fn.ts is: its own
    // `foo` is a function).
    assert_eq!(narrowed.files_read(), 5, "reading all: {}", wide.files_read());
    assert!(wide.files_read() >= 15, "{}", wide.files_read());
}

/// Found on guava by comparing `cg refs` of uniquely named methods with every
/// code line naming them. Regressions: a method reference (`Type::m`,
/// `this::m`) named no method; a nested class's call of a method of the class
/// around it (`seekByValue(..)` in `HashBiMap.Inverse`) bound to nothing; a
/// call named like a local declared on its line (`Path missing =
/// missing(p)`) was taken for the local; and a value declared of a qualified
/// type (`ImmutableSet.Builder<String> b`, `java.util.List<T>`) was typed by
/// the type's first part (`b.add()` was `ImmutableSet.add`).
#[test]
fn java_method_references_outer_members_calls_named_as_locals_and_qualified_types_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/p/Set.java",
            "package p;\npublic class Set {\n  public static Builder builder() { return new Builder(); }\n\
             \x20 public void add(int x) {}\n\
             \x20 public static class Builder {\n    public void add(int x) {}\n    void forceJdk() {}\n  }\n}\n",
        ),
        (
            "src/p/Map.java",
            "package p;\npublic class Map {\n  int seek(int k) { return k; }\n  int missing(int k) { return k; }\n\
             \x20 static int twice(int k) { return 2 * k; }\n\
             \x20 class Inverse {\n    int get(int k) { return seek(k) + twice(k); }\n  }\n\
             \x20 int f(java.util.List<Integer> xs) {\n    xs.stream().map(Map::twice);\n    Runnable r = this::g;\n\
             \x20   int missing = missing(1);\n    return missing;\n  }\n  void g() {}\n}\n",
        ),
        (
            "src/q/Use.java",
            "package q;\nimport p.Set;\nclass Use {\n  void u(Set.Builder b) {\n    Set.Builder c = Set.builder();\n\
             \x20   c.forceJdk();\n    b.add(1);\n    java.util.function.Supplier<Set.Builder> s = Set::builder;\n  }\n\
             \x20 Set.Builder builder() { return null; }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Map.seek"), ["src/p/Map.java:7 call"]);
    assert_eq!(refs(&index, "Map.twice"), ["src/p/Map.java:7 call", "src/p/Map.java:10 other"]);
    assert_eq!(refs(&index, "Map.g"), ["src/p/Map.java:11 other"]);
    assert_eq!(refs(&index, "Map.missing"), ["src/p/Map.java:12 call"]);
    assert_eq!(refs(&index, "Set.Builder.forceJdk"), ["src/q/Use.java:6 call"]);
    assert_eq!(refs(&index, "Set.Builder.add"), ["src/q/Use.java:7 call"]);
    assert_eq!(refs(&index, "Set.add"), Vec::<String>::new());
    assert_eq!(refs(&index, "Set.builder"), ["src/q/Use.java:5 call", "src/q/Use.java:8 other"]);
    assert_eq!(refs(&index, "Use.builder"), Vec::<String>::new());
}

/// C# and C++ nested types name the static members of the types around them
/// bare, as Java's do.
#[test]
fn csharp_and_cpp_nested_types_name_the_members_around_them() {
    let (_dir, index) = project_of(&[
        (
            "cs/Outer.cs",
            "namespace N {\n  class Outer {\n    static int Twice(int k) { return 2 * k; }\n\
             \x20   class Inner {\n      int Get(int k) { return Twice(k); }\n    }\n  }\n}\n",
        ),
        (
            "cpp/outer.hpp",
            "class Outer {\n  static int twice(int k) { return 2 * k; }\n\
             \x20 class Inner {\n    int get(int k) { return twice(k); }\n  };\n};\n",
        ),
    ]);
    assert_eq!(refs(&index, "N.Outer.Twice"), ["cs/Outer.cs:5 call"]);
    assert_eq!(refs(&index, "Outer::twice"), ["cpp/outer.hpp:4 call"]);
}

/// Found on rails by comparing `cg refs` of uniquely named methods with the
/// code lines calling them. Regressions: a method named with `?` or `!`
/// (`ok?`, `save!`) had no references at all (the term index holds the word
/// `ok`, and refs looked for `ok?`); and a bare call in a module that mixes
/// into classes it does not name (a concern's helper, a block of `included
/// do`) bound to nothing, where the project's one method of the name is
/// meant (several stay counted, not listed, as for an untyped receiver).
#[test]
fn ruby_methods_named_with_marks_and_bare_calls_from_mixins_regression() {
    let (_dir, index) = project_of(&[
        (
            "lib/store.rb",
            "class Store\n  def run\n    ok?(1)\n    save!\n    Store.cached?(2)\n  end\n\n  def self.cached?(x)\n    x\n  end\n\n\
             \x20 private\n    def ok?(x)\n      x\n    end\n\n    def save!\n    end\nend\n",
        ),
        (
            "lib/auto.rb",
            "module Auto\n  module ClassMethods\n    def add(r)\n      define(r) { save_all(r) }\n      twice(r)\n    end\n  end\n\n\
             \x20 private\n    def save_all(r)\n      r\n    end\nend\n",
        ),
        ("lib/a.rb", "class A\n  def twice(r)\n    r\n  end\nend\n"),
        ("lib/b.rb", "class B\n  def twice(r)\n    r\n  end\nend\n"),
        // Enough files naming `cached` for the segment to list which of them
        // reference `cached` (none: they reference `cached?`).
        ("lib/c1.rb", "class C1\n  def f\n    Store.cached?(1)\n  end\nend\n"),
        ("lib/c2.rb", "class C2\n  def f\n    Store.cached?(1)\n  end\nend\n"),
        ("lib/c3.rb", "class C3\n  def f\n    Store.cached?(1)\n  end\nend\n"),
    ]);
    assert_eq!(refs(&index, "Store.ok?"), ["lib/store.rb:3 call"]);
    assert_eq!(refs(&index, "Store.save!"), ["lib/store.rb:4 call"]);
    assert_eq!(
        refs(&index, "Store.cached?"),
        ["lib/c1.rb:3 call", "lib/c2.rb:3 call", "lib/c3.rb:3 call", "lib/store.rb:5 call"]
    );
    assert_eq!(refs(&index, "Auto.save_all"), ["lib/auto.rb:4 call"]);
    assert_eq!(refs(&index, "A.twice"), Vec::<String>::new());
}

/// `$this->m()` in a PHP trait is a member of the classes using it: theirs,
/// their bases' or another trait's they use. Regression: laravel's
/// `HasAttributes` calling `usesTimestamps()` of `HasTimestamps` (both used by
/// `Model`) bound to nothing. A class whose base is a library's holds none.
#[test]
fn php_this_in_a_trait_is_a_class_using_it_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/Stamps.php",
            "<?php\nnamespace App;\ntrait Stamps {\n    public function stamped() { return true; }\n}\n",
        ),
        (
            "src/Dates.php",
            "<?php\nnamespace App;\ntrait Dates {\n    public function dates() { return $this->stamped() && $this->mime(); }\n}\n",
        ),
        ("src/Model.php", "<?php\nnamespace App;\nclass Model {\n    use Stamps, Dates;\n}\n"),
        (
            "src/File.php",
            "<?php\nnamespace App;\nclass File {\n    public function mime() { return 'a'; }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Stamps.stamped"), ["src/Dates.php:4 call"]);
    assert_eq!(refs(&index, "File.mime"), Vec::<String>::new());
}

/// Rust calls written inside a macro's arguments (`format!`, `assert_eq!`,
/// `debug!`), which the grammar leaves as unparsed tokens, are calls: a
/// method through its typed receiver or a call's declared result, a path's
/// function, a plain function, with their arguments counted. Regression: rustc's `tcx.def_path_str(..)`
/// inside `debug!`/`format!` (258 of its 293 lines) bound to nothing; the
/// brute-force oracle on rustc's `compiler` was 0.801.
#[test]
fn rust_calls_inside_macro_arguments_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/lib.rs",
            "pub mod ctx;\npub struct Other;\nimpl Other {\n    pub fn def_path_str(&self, d: u32) -> String { String::new() }\n}\n",
        ),
        (
            "src/ctx.rs",
            "pub struct Tcx;\nimpl Tcx {\n    pub fn new() -> Tcx { Tcx }\n    \
             pub fn def_path_str(&self, d: u32) -> String { String::new() }\n}\n\
             pub fn helper(a: u32, b: u32) -> u32 { a + b }\n",
        ),
        (
            "src/run.rs",
            "use crate::ctx::{helper, Tcx};\n\npub fn run(tcx: Tcx) {\n    let a = tcx.def_path_str(1);\n    \
             debug!(\"x {}\", tcx.def_path_str(2));\n    let s = format!(\"{} {}\", tcx.def_path_str(3), helper(1, 2,));\n    \
             assert_eq!(Tcx::new().def_path_str(4), crate::ctx::helper(3, 4));\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "Tcx.def_path_str"),
        ["src/run.rs:4 call", "src/run.rs:5 call", "src/run.rs:6 call", "src/run.rs:7 call"]
    );
    assert_eq!(refs(&index, "Other.def_path_str"), Vec::<String>::new());
    assert_eq!(refs(&index, "helper"), ["src/run.rs:1 import", "src/run.rs:6 call", "src/run.rs:7 call"]);
    // (`String::new()` is the library's, not the project's one `new`.)
    assert_eq!(refs(&index, "Tcx.new"), ["src/run.rs:7 call"]);
    assert_eq!(callers(&index, "helper"), ["run::run [6, 7]"]);
}

/// Names a Rust match arm's pattern binds are the arm's locals, not
/// references of the project's functions named so; its guard, capitalized
/// names (constants, variants) and the other arms read names as before.
/// Regression: rustc's `Some(second) =>` and `Abi::ScalarPair(first, second)`
/// were listed, ambiguous, under every test function named `second` (126).
#[test]
fn rust_match_arm_bindings_are_locals_regression() {
    let (_dir, index) = project_of(&[(
        "src/lib.rs",
        "pub fn second() -> u32 { 2 }\npub fn limit() -> u32 { 3 }\npub static verbose: bool = true;\n\
         pub fn run(x: Option<u32>) -> u32 {\n    match x {\n        Some(second) if verbose => second + limit(),\n        \
         Some(first) => first + second(),\n        None => limit(),\n    }\n}\n",
    )]);
    assert_eq!(refs(&index, "second"), ["src/lib.rs:7 call"]);
    assert_eq!(refs(&index, "limit"), ["src/lib.rs:6 call", "src/lib.rs:8 call"]);
    assert_eq!(refs(&index, "verbose"), ["src/lib.rs:6 other"]);
}

/// `self.m()` in a Python class that neither declares nor inherits `m` is a
/// mixin's: `self` is a class listing it among its bases, whose other bases
/// hold `m`. Regression: django's `messages_tests.base.BaseTests` calling
/// `self.assertRedirects()` of the `TestCase` its test classes also derive
/// from bound to nothing. A class no subclass mixes in holds none; a class
/// written by name (`BaseTests.m()`) or a value declared one is not `self`.
#[test]
fn python_self_in_a_mixin_is_a_class_mixing_it_in_regression() {
    let (_dir, index) = project_of(&[
        (
            "testing/cases.py",
            "class TestCase:\n    def assert_redirects(self, url):\n        return url\n",
        ),
        (
            "tests/base.py",
            "class BaseTests:\n    def test_add(self):\n        self.assert_redirects('/')\n\n\
             class Lone:\n    def run(self, other: BaseTests):\n        self.assert_redirects('/')\n        BaseTests.assert_redirects('/')\n        other.assert_redirects('/')\n",
        ),
        (
            "tests/test_cookie.py",
            "from testing.cases import TestCase\nfrom tests.base import BaseTests\n\n\
             class CookieTests(BaseTests, TestCase):\n    pass\n",
        ),
    ]);
    assert_eq!(refs(&index, "TestCase.assert_redirects"), ["tests/base.py:3 call"]);
}

/// A GoogleTest test of a fixture, `TEST_F(LogTest, BadRecord) { .. }`, is a
/// method of the fixture: its bare calls are the fixture's members, and it is
/// named by the test. Regression: every such test was a function `TEST_F`
/// whose calls bound to nothing (leveldb, 300 uniquely named functions: lines
/// calling them 960/1285; the tests' helpers were most of the misses).
#[test]
fn cpp_fixture_tests_are_methods_of_their_fixture_regression() {
    let (_dir, index) = project_of(&[(
        "db/log_test.cc",
        "class LogTest : public testing::Test {\n public:\n  void Bump(int by) { n_ += by; }\n  int n_ = 0;\n};\n\n\
         TEST_F(LogTest, BadRecord) {\n  Bump(6);\n}\n\nTEST(Plain, Works) {\n  int x = 1;\n}\n",
    )]);
    assert_eq!(refs(&index, "LogTest.Bump"), ["db/log_test.cc:8 call"]);
    assert_eq!(qualified(&index, "BadRecord"), ["LogTest::BadRecord"]);
    assert_eq!(callers(&index, "LogTest.Bump"), ["LogTest::BadRecord [8]"]);
}

/// PHP declares most types in docblocks (`@param`, `@return`, `@var`), which
/// type parameters, results and properties as declared types do; and a
/// method's result is the value a chained call is made on (Java's
/// `this.make().run()` and `make().run()`, PHP's `$this->hasOne(..)->latest()`). Regressions:
/// all these receivers were untyped, so their members bound to nothing
/// (laravel, 300 uniquely named methods: lines calling them 834 -> 838 of
/// 1,116, most of the rest untyped closures' parameters and facades).
#[test]
fn php_docblock_types_and_chained_method_results_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/Rel.php",
            "<?php\nnamespace App;\nclass Rel {\n    /**\n     * @var \\App\\Cursor|null\n     */\n    protected $cursor;\n\n\
             \x20   /**\n     * @param  \\App\\Cursor  $c\n     * @return \\App\\HasOne\n     */\n\
             \x20   public function hasOne($c) {\n        $c->points();\n        return $this->cursor->points();\n    }\n\n\
             \x20   /** @return $this */\n    public function fluent() { return $this; }\n\n\
             \x20   public function chain() {\n        $this->hasOne(null)->latest();\n        $this->fluent()->chain();\n    }\n}\n",
        ),
        ("src/Cursor.php", "<?php\nnamespace App;\nclass Cursor {\n    public function points() { return 1; }\n}\n"),
        ("src/HasOne.php", "<?php\nnamespace App;\nclass HasOne {\n    public function latest() { return 1; }\n}\n"),
        ("src/Other.php", "<?php\nnamespace App;\nclass Other {\n    public function points() { return 2; }\n    public function latest() { return 2; }\n}\n"),
        (
            "j/A.java",
            "class A {\n  B make() { return new B(); }\n  void go() { this.make().run(); }\n  void plain() { make().run(); }\n}\n\
             class B { void run() {} }\nclass C { void run() {} }\n",
        ),
    ]);
    assert_eq!(refs(&index, "Cursor.points"), ["src/Rel.php:14 call", "src/Rel.php:15 call"]);
    assert_eq!(refs(&index, "HasOne.latest"), ["src/Rel.php:22 call"]);
    assert_eq!(refs(&index, "Rel.chain"), ["src/Rel.php:23 call"]);
    assert_eq!(refs(&index, "Other.points"), Vec::<String>::new());
    assert_eq!(refs(&index, "B.run"), ["j/A.java:3 call", "j/A.java:4 call"]);
}

/// A Java constructor reference, `Store::new`, calls the constructors (it
/// was a plain mention of the type).
#[test]
fn java_constructor_references_call_the_constructors() {
    let (_dir, index) = project_of(&[
        ("p/Store.java", "package p;\nclass Store {\n  Store() {}\n  static Object make() { return (java.util.function.Supplier<Store>) Store::new; }\n}\n"),
        ("p/Use.java", "package p;\nclass Use {\n  Object f() { java.util.function.Supplier<Store> s = Store::new; return s; }\n}\n"),
    ]);
    assert_eq!(refs(&index, "Store.Store"), ["p/Store.java:4 call", "p/Use.java:3 call"]);
}

/// A Rust value named plainly is the module's, imported (by name or by a
/// glob), the prelude's or a local: never another module's item without a
/// `use`. Regression: names bound where the walk does not see bindings (in a
/// macro's tokens: clippy's `if_chain! { if let Binary(op, first, second) =
/// e.kind; .. second.kind }`) were listed, ambiguous, under every item of
/// their name in the project (rustc's `second`: 98 such references).
#[test]
fn rust_plain_values_need_the_module_or_a_use_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub fn second() -> u32 { 2 }\npub static LIMIT: u32 = 3;\n",
        ),
        (
            "src/a.rs",
            "pub fn check(x: Option<u32>) {\n    if_chain! {\n        if let Some(second) = x;\n        \
             then { println!(\"{}\", second.max(LIMIT)); }\n    }\n}\n",
        ),
        ("src/b.rs", "use crate::{second, LIMIT};\npub fn f() -> u32 {\n    let s = second;\n    LIMIT + s()\n}\n"),
        ("src/c.rs", "use super::*;\npub fn g() -> u32 {\n    let s = second;\n    s() + LIMIT\n}\n"),
    ]);
    assert_eq!(refs(&index, "second"), ["src/b.rs:1 import", "src/b.rs:3 other", "src/c.rs:3 other"]);
    assert_eq!(refs(&index, "LIMIT"), ["src/b.rs:1 import", "src/b.rs:4 other", "src/c.rs:4 other"]);
}

/// Rust's `Self` is the `impl`'s type: as a declared result (`fn fresh() ->
/// Self`) and as a parameter's type (`other: &Self`). Regression: both left
/// the value untyped, so `Other::fresh().size()` and `other.size()` were
/// listed, ambiguous, under every `size` of the project (or under none).
#[test]
fn rust_self_as_a_result_and_a_parameter_type_is_the_impl_type_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/a.rs",
            "pub struct Ext { n: u32 }\nimpl Ext {\n    pub fn size(&self) -> u32 { self.n }\n    \
             pub fn both(&self, other: &Self) -> u32 { other.size() }\n}\n",
        ),
        (
            "src/b.rs",
            "pub struct Other { n: u32 }\nimpl Other {\n    pub fn size(&self) -> u32 { 2 }\n    \
             pub fn fresh() -> Self { Other { n: 1 } }\n}\npub fn run() -> u32 {\n    let x = Other::fresh();\n    \
             x.size() +\n    Other::fresh().size()\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Ext.size"), ["src/a.rs:4 call"]);
    assert_eq!(refs(&index, "Other.size"), ["src/b.rs:8 call", "src/b.rs:9 call"]);
}

/// A Rust file declaring a type means that type by its name: the fields of a
/// struct literal or pattern are its own struct's, not also those of the
/// project's other types of the name. Regression: rustc's UI tests each
/// declare a `struct Foo`; `Foo { first: true, second: None }` was listed,
/// ambiguous, under every `Foo`'s `second`.
#[test]
fn rust_struct_fields_of_the_files_own_type_regression() {
    let (_dir, index) = project_of(&[
        (
            "tests/a.rs",
            "struct Foo { first: bool, second: Option<u32> }\nfn main() {\n    \
             match (Foo { first: true, second: None }) {\n        Foo { first: true, second: None } => (),\n        \
             _ => (),\n    }\n}\n",
        ),
        ("tests/b.rs", "struct Foo { second: u32 }\nfn main() {\n    let y = Foo { second: 1 };\n}\n"),
        ("tests/c.rs", "struct Foo { second: u32, third: u32 }\n"),
    ]);
    assert_eq!(refs(&index, "second"), ["tests/a.rs:3 other", "tests/a.rs:4 other", "tests/b.rs:3 other"]);
}

/// Rust: a glob import brings in what the imported module re-exports
/// (`use rustc_middle::mir::*` and `pub use terminator::*` in `mir/mod.rs`),
/// and a macro's call written among another macro's tokens
/// (`impl_default!(..)` in a `macro_rules!` body) is a call of the macro.
/// Regression: with plain values needing a `use`, rustc's
/// `TerminatorKind::Call` and std's `Ipv6Addr` in `net/ip/tests.rs` lost
/// their definitions; a macro's calls in other macros were plain names.
#[test]
fn rust_globs_follow_reexports_and_macros_call_macros_regression() {
    let (_dir, index) = project_of(&[
        ("src/lib.rs", "pub mod mir;\npub mod user;\n#[macro_use]\npub mod macros;\n"),
        ("src/mir/mod.rs", "mod terminator;\npub use terminator::*;\n"),
        ("src/mir/terminator.rs", "pub static DEPTH: u32 = 1;\n"),
        ("src/user.rs", "use crate::mir::*;\npub fn f() -> u32 {\n    DEPTH\n}\n"),
        (
            "src/macros.rs",
            "macro_rules! inner {\n    ($e:expr) => { $e };\n}\nmacro_rules! outer {\n    () => { inner!(1) };\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "DEPTH"), ["src/user.rs:3 other"]);
    assert_eq!(refs(&index, "inner"), ["src/macros.rs:5 call"]);
}

/// A capitalized receiver naming no project definition at all is a library's
/// class: Java's `Math.max(..)`, C#'s `Console.WriteLine(..)`, JS's
/// `Object.keys(..)`. Regression: each bound to the project's one member of
/// that name (as Ruby's, PHP's and Rust's class names did before).
#[test]
fn library_class_receivers_are_not_the_projects_members_regression() {
    let (_dir, index) = project_of(&[
        ("src/Util.java", "class Util {\n    static int max(int a, int b) { return a; }\n}\n"),
        ("src/Main.java", "class Main {\n    int run() {\n        return Math.max(1, 2) + Util.max(3, 4);\n    }\n}\n"),
        (
            "Log.cs",
            "class Log {\n    public static void WriteLine(string s) {}\n}\n",
        ),
        (
            "App.cs",
            "class App : Log {\n    void Run() {\n        Console.WriteLine(\"a\");\n        Log.WriteLine(\"b\");\n    }\n}\n",
        ),
        ("lib/store.js", "class Store {\n  keys() { return []; }\n}\n"),
        ("lib/use.js", "function list(o) {\n  return Object.keys(o);\n}\n"),
    ]);
    assert_eq!(refs(&index, "Util.max"), ["src/Main.java:3 call"]);
    assert_eq!(refs(&index, "Log.WriteLine"), ["App.cs:4 call"]);
    assert_eq!(refs(&index, "Store.keys"), Vec::<String>::new());
}

/// In Rust's `let f = f(x);` and Go's `f := f(x)` the new local is not bound
/// in its own value: the call there is the function's; after it, the name
/// is the local's, and a local that shadows an earlier one reads that one in
/// its value. Regression: rustc's `let tag_base_type = tag_base_type(cx, ..)`
/// was no call of the function `tag_base_type` (the oracle's misses).
#[test]
fn rust_and_go_locals_are_bound_after_their_value_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/lib.rs",
            "pub fn tag_base_type(x: u32) -> u32 { x }\npub fn y() -> u32 { 0 }\n\
             pub fn run(cx: u32) -> u32 {\n    let tag_base_type = tag_base_type(cx);\n    let y = 1;\n    \
             let y = y + tag_base_type;\n    y\n}\n",
        ),
        ("go.mod", "module example.com/m\n"),
        (
            "p/p.go",
            "package p\n\nfunc parse(s string) int { return len(s) }\n\nfunc Run(s string) int {\n\tparse := parse(s)\n\t\
             return parse + 1\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "tag_base_type"), ["src/lib.rs:4 call"]);
    assert_eq!(refs(&index, "y"), Vec::<String>::new());
    assert_eq!(refs(&index, "parse"), ["p/p.go:6 call"]);
}

/// Rust's `x.make().size()` and `let y = x.make(); y.size()`: the value is
/// what the method `make` of `x`'s type returns (the method's, though a
/// field has its name); a type without the member (one reached through
/// `Deref`) leaves it to the project's one member of that name, if there is
/// one. Regression: both chains were untyped (listed under every `size`),
/// and rustc's `err.multipart_suggestion(..)` of a `DiagnosticBuilder`
/// (which derefs to `Diagnostic`) bound to nothing once typed. Oracle on
/// rustc's compiler: 939 -> 1,105 of 1,135 lines.
#[test]
fn rust_method_results_type_chains_and_deref_falls_back_regression() {
    let (_dir, index) = project_of(&[
        (
            "src/a.rs",
            "pub struct Other { make: u32 }\nimpl Other {\n    pub fn size(&self) -> u32 { 2 }\n    \
             pub fn make(&self) -> Self { Other { make: 1 } }\n    pub fn builder(&self) -> Builder { Builder }\n}\n\
             pub struct Builder;\npub struct Diagnostic;\nimpl Diagnostic {\n    pub fn suggest(&self) {}\n}\n\
             pub fn run(x: Other) -> u32 {\n    let y = x.make();\n    x.builder().suggest();\n    \
             x.make().size() + y.size()\n}\n",
        ),
        (
            "src/b.rs",
            "pub struct Invoice;\nimpl Invoice {\n    pub fn size(&self) -> u32 { 3 }\n    \
             pub fn make(&self) -> Invoice { Invoice }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "Other.size"), ["src/a.rs:15 call", "src/a.rs:15 call"]);
    assert_eq!(refs(&index, "Invoice.size"), Vec::<String>::new());
    assert_eq!(refs(&index, "Diagnostic.suggest"), ["src/a.rs:14 call"]);
}

/// A project where `lib.target` has `files × per` callers (`callers/cK.py`,
/// each function calling it once, every tenth twice).
fn fan_in(files: usize, per: usize) -> (tempfile::TempDir, Index) {
    let mut sources: Vec<(String, String)> = vec![(
        "lib.py".to_string(),
        "def target(x):\n    return x + 1\n\n\ndef helper(x):\n    return target(x)\n".to_string(),
    )];
    for k in 0..files {
        let mut text = String::from("from lib import target\n\n\n");
        for i in 0..per {
            let twice = if i % 10 == 0 { " + target(i)" } else { "" };
            text.push_str(&format!("def caller_{k}_{i}(x):\n    return target(x){twice}\n\n\n"));
        }
        sources.push((format!("callers/c{k}.py"), text));
    }
    let files: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    common::indexed_project(&files)
}

/// Regression: the callers of one function were grouped by their enclosing
/// definition by scanning every group so far, and impact checked each caller
/// against every one listed, so 100,000 callers took minutes (`impact
/// --depth 1` 18 s at 40,000). Each caller is listed once, with its call
/// lines, in path and line order; the speed is measured in benches/fanin.
#[test]
fn thousands_of_callers_of_one_function_are_each_listed_once_with_their_lines_regression() {
    let (files, per) = (20, 150);
    let (_dir, index) = fan_in(files, per);
    let g = Graph::new(&index);
    let target = g.find("lib.target").unwrap();
    let edges = g.callers(&target, 1).unwrap();
    // The oracle: every function of the project that calls target, and helper.
    let mut want: Vec<String> = vec!["lib.helper [6]".to_string()];
    let mut paths: Vec<String> = (0..files).map(|k| format!("callers/c{k}.py")).collect();
    paths.sort();
    for path in &paths {
        let k: usize = path["callers/c".len()..path.len() - 3].parse().unwrap();
        for i in 0..per {
            let line = 3 + 4 * i as u32 + 2;
            want.push(format!("c{k}.caller_{k}_{i} [{line}]"));
        }
    }
    let mut got: Vec<String> =
        edges.iter().map(|e| format!("{} {:?}", e.symbol.as_ref().unwrap().qualified_name, e.lines)).collect();
    got.sort();
    want.sort();
    assert_eq!(got.len(), files * per + 1);
    assert_eq!(got, want);
    assert!(!g.was_cut());

    let impact = g.impact("lib.target", 2).unwrap();
    // Level 1 is every reference: the callers, and each file's import line.
    let (named, imports): (Vec<_>, Vec<_>) = impact.callers.iter().partition(|c| c.symbol.is_some());
    assert_eq!(named.len(), files * per + 1, "each caller once");
    assert_eq!(imports.len(), files);
    let importers: std::collections::BTreeSet<&str> = impact.importers.iter().map(|i| i.file.as_str()).collect();
    assert_eq!(importers.len(), files);
    assert_eq!(impact.importers.len(), files, "each import line once");
}

/// A walk past its time limit stops and answers what it found, saying so; a
/// graph without one never says it was cut.
#[test]
fn a_walk_past_its_time_limit_answers_what_it_found_and_says_so() {
    let (_dir, index) = fan_in(4, 50);
    let g = Graph::new(&index).with_time_limit(std::time::Duration::ZERO);
    let target = g.find("lib.target").unwrap();
    let edges = g.callers(&target, 3).unwrap();
    assert!(g.was_cut());
    assert!(edges.len() < 201, "{}", edges.len());
    let g = Graph::new(&index).with_time_limit(std::time::Duration::from_secs(3600));
    assert_eq!(g.callers(&target, 3).unwrap().len(), 201);
    assert!(!g.was_cut());
}

/// JavaScript's untyped members: the project's one member of a name is the
/// member where the file names its type and no library value has the name;
/// a guess (ambiguous) where only one of the two holds; nothing where
/// neither does. Regression: on webpack (scip-typescript as the reference)
/// `x.length` of arrays and strings was `TupleQueue.length` in 1,066 lines,
/// `xs.sort()` was `SortableSet.sort`, and the references cg did not mark
/// ambiguous were right 0.813 of the time (0.887 after).
#[test]
fn javascript_untyped_members_are_guesses_unless_the_type_is_in_sight_regression() {
    let (_dir, index) = project_of(&[
        (
            "lib/queue.js",
            "class TupleQueue {\n  get length() { return 0; }\n  addGroup(g) {}\n}\nmodule.exports = TupleQueue;\n",
        ),
        ("lib/set.js", "class SortableSet {\n  sort() { return this; }\n}\nmodule.exports = SortableSet;\n"),
        (
            "lib/chunk.js",
            "const SortableSet = require(\"./set\");\nconst TupleQueue = require(\"./queue\");\n\
             function f(list, q, s) {\n  list.sort();\n  q.addGroup(1);\n  return s.length;\n}\n\
             exports.make = () => [new TupleQueue(), new SortableSet()];\n",
        ),
        ("lib/other.js", "function g(list, q) {\n  list.sort();\n  q.addGroup(2);\n  return list.length;\n}\n"),
    ]);
    // Named in code (a `require` alone names no type: the variable is no
    // definition) and only the project's: the member.
    assert_eq!(refs(&index, "TupleQueue.addGroup"), ["lib/chunk.js:5 call", "lib/other.js:3 call ambiguous"]);
    // An array's name too: a guess where the type is named, else nothing.
    assert_eq!(refs(&index, "SortableSet.sort"), ["lib/chunk.js:4 call ambiguous"]);
    assert_eq!(refs(&index, "TupleQueue.length"), ["lib/chunk.js:6 other ambiguous"]);
}

/// CommonJS's `require` is an import: `m.f()` through `const m =
/// require("./m")` is the module's `f` (exported by `module.exports = { f }`
/// too), `const { a, b: c } = require(..)` imports `a` and `b` as `c`, a class
/// the module exports is the binding's, and a package's member is not the
/// project's. Regression: on eslint (scip-typescript as the reference) every
/// `astUtils.isCallee(..)` was missed (recall 0.879 with the references
/// scip-typescript gives to `module.exports = { .. }` counted; 0.994 after).
#[test]
fn commonjs_requires_are_imports_regression() {
    let (_dir, index) = project_of(&[
        (
            "lib/utils/ast.js",
            "function isCallee(n) { return 1; }\nfunction join(a) { return a; }\nmodule.exports = {\n    isCallee,\n    join\n};\n",
        ),
        ("lib/cache.js", "class Cache {\n  get() {}\n}\nCache.STAGE = 1;\nmodule.exports = Cache;\n"),
        (
            "lib/use.js",
            "const astUtils = require(\"./utils/ast\");\nconst { isCallee: callee } = require(\"./utils/ast\");\n\
             const Cache = require(\"./cache\");\nconst path = require(\"path\");\n\
             function f(x) {\n  astUtils.isCallee(x);\n  callee(x);\n  path.join(x);\n  return new Cache().get(Cache.STAGE);\n}\n",
        ),
    ]);
    assert_eq!(
        refs(&index, "isCallee"),
        ["lib/use.js:2 other", "lib/use.js:6 call", "lib/use.js:7 call", "lib/utils/ast.js:4 other"]
    );
    assert_eq!(refs(&index, "join"), ["lib/utils/ast.js:5 other"]);
    assert_eq!(
        refs(&index, "Cache"),
        ["lib/cache.js:4 other", "lib/cache.js:5 other", "lib/use.js:9 call", "lib/use.js:9 other"]
    );
    assert_eq!(refs(&index, "Cache.get"), ["lib/use.js:9 call"]);
    let g = Graph::new(&index);
    let imports: Vec<String> = g
        .imports("lib/use.js", 1)
        .unwrap()
        .into_iter()
        .map(|i| format!("{} {:?} {:?}", i.module, i.names, i.resolved))
        .collect();
    assert_eq!(
        imports,
        [
            "./utils/ast [\"default as astUtils\"] [\"lib/utils/ast.js\"]",
            "./utils/ast [\"isCallee as callee\"] [\"lib/utils/ast.js\"]",
            "./cache [\"default as Cache\"] [\"lib/cache.js\"]",
            "path [\"default as path\"] []"
        ]
    );
}

/// JavaScript's JSDoc types its values: `@param {Chunk} chunk`, `@returns
/// {Logger}`, `/** @type {Chunk} */ const c = ..`, `this.x = ..` under a
/// `@type` or constructing a class (a field of the class); and CommonJS's
/// `exports.Logger = WebpackLogger` makes the name other files' JSDoc uses
/// stand for the class. Regression: on webpack (scip-typescript as the
/// reference) `logger.time(..)` and `logger.log(..)` of `WebpackLogger` were
/// 158 of 348 missed references (recall 0.911 -> 0.945).
#[test]
fn javascript_jsdoc_types_and_exported_class_aliases_regression() {
    let (_dir, index) = project_of(&[
        ("lib/logger.js", "class WebpackLogger {\n  log(m) {}\n  time(l) {}\n}\nexports.Logger = WebpackLogger;\n"),
        ("lib/chunk.js", "class Chunk {\n  addGroup(g) {}\n}\nmodule.exports = Chunk;\n"),
        (
            "lib/comp.js",
            "const { Logger } = require(\"./logger\");\nconst Chunk = require(\"./chunk\");\nclass Compilation {\n  constructor() {\n\
             \x20   /** @type {Logger} */\n    this.logger = make();\n    this.first = new Chunk();\n  }\n\
             \x20 /**\n   * @returns {Logger} a logger\n   */\n  getLogger() {\n    return this.logger;\n  }\n\
             \x20 run() {\n    this.logger.log(1);\n    this.first.addGroup(2);\n  }\n}\n\
             /**\n * @param {Chunk} chunk the chunk\n * @param {Compilation} compilation c\n */\n\
             const apply = (chunk, compilation) => {\n  chunk.addGroup(1);\n  const l = compilation.getLogger();\n  l.time(2);\n\
             \x20 /** @type {Chunk} */\n  const c = pick();\n  c.addGroup(3);\n};\nmodule.exports = Compilation;\n",
        ),
        ("lib/other.js", "function g(x) {\n  x.time(1);\n}\n"),
    ]);
    assert_eq!(refs(&index, "WebpackLogger.log"), ["lib/comp.js:16 call"]);
    // (`x.time()` of an untyped `x` is a library name too: `console.time`.)
    assert_eq!(refs(&index, "WebpackLogger.time"), ["lib/comp.js:27 call"]);
    assert_eq!(refs(&index, "Chunk.addGroup"), ["lib/comp.js:17 call", "lib/comp.js:25 call", "lib/comp.js:30 call"]);
}

/// A call through a value typed as an interface (`IShape s; s.Area()`) is a
/// reference of the interface's method without doubt, and a possible
/// dispatch to each implementation (ambiguous there), in C#, Java, TS and Go.
#[test]
fn calls_through_an_interface_are_its_method_and_possible_dispatches() {
    let (_dir, index) = project_of(&[
        (
            "cs/a.cs",
            "interface IShape { double Area(); }\nclass Sq : IShape { public double Area() { return 1; } }\n\
             class Ci : IShape { public double Area() { return 2; } }\nclass U { double F(IShape s) { return s.Area(); } }\n",
        ),
        (
            "ts/a.ts",
            "export interface Shape { area(): number; }\nexport class Box implements Shape { area() { return 1; } }\n\
             export function f(s: Shape) { return s.area(); }\n",
        ),
        (
            "go/a.go",
            "package p\ntype Figure interface { Size() float64 }\ntype Dot struct{}\nfunc (d Dot) Size() float64 { return 1 }\n\
             func F(f Figure) float64 { return f.Size() }\n",
        ),
        (
            "java/A.java",
            "interface JShape { double area(); }\nclass JSq implements JShape { public double area() { return 1; } }\n\
             class JU { double f(JShape s) { return s.area(); } }\n",
        ),
    ]);
    assert_eq!(refs(&index, "IShape.Area"), ["cs/a.cs:4 call"]);
    assert_eq!(refs(&index, "Sq.Area"), ["cs/a.cs:4 call ambiguous"]);
    assert_eq!(refs(&index, "Ci.Area"), ["cs/a.cs:4 call ambiguous"]);
    assert_eq!(refs(&index, "Shape.area"), ["ts/a.ts:3 call"]);
    assert_eq!(refs(&index, "Box.area"), ["ts/a.ts:3 call ambiguous"]);
    assert_eq!(refs(&index, "Figure.Size"), ["go/a.go:5 call"]);
    assert_eq!(refs(&index, "Dot.Size"), ["go/a.go:5 call ambiguous"]);
    assert_eq!(refs(&index, "JShape.area"), ["java/A.java:3 call"]);
    assert_eq!(refs(&index, "JSq.area"), ["java/A.java:3 call ambiguous"]);
}

/// Importers to a depth answer the same read through the files naming an
/// import's words and through every file's imports (the graph a level with
/// thousands of candidates builds and the opened index keeps). Regression:
/// a Go module whose folder is `csi-translation-lib` had no importers (the
/// word looked up was the whole folder name, which no import holds as one
/// word).
#[test]
fn importers_through_words_and_through_every_import_agree_regression() {
    let (dir, index) = project_of(&[
        (
            "go.mod",
            "module example.com/shop\n\ngo 1.20\n\nrequire example.com/csi-translation-lib v0.0.0\n\n\
             replace example.com/csi-translation-lib => ./csi-translation-lib\n",
        ),
        ("csi-translation-lib/go.mod", "module example.com/csi-translation-lib\n\ngo 1.20\n"),
        ("csi-translation-lib/trans.go", "package csitrans\n\nfunc Translate() int { return 1 }\n"),
        (
            "store/store.go",
            "package store\n\nimport csitrans \"example.com/csi-translation-lib\"\n\nfunc Add() int { return csitrans.Translate() }\n",
        ),
        ("api/api.go", "package api\n\nimport \"example.com/shop/store\"\n\nfunc Serve() int { return store.Add() }\n"),
        ("cmd/main.go", "package main\n\nimport \"example.com/shop/api\"\n\nfunc main() { api.Serve() }\n"),
    ]);
    let show = |g: &Graph<'_>| -> Vec<String> {
        let mut v: Vec<String> = g
            .importers("csi-translation-lib/trans.go", 3)
            .unwrap()
            .into_iter()
            .map(|i| format!("{}:{} {}", i.file, i.line, i.depth))
            .collect();
        v.sort();
        v
    };
    let by_words = show(&Graph::new(&index));
    assert_eq!(by_words, ["api/api.go:3 2", "cmd/main.go:3 3", "store/store.go:3 1"]);
    let other = codegraph::project::Index::open(dir.path()).unwrap();
    assert_eq!(show(&Graph::new(&other).exhaustive()), by_words);
    // Kept by that index: a later question answers from it.
    assert_eq!(show(&Graph::new(&other)), by_words);
}

/// A member reached only through a subtype is a possible dispatch in
/// JavaScript (nothing checks the value's type) and on a library type in
/// TypeScript, and a member of an untyped value is as much a guess in the
/// file defining it as elsewhere. Regression: on webpack (scip-typescript as
/// the reference) `new Set()`'s `clear()` was `SortableSet.clear` without
/// doubt, and `this.hooks.evaluate.for(..)` in the parser's own file its
/// method `evaluate`.
#[test]
fn javascript_subtype_members_and_same_file_untyped_members_are_guesses_regression() {
    let (_dir, index) = project_of(&[
        (
            "lib/set.js",
            "class SortableSet extends Set {\n  clear() { return super.clear(); }\n}\nmodule.exports = SortableSet;\n",
        ),
        ("lib/use.js", "function f() {\n  const seen = new Set();\n  seen.clear();\n}\n"),
        (
            "lib/parser.js",
            "class Parser {\n  constructor() {\n    this.hooks = { evaluate: 1 };\n  }\n  evaluate(s) {\n    return this.hooks.evaluate;\n  }\n  run(p) {\n    return p.evaluate(2);\n  }\n}\n",
        ),
        (
            "src/set.ts",
            "export class Sorted extends Map<string, number> {\n  delete(k: string): boolean { return true; }\n}\n",
        ),
        ("src/use.ts", "export function g(): void {\n  const m = new Map<string, number>();\n  m.delete(\"a\");\n}\n"),
    ]);
    assert_eq!(refs(&index, "SortableSet.clear"), ["lib/use.js:3 call ambiguous"]);
    assert_eq!(refs(&index, "Sorted.delete"), ["src/use.ts:3 call ambiguous"]);
    // A method call of the project's own name in its file: the method; a
    // field read of the same name through an untyped chain: a guess.
    assert_eq!(
        refs(&index, "Parser.evaluate"),
        ["lib/parser.js:3 other ambiguous", "lib/parser.js:6 other ambiguous", "lib/parser.js:9 call"]
    );
}

/// A supertype is what the type's supertype reference binds to, within its
/// language family; subtypes are the types whose references bind to it.
/// Regression: `hierarchy` matched supertypes by name across the project, so
/// a Python `class A(B)` listed Java's `B` and PHP's `App\B` as supertypes,
/// and a method's overrides came from every type of that name.
#[test]
fn hierarchy_follows_what_supertype_references_bind_to_regression() {
    let (_dir, index) = project_of(&[
        ("py/base.py", "class B:\n    def run(self):\n        pass\n"),
        ("py/a.py", "from base import B\n\nclass A(B):\n    def run(self):\n        pass\n"),
        ("java/B.java", "public class B {\n  public void run() {}\n}\n"),
        ("java/C.java", "public class C extends B {\n  public void run() {}\n}\n"),
        ("php/B.php", "<?php\nnamespace App;\nclass B {\n  public function run() {}\n}\n"),
    ]);
    let g = Graph::new(&index);
    let show = |list: &[codegraph::graph::Related]| -> Vec<String> {
        list.iter().map(|r| r.symbol.as_ref().map_or(r.name.clone(), |s| format!("{}:{}", s.file, s.line))).collect()
    };
    let a = g.find("A").unwrap();
    let h = g.hierarchy(a[0]).unwrap();
    assert_eq!(show(&h.supertypes), ["py/base.py:1"]);
    let run = g.find("A.run").unwrap();
    let h = g.hierarchy(run[0]).unwrap();
    assert_eq!(show(&h.overrides), ["py/base.py:2"]);
    let b = g.find("java/B.java:1").unwrap();
    let h = g.hierarchy(b[0]).unwrap();
    assert_eq!(show(&h.subtypes), ["java/C.java:1"]);
    let b = g.find("py/base.py:1").unwrap();
    let h = g.hierarchy(b[0]).unwrap();
    assert_eq!(show(&h.subtypes), ["py/a.py:3"]);
    let run = g.find("py/base.py:2").unwrap();
    assert_eq!(show(&g.hierarchy(run[0]).unwrap().overridden_by), ["py/a.py:4"]);
    let b = g.find("php/B.php:3").unwrap();
    assert!(g.hierarchy(b[0]).unwrap().subtypes.is_empty());
}

/// A type takes no supertype from a namesake of another language.
/// Regression: the dashboard's card showed a C++ `class Invoice {}` (no base)
/// with the supertype `Adder`: Go's `Invoice` implements Go's `Adder` by its
/// methods, a Java `Invoice implements Adder`, and both were read by name.
#[test]
fn hierarchy_of_a_type_takes_nothing_from_another_languages_namesake_regression() {
    let (_dir, index) = project_of(&[
        ("cpp/store.hpp", "namespace shop {\nclass Invoice {\npublic:\n    void Add(int n);\n};\n}\n"),
        ("go/store.go", "package store\n\ntype Adder interface {\n\tAdd(n int)\n}\n"),
        ("go/invoice.go", "package store\n\ntype Invoice struct{}\n\nfunc (i *Invoice) Add(n int) {}\n"),
        ("java/Adder.java", "public interface Adder {\n  void add(int n);\n}\n"),
        ("java/Invoice.java", "public class Invoice implements Adder {\n  public void add(int n) {}\n}\n"),
    ]);
    let g = Graph::new(&index);
    let names = |symbol: &str| -> Vec<String> {
        let h = g.hierarchy(g.find(symbol).unwrap()[0]).unwrap();
        h.supertypes
            .iter()
            .map(|r| r.symbol.as_ref().map_or(r.name.clone(), |s| format!("{}:{}", s.file, s.line)))
            .collect()
    };
    assert!(names("cpp/store.hpp:2").is_empty(), "{:?}", names("cpp/store.hpp:2"));
    assert_eq!(names("go/invoice.go:3"), ["go/store.go:3"]);
    assert_eq!(names("java/Invoice.java:1"), ["java/Adder.java:1"]);
}

/// A name with hundreds of definitions (`main` in a compiler's test cases)
/// is looked up by qualified name through an index of its definitions by
/// qualifier, kept with them by the opened index: the answers are the ones
/// looking through every definition gives (`exhaustive`), and name the
/// definitions so qualified.
#[test]
fn a_qualified_name_among_hundreds_of_namesakes_finds_the_same_definitions() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..600 {
        let mut text = String::from("def main():\n    pass\n");
        if i % 3 == 0 {
            text.push_str(&format!("\n\nclass Runner{i}:\n    def main(self):\n        return main()\n"));
        }
        files.push((format!("tests/case_{i}.py"), text));
    }
    // Two files of one module name, in different folders.
    files.push(("a/dup.py".into(), "def main():\n    pass\n".into()));
    files.push(("b/dup.py".into(), "def main():\n    pass\n".into()));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_dir, index) = common::indexed_project(&refs);
    let mut symbols: Vec<String> = Vec::new();
    for i in (0..600).step_by(7) {
        symbols.push(format!("case_{i}.main"));
        symbols.push(format!("tests.case_{i}.main"));
        symbols.push(format!("Runner{i}.main"));
        symbols.push(format!("case_{i}.Runner{i}.main"));
    }
    symbols.extend(["dup.main", "a.dup.main", "nothing.main", "case_1.nothing.main"].map(String::from));
    let view = |g: &Graph, s: &str| -> Vec<String> {
        match g.find(s) {
            Ok(defs) => defs.into_iter().map(|d| format!("{:?}", g.view(d).unwrap())).collect(),
            Err(e) => vec![e.to_string()],
        }
    };
    for round in 0..2 {
        for s in &symbols {
            let indexed = view(&Graph::new(&index), s);
            let every = view(&Graph::new(&index).exhaustive(), s);
            assert_eq!(indexed, every, "{s}, round {round}");
        }
    }
    // What they name.
    let g = Graph::new(&index);
    let place = |s: &str| -> Vec<String> {
        g.find(s).unwrap().into_iter().map(|d| g.view(d).unwrap()).map(|v| format!("{}:{}", v.file, v.line)).collect()
    };
    assert_eq!(place("case_7.main"), ["tests/case_7.py:1"]);
    assert_eq!(place("Runner9.main"), ["tests/case_9.py:6"]);
    assert_eq!(place("dup.main"), ["a/dup.py:1", "b/dup.py:1"]);
    assert!(g.find("nothing.main").is_err());
}

/// Regression: in a file defining its own `EmailBackend`, `from .console
/// import EmailBackend as ConsoleEmailBackend` was listed as a reference of
/// the file's own class (an import's name resolved in the file first), and
/// `class EmailBackend(ConsoleEmailBackend)` as no reference at all (a
/// supertype written as an alias was not read as the name it imports). Both
/// are the imported module's.
#[test]
fn an_import_and_its_alias_are_the_imported_modules_in_a_file_defining_the_name_regression() {
    let (_dir, index) = common::indexed_project(&[
        (
            "pkg/console.py",
            "class EmailBackend:\n    def __init__(self, *args, **kwargs):\n        self.stream = None\n",
        ),
        (
            "pkg/filebased.py",
            "from pkg.console import EmailBackend as ConsoleEmailBackend\n\n\n\
             class EmailBackend(ConsoleEmailBackend):\n    pass\n\n\nbackend = EmailBackend()\n",
        ),
        (
            "web/store.ts",
            "import { Store as BaseStore } from './base';\n\nexport class Store extends BaseStore {}\n\
             export const s = new Store();\n",
        ),
        ("web/base.ts", "export class Store {\n  add(x: number) {}\n}\n"),
        // Two imports of one name under two aliases: each its module's.
        ("lib/one.py", "__all__ = ['a']\n"),
        ("lib/two.py", "__all__ = ['b']\n"),
        (
            "lib/__init__.py",
            "from lib.one import __all__ as one_all\nfrom lib.two import (\n    __all__ as two_all,\n)\n\n             __all__ = one_all + two_all\n",
        ),
        // Files defining their own `EmailBackend` and naming it plainly: the
        // name's reference files are listed (four files or more), and a file
        // defining its own is read only when it imports the name.
        ("other/a.py", "class EmailBackend:\n    pass\n\n\nEmailBackend()\n"),
        ("other/b.py", "class EmailBackend:\n    pass\n\n\nEmailBackend()\n"),
        ("other/c.py", "class EmailBackend:\n    pass\n\n\nEmailBackend()\n"),
    ]);
    assert_eq!(refs(&index, "console.EmailBackend"), ["pkg/filebased.py:1 import", "pkg/filebased.py:4 inherit"],);
    assert_eq!(refs(&index, "filebased.EmailBackend"), ["pkg/filebased.py:8 call"]);
    // The hierarchy: the namesake is the supertype, and the supertype's
    // subtype, never its own supertype.
    let g = Graph::new(&index);
    let related = |symbol: &str, up: bool| -> Vec<String> {
        let h = g.hierarchy(g.find(symbol).unwrap()[0]).unwrap();
        let list = if up { h.supertypes } else { h.subtypes };
        list.into_iter().map(|r| r.symbol.map_or(r.name, |v| format!("{}:{}", v.file, v.line))).collect()
    };
    assert_eq!(related("filebased.EmailBackend", true), ["pkg/console.py:1"]);
    assert_eq!(related("console.EmailBackend", false), ["pkg/filebased.py:4"]);
    assert!(related("console.EmailBackend", true).is_empty());
    assert!(related("filebased.EmailBackend", false).is_empty());
    assert!(related("a.EmailBackend", true).is_empty());
    assert_eq!(related("store.Store", true), ["web/base.ts:1"]);
    assert_eq!(related("base.Store", false), ["web/store.ts:3"]);
    assert_eq!(refs(&index, "one.__all__"), ["lib/__init__.py:1 import", "lib/__init__.py:6 other"]);
    assert_eq!(refs(&index, "two.__all__"), ["lib/__init__.py:3 import", "lib/__init__.py:6 other"]);
    let base = common_refs_of_file(&index, "web/base.ts", "Store");
    assert_eq!(base, ["web/store.ts:1 import", "web/store.ts:3 inherit"]);
    let own = common_refs_of_file(&index, "web/store.ts", "Store");
    assert_eq!(own, ["web/store.ts:4 call"]);
}

/// `file:line role` of the references to the definition `name` of `path`.
fn common_refs_of_file(index: &Index, path: &str, name: &str) -> Vec<String> {
    let g = Graph::new(index);
    let defs: Vec<_> = g.find(name).unwrap().into_iter().filter(|&d| g.view(d).unwrap().file == path).collect();
    assert_eq!(defs.len(), 1, "{path} {name}");
    g.refs(&defs, &[]).unwrap().into_iter().map(|r| format!("{}:{} {}", r.file, r.line, r.role)).collect()
}

/// A plain name in a method of Python, TypeScript, Rust or Go is never one of
/// its type's members (`def logout(self)` importing `logout` and calling it
/// called the method itself): only a function nested in the method around it
/// is, and code in the class body itself sees the class's names. Java's
/// implicit `this` still names them.
#[test]
fn a_plain_name_in_a_method_is_not_its_types_member_without_an_implicit_self_regression() {
    let (_dir, index) = common::indexed_project(&[
        ("auth.py", "def logout(request):\n    pass\n"),
        (
            "validate.py",
            "class Validator:\n    PATH = 'x'\n\n    def __init__(self, path=PATH):\n        self.path = PATH\n",
        ),
        (
            "client.py",
            "class Client:\n    def logout(self):\n        from auth import logout\n        logout(None)\n\n\
             \x20   def admin_view(self):\n        def inner():\n            return inner\n        return inner()\n\n\
             \x20   @property\n    def srid(self):\n        return 1\n\n    @srid.setter\n    def srid(self, v):\n        pass\n",
        ),
        ("util.ts", "export function helper(): number {\n  return 1;\n}\n"),
        (
            "box.ts",
            "import { helper } from './util';\n\nexport class Box {\n  helper(): number {\n    return 2;\n  }\n\
             \x20 size(): number {\n    return helper() + this.helper();\n  }\n}\n",
        ),
        (
            "src/lib.rs",
            "pub fn len() -> usize {\n    0\n}\n\npub struct S;\n\nimpl S {\n    pub fn len(&self) -> usize {\n        len()\n    }\n\n\
             \x20   pub fn twice(&self) -> usize {\n        self.len() + len()\n    }\n}\n",
        ),
        (
            "g/g.go",
            "package g\n\nfunc Close() {}\n\ntype T struct{}\n\nfunc (t *T) Close() {\n\tClose()\n}\n\nfunc (t *T) Stop() {\n\tt.Close()\n}\n",
        ),
        (
            "A.java",
            "class A {\n    void close() {}\n    void stop() {\n        close();\n    }\n}\n",
        ),
    ]);
    assert_eq!(refs(&index, "auth.logout"), ["client.py:3 import", "client.py:4 call"]);
    assert!(refs(&index, "client.Client.logout").is_empty());
    // A function nested in the method is the method's own.
    assert_eq!(refs(&index, "client.Client.inner"), ["client.py:8 other", "client.py:9 call"]);
    // The class body's decorator names the property.
    let srid: Vec<_> =
        refs(&index, "client.Client.srid").into_iter().filter(|r| r.starts_with("client.py:15")).collect();
    assert_eq!(srid.len(), 1, "{srid:?}");
    // A default value is the class body's; the method's body does not see it.
    assert_eq!(refs(&index, "validate.Validator.PATH"), ["validate.py:4 other"]);
    assert_eq!(refs(&index, "util.helper"), ["box.ts:1 import", "box.ts:8 call"]);
    assert_eq!(refs(&index, "box.Box.helper"), ["box.ts:8 call"]);
    assert_eq!(refs(&index, "S::len"), ["src/lib.rs:13 call"]);
    assert_eq!(qualified(&index, "len"), ["len", "S::len"]);
    assert_eq!(refs(&index, "len").into_iter().filter(|r| r.ends_with("call")).count(), 3);
    assert_eq!(refs(&index, "g.T.Close"), ["g/g.go:12 call"]);
    assert_eq!(refs(&index, "g.Close"), ["g/g.go:8 call"]);
    assert_eq!(refs(&index, "A.close"), ["A.java:4 call"]);
}

/// Python's `super(Base, self).m()` is a member of `Base`'s supertypes, not of
/// the enclosing class's (`super(FieldOperation, self).reduce(..)` in a
/// subclass of `FieldOperation` is `Operation.reduce`).
#[test]
fn python_super_naming_a_type_is_that_types_supertypes_regression() {
    let (_dir, index) = common::indexed_project(&[
        ("ops/base.py", "class Operation:\n    def reduce(self, other):\n        return False\n"),
        (
            "ops/fields.py",
            "from ops import base\nfrom ops.base import Operation\n\n\n\
             class FieldOperation(Operation):\n    def reduce(self, other):\n        return super().reduce(other)\n\n\n\
             class RenameField(FieldOperation):\n    def reduce(self, other):\n\
             \x20       return super(FieldOperation, self).reduce(other)\n\n\n\
             class AlterField(FieldOperation):\n    def reduce(self, other):\n        return super(AlterField, self).reduce(other)\n\n\n\
             class RemoveField(FieldOperation):\n    def reduce(self, other):\n        return super(self.__class__, self).reduce(other)\n",
        ),
    ]);
    assert_eq!(refs(&index, "base.Operation.reduce"), ["ops/fields.py:7 call", "ops/fields.py:12 call"]);
    assert_eq!(refs(&index, "fields.FieldOperation.reduce"), ["ops/fields.py:17 call", "ops/fields.py:22 call"]);
}

/// A call of a field holding a function (`self.func(value)` after `self.func
/// = func`, `this.onClose()`) is a reference of that field when the type and
/// its supertypes have no method of the name, however many other types do.
#[test]
fn a_call_of_a_field_holding_a_function_is_the_fields_regression() {
    let (_dir, index) = common::indexed_project(&[
        (
            "wrap.py",
            "class Wrapper:\n    def __init__(self, func):\n        self.func = func\n\n\
             \x20   def get(self, v):\n        return self.func(v)\n",
        ),
        ("other.py", "class Task:\n    def func(self):\n        pass\n"),
        (
            "panel.ts",
            "export class Panel {\n  onClose: () => void = () => {};\n  close() {\n    this.onClose();\n  }\n}\n",
        ),
        ("dialog.ts", "export class Dialog {\n  onClose() {}\n}\n"),
    ]);
    assert_eq!(refs(&index, "wrap.Wrapper.func"), ["wrap.py:6 call"]);
    assert!(refs(&index, "other.Task.func").is_empty());
    assert_eq!(refs(&index, "panel.Panel.onClose"), ["panel.ts:4 call"]);
    assert!(refs(&index, "dialog.Dialog.onClose").is_empty());
}

/// A member of a type written through an imported module (`geos.Point.empty()`
/// after `from gis import geos`, `ns.Store.create()` after `import * as ns`)
/// is that type's.
#[test]
fn a_member_of_a_type_named_through_an_imported_module_is_the_types_regression() {
    let (_dir, index) = common::indexed_project(&[
        ("gis/geos/__init__.py", "from gis.geos.point import Point\n"),
        ("gis/geos/point.py", "class Point:\n    @classmethod\n    def empty(cls):\n        return cls()\n"),
        ("gis/gdal.py", "from gis import geos\n\n\ndef make():\n    return geos.Point.empty()\n"),
        ("other.py", "class Line:\n    def empty(self):\n        pass\n"),
        ("web/store.ts", "export class Store {\n  static create(): Store {\n    return new Store();\n  }\n}\n"),
        ("web/main.ts", "import * as ns from './store';\n\nexport const s = ns.Store.create();\n"),
        ("web/other.ts", "export class Shop {\n  create() {}\n}\n"),
    ]);
    assert_eq!(refs(&index, "point.Point.empty"), ["gis/gdal.py:5 call"]);
    assert!(refs(&index, "other.Line.empty").is_empty());
    assert_eq!(refs(&index, "store.Store.create"), ["web/main.ts:3 call"]);
    assert!(refs(&index, "other.Shop.create").is_empty());
}

/// JSDoc typing the members of an options object (`@param {Logger=}
/// options.logger`) types the names its pattern binds (`constructor({ logger
/// } = {})`), and a field assigned one of them.
#[test]
fn javascript_documented_members_of_an_options_parameter_are_typed_regression() {
    let (_dir, index) = common::indexed_project(&[
        (
            "lib/logging/Logger.js",
            "class WebpackLogger {\n  debug(msg) {}\n}\n\nexports.Logger = WebpackLogger;\n",
        ),
        ("lib/Other.js", "class Console {\n  debug(msg) {}\n}\n\nmodule.exports = Console;\n"),
        (
            "lib/FileSystemInfo.js",
            "/** @typedef {import(\"./logging/Logger\").Logger} Logger */\n\n\
             class FileSystemInfo {\n  /**\n   * @param {Object} fs file system\n   * @param {Object} options options\n   \
             * @param {Logger=} options.logger a logger\n   */\n  constructor(fs, { logger, hashFunction = \"md4\" } = {}) {\n    \
             this.logger = logger;\n    logger.debug(\"made\");\n  }\n\n  check() {\n    this.logger.debug(\"checked\");\n  }\n}\n\n\
             module.exports = FileSystemInfo;\n",
        ),
    ]);
    let got = refs(&index, "Logger.WebpackLogger.debug");
    assert_eq!(got, ["lib/FileSystemInfo.js:11 call", "lib/FileSystemInfo.js:15 call"]);
    assert!(refs(&index, "Other.Console.debug").is_empty());
}
