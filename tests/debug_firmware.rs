//! The debugger on the bundled Viergewinnt firmware: breakpoints on labels
//! with conditions, provenance of LCD pixels (a stone, the "Turn:" text),
//! the profile, and exact reverse execution across a game.

use hc11lab::asm::{assemble_file, AsmOptions};
use hc11lab::debug::session::{Debugger, Reason};
use hc11lab::debug::target::Target;
use hc11lab::image::Program;
use hc11lab::machine::Machine;
use hc11lab::script::Script;
use std::path::Path;

fn firmware() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm");
    let asm = assemble_file(&path, &AsmOptions::default());
    let diags = asm.render_diagnostics();
    asm.program.unwrap_or_else(|| panic!("{diags}"))
}

fn debugger(keys: &str) -> Debugger<Machine> {
    let m = Machine::new(firmware()).expect("loads");
    let mut d = Debugger::new(m);
    let script = Script::parse_keys(keys).expect("keys");
    d.target_mut().start_script(&script);
    d
}

#[test]
fn explore() {
    let mut d = debugger("drop");
    d.set_provenance(true);
    let s = d.run();
    println!("{}", s.message);
    for row in d.target().lcd_text() {
        println!("{row}");
    }
    for (x, y) in [(63usize, 43usize), (2, 2), (60, 60)] {
        match d.explain_pixel(x, y) {
            Ok(e) => println!("{}", e.to_text()),
            Err(e) => println!("{e}"),
        }
    }
    println!("{}", d.profile().to_text());
}
