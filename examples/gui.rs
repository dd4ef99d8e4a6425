//! Opens the hc11lab window without the CLI: `cargo run --example gui [PATH]`
//! (the `hc11lab` binary does the same for `hc11lab` and `hc11lab gui PATH`).

fn main() -> eframe::Result<()> {
    let input = match std::env::args_os().nth(1) {
        Some(p) => hc11lab::ui::AppInput::Path(p.into()),
        None => hc11lab::ui::AppInput::Bundled,
    };
    hc11lab::ui::run_app(input)
}
