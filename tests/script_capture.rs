//! A key script can keep the LCD as it was before one of its actions
//! (`Machine::capture_lcd_before`, what a grader's `lcd = "unchanged"`
//! compares with) without changing the run.

use hc11lab::grade::engine::{frame_of, frame_of_lcd};
use hc11lab::machine::{Machine, StopConditions, StopReason};
use hc11lab::script::Script;

fn booted() -> Machine {
    let program = hc11lab::firmware::program().expect("bundled firmware assembles");
    let mut m = Machine::new(program.clone()).expect("loads");
    m.start_script(&Script::parse_keys("").expect("keys"));
    assert_eq!(
        m.run_until(&StopConditions::budget(20_000_000)),
        StopReason::Settled
    );
    m
}

fn play(m: &mut Machine, keys: &str, capture: &[usize]) {
    m.start_script(&Script::parse_keys(keys).expect("keys"));
    m.capture_lcd_before(capture);
    assert_eq!(
        m.run_until(&StopConditions::budget(50_000_000)),
        StopReason::Settled
    );
}

#[test]
fn the_screen_before_an_action_is_kept_and_the_run_is_the_same() {
    let mut plain = booted();
    let mut kept = plain.clone();
    play(&mut plain, "drop,left,left,drop", &[]);
    play(&mut kept, "drop,left,left,drop", &[2, 3]);
    let captures = kept.take_lcd_captures();
    assert_eq!(kept, plain, "capturing changed the run");
    assert_eq!(
        captures.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        vec![2, 3]
    );
    // Before action 2: what "drop,left" left on the screen.
    let mut two = booted();
    play(&mut two, "drop,left", &[]);
    assert_eq!(
        frame_of_lcd(&captures[0].1),
        frame_of(&two),
        "the screen before action 2"
    );
    assert_eq!(&captures[0].1, two.lcd(), "the controller before action 2");
    assert_ne!(
        frame_of_lcd(&captures[1].1),
        frame_of_lcd(&captures[0].1),
        "the cursor moved between the two"
    );
    // A new script forgets the old one's captures.
    play(&mut kept, "right", &[]);
    assert!(kept.take_lcd_captures().is_empty());
}
