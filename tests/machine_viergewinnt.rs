//! The bundled Viergewinnt firmware on the emulated trainer11: start screen,
//! wins in every direction for both players, locking after a win, reset,
//! full columns and the cursor's wrap-around, driven by key scripts as
//! `hc11lab run --keys` drives them.

#[path = "machine_support/connect4.rs"]
mod connect4;
#[path = "machine_support/viergewinnt.rs"]
mod viergewinnt;

use connect4::referee_after;
use viergewinnt::{check_golden, Cell, Game, COLS, ROWS};

/// Page 6 (pixel rows 48..56): the cursor, or the winner text after a win.
const PAGE6: std::ops::Range<usize> = 48..56;

fn golden_lines(name: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/lcd")
        .join(format!("{name}.txt"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The board column whose arrow is drawn on page 6, if exactly one is.
fn arrow_column(lcd: &[String]) -> Option<usize> {
    // The arrow's tip is two pixels wide on row 49, at columns 36 + 8c + 3, +4.
    let tip: Vec<usize> = lcd[49]
        .char_indices()
        .filter(|&(_, ch)| ch == '#')
        .map(|(x, _)| x)
        .collect();
    match tip.as_slice() {
        [a, b] if *b == a + 1 && *a >= 39 && (a - 39) % 8 == 0 => Some((a - 39) / 8),
        _ => None,
    }
}

#[test]
fn start_screen() {
    let g = Game::boot();
    let lcd = g.lcd();
    check_golden("start", &lcd);
    assert_eq!(g.player(), 1);
    assert_eq!(g.won(), 0);
    assert_eq!(g.cursor(), 3, "cursor under the middle column");
    assert_eq!(arrow_column(&lcd), Some(3));
    assert!(g.cells().iter().flatten().all(|&c| c == Cell::Empty));
    assert_eq!(g.m.serial_text(), "\x0c", "initGame clears the terminal");
    assert!(g.m.lcd().backlight(), "initLCD switches the backlight on");
    assert!(g.m.lcd().unknown_commands().is_empty());
    // The grid spans LCD columns 36..=91: the top border of row 0 is row 0.
    assert_eq!(&lcd[0][36..92], "#".repeat(56));
    assert_eq!(&lcd[0][..36], ".".repeat(36));
    assert_eq!(&lcd[0][92..], ".".repeat(36));
}

/// Plays `moves`, checking after each one that the firmware agrees with the
/// referee, and expects `winner` to have won with the last move.
fn play_to_win(moves: &[usize], winner: u8) -> Game {
    let mut g = Game::boot();
    for (i, &col) in moves.iter().enumerate() {
        g.play(col);
        let r = referee_after(&moves[..=i]);
        assert_eq!(g.cells(), r.cells, "buffer after move {i} (column {col})");
        if i + 1 < moves.len() {
            assert_eq!(r.winner, None, "test sequence wins too early");
            assert_eq!(g.won(), 0, "no win yet after move {i}");
            assert_eq!(g.player(), r.to_move);
        }
    }
    assert_eq!(referee_after(moves).winner, Some(winner), "referee");
    assert_eq!(g.won(), 1, "playerWonFlag");
    assert_eq!(g.player(), winner, "player stays the winner");
    g
}

fn assert_winner_text(g: &Game, winner: u8) {
    let lcd = g.lcd();
    let golden = golden_lines(&format!("win_player{winner}"));
    assert_eq!(
        &lcd[PAGE6], &golden[PAGE6],
        "page 6 shows \"Player {winner} won\" under the board"
    );
    // "Turn:" and "Player" left of the board are gone after a win.
    assert!(lcd[..16]
        .iter()
        .all(|row| row[..36].chars().all(|c| c == '.')));
}

#[test]
fn player1_wins_vertically() {
    let g = play_to_win(&[0, 1, 0, 1, 0, 1, 0], 1);
    check_golden("win_player1", &g.lcd());
    assert_winner_text(&g, 1);
}

#[test]
fn player2_wins_vertically() {
    let g = play_to_win(&[0, 1, 0, 1, 0, 1, 2, 1], 2);
    check_golden("win_player2", &g.lcd());
    assert_winner_text(&g, 2);
}

#[test]
fn player1_wins_horizontally() {
    let g = play_to_win(&[0, 0, 1, 1, 2, 2, 3], 1);
    assert_winner_text(&g, 1);
}

#[test]
fn player1_wins_horizontally_closing_a_gap() {
    let g = play_to_win(&[0, 0, 1, 1, 3, 3, 2], 1);
    assert_winner_text(&g, 1);
}

#[test]
fn player2_wins_horizontally() {
    let g = play_to_win(&[6, 0, 6, 1, 5, 2, 4, 3], 2);
    assert_winner_text(&g, 2);
}

/// Player 1 up-right ("/"): (0,5) (1,4) (2,3) (3,2).
const DIAG_UP_RIGHT: [usize; 11] = [0, 1, 1, 2, 3, 2, 2, 3, 6, 3, 3];

fn mirrored(moves: &[usize]) -> Vec<usize> {
    moves.iter().map(|c| COLS - 1 - c).collect()
}

#[test]
fn player1_wins_diagonally_up_right() {
    let g = play_to_win(&DIAG_UP_RIGHT, 1);
    assert_winner_text(&g, 1);
}

#[test]
fn player1_wins_diagonally_up_left() {
    let g = play_to_win(&mirrored(&DIAG_UP_RIGHT), 1);
    assert_winner_text(&g, 1);
}

#[test]
fn player2_wins_diagonally_up_right() {
    let mut moves = vec![6];
    moves.extend(DIAG_UP_RIGHT);
    let g = play_to_win(&moves, 2);
    assert_winner_text(&g, 2);
}

#[test]
fn player2_wins_diagonally_up_left() {
    let mut moves = vec![6];
    moves.extend(DIAG_UP_RIGHT);
    let g = play_to_win(&mirrored(&moves), 2);
    assert_winner_text(&g, 2);
}

#[test]
fn after_a_win_only_reset_works() {
    let mut g = play_to_win(&[0, 1, 0, 1, 0, 1, 0], 1);
    let lcd = g.lcd();
    let cells = g.cells();
    let cursor = g.cursor();
    g.keys("left,drop,right,right,drop,2,5,6,7");
    assert_eq!(g.lcd(), lcd, "picture unchanged");
    assert_eq!(g.cells(), cells, "buffer unchanged");
    assert_eq!(g.cursor(), cursor, "cursor unchanged");
    assert_eq!((g.won(), g.player()), (1, 1));
    g.keys("reset");
    check_golden("start", &g.lcd());
    assert_eq!((g.won(), g.player(), g.cursor()), (0, 1, 3));
    assert!(g.cells().iter().flatten().all(|&c| c == Cell::Empty));
    assert_eq!(g.m.serial_text(), "\x0c\x0c", "one form feed per initGame");
}

#[test]
fn reset_mid_game() {
    let mut g = Game::boot();
    g.play(2);
    g.play(4);
    g.play(2);
    g.keys("right,right");
    assert_eq!(g.player(), 2);
    g.keys("reset");
    check_golden("start", &g.lcd());
    assert_eq!((g.won(), g.player(), g.cursor()), (0, 1, 3));
    assert!(g.cells().iter().flatten().all(|&c| c == Cell::Empty));
}

/// Flaw F6 (RECONSTRUCTION.md): a drop into a full column redraws the board
/// and changes nothing else: no stone, no player change, no message.
#[test]
fn full_column_takes_no_stone() {
    let mut g = Game::boot();
    for _ in 0..ROWS {
        g.play(3);
    }
    assert_eq!(g.won(), 0, "alternating stones make no four");
    assert_eq!(g.player(), 1);
    let lcd = g.lcd();
    let cells = g.cells();
    let drawn = g.m.lcd().data_count();
    g.keys("drop");
    assert_eq!(g.cells(), cells);
    assert_eq!(g.player(), 1, "the player does not change");
    assert_eq!(g.lcd(), lcd);
    // The whole board went to the LCD again: 42 cells x 8 data bytes.
    assert_eq!(g.m.lcd().data_count() - drawn, 336);
    g.play(2);
    assert_eq!(g.player(), 2, "an open column still works");
    assert_eq!(g.cells()[ROWS - 1][2], Cell::P1);
}

#[test]
fn cursor_wraps_at_both_edges() {
    let mut g = Game::boot();
    g.keys("left,left,left");
    assert_eq!(g.cursor(), 0);
    assert_eq!(arrow_column(&g.lcd()), Some(0));
    g.keys("left");
    assert_eq!(g.cursor(), 6, "left of column 0 is column 6");
    assert_eq!(arrow_column(&g.lcd()), Some(6));
    g.keys("right");
    assert_eq!(g.cursor(), 0, "right of column 6 is column 0");
    assert_eq!(arrow_column(&g.lcd()), Some(0));
    g.keys("right,right,right,right,right,right,right");
    assert_eq!(g.cursor(), 0, "seven steps go round once");
    assert_eq!(arrow_column(&g.lcd()), Some(0));
    // The cursor keys never change the buffer or the player.
    assert!(g.cells().iter().flatten().all(|&c| c == Cell::Empty));
    assert_eq!(g.player(), 1);
}

/// `wait:Nms` and taps go through the same machine path as `run --keys`.
#[test]
fn keys_other_than_the_four_do_nothing() {
    let mut g = Game::boot();
    let lcd = g.lcd();
    g.keys("2,5,6,7,wait:5ms");
    assert_eq!(g.lcd(), lcd);
    assert_eq!((g.player(), g.cursor()), (1, 3));
}

/// The PNG of the start screen shows the same pixels as the text picture,
/// in the panel's colours (dark pixels on the lit background).
#[test]
fn start_screen_png_matches_text() {
    use hc11lab::board::render::{lcd_png, LIT_BACKGROUND, LIT_PIXEL};
    let g = Game::boot();
    let scale = 3;
    let bytes = lcd_png(g.m.lcd(), scale).expect("png");
    if let Ok(dir) = std::env::var("HC11LAB_PNG_OUT") {
        std::fs::write(std::path::Path::new(&dir).join("start.png"), &bytes).expect("write");
    }
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    assert_eq!((info.width, info.height), (128 * scale, 64 * scale));
    let text = g.lcd();
    let width = info.width as usize;
    for (y, row) in text.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            for (dy, dx) in [(0, 0), (2, 2)] {
                let i = ((y * 3 + dy) * width + x * 3 + dx) * 3;
                let want = if ch == '#' { LIT_PIXEL } else { LIT_BACKGROUND };
                assert_eq!(buf[i..i + 3], want, "pixel ({x}, {y})");
            }
        }
    }
}
