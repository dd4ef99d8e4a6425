use hc11lab::asm::*;
use std::path::Path;
#[test]
fn fw() {
    let dir = std::env::var("FW").unwrap_or("/work/wt/firmware/firmware".into());
    let a = assemble_file(
        &Path::new(&dir).join("Viergewinnt.asm"),
        &AsmOptions::default(),
    );
    println!("{}", a.render_diagnostics());
    std::fs::write("/tmp/scratch/fw.lst", listing(&a)).unwrap();
    if let Some(p) = &a.program {
        std::fs::write("/tmp/scratch/fw.dis", disassemble(p)).unwrap();
        std::fs::write("/tmp/scratch/fw.sym", symbol_file(p)).unwrap();
        for s in &p.segments {
            println!("{:?} {:04X} {}", s.name, s.start, s.bytes.len());
        }
        println!("entry {:04X?}", p.entry);
        let rom = p.segments.iter().find(|s| s.start == 0xC000).unwrap();
        std::fs::write("/tmp/scratch/rom.bin", &rom.bytes).unwrap();
    }
}
#[test]
fn render_errors() {
    let text = std::fs::read_to_string("tests/asm/errors.asm").unwrap();
    let a = assemble_source("errors.asm", &text, &AsmOptions::default());
    std::fs::write("/tmp/scratch/errors.txt", a.render_diagnostics()).unwrap();
}
