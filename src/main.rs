//! The `hc11lab` command line: argument handling only; all logic lives in the library.

fn main() {
    println!("hc11lab {}", env!("CARGO_PKG_VERSION"));
}
