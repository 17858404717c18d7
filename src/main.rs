//! The `flinklint` binary: a thin shell over the library.

fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = flinklint::syntax::parse(&text);
    for e in &parsed.errors {
        println!("{:?} {:?} {}", e.span, e.kind, e.message);
    }
    println!("{} statements", parsed.script.statements.len());
}
