fn main() {
    let path = std::env::args().nth(1).unwrap();
    let src = std::fs::read_to_string(&path).unwrap();
    let lang = codegraph::lang::Language::from_path(std::path::Path::new(&path)).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&lang.grammar(std::path::Path::new(&path))).unwrap();
    let t = p.parse(&src, None).unwrap();
    let mut c = t.walk();
    let mut depth = 0;
    loop {
        let n = c.node();
        println!(
            "{}{} {}{:?}-{:?}",
            "  ".repeat(depth),
            n.kind(),
            if n.is_named() { "" } else { "(anon) " },
            n.start_position(),
            n.end_position()
        );
        if c.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}
