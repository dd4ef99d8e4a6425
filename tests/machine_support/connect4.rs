//! A plain Connect-4 referee (manual 1.2: 7 columns x 6 rows, stones fall to
//! the lowest free place, four or more in a row horizontally, vertically or
//! diagonally win, a full board without four is a draw), written from the
//! rules, not from the firmware.
#![allow(dead_code)]

use super::viergewinnt::{Cell, COLS, ROWS};

/// The referee's view of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Referee {
    /// `[row][col]`, row 0 on top.
    pub cells: [[Cell; COLS]; ROWS],
    /// Whose turn: 1 or 2.
    pub to_move: u8,
    /// The winner, once there is one.
    pub winner: Option<u8>,
    /// Stones on the board.
    pub stones: usize,
}

/// What a drop did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The stone landed in `row`; the game goes on.
    Placed { row: usize },
    /// The stone landed in `row` and made four.
    Won { row: usize },
    /// The stone landed in `row`, filling the board without a four.
    Draw { row: usize },
    /// The column is full: no stone, same player.
    ColumnFull,
    /// The game is over: nothing happens.
    GameOver,
}

impl Default for Referee {
    fn default() -> Self {
        Referee {
            cells: [[Cell::Empty; COLS]; ROWS],
            to_move: 1,
            winner: None,
            stones: 0,
        }
    }
}

impl Referee {
    /// True once someone won or the board is full.
    pub fn over(&self) -> bool {
        self.winner.is_some() || self.stones == COLS * ROWS
    }

    /// True if `col` has room.
    pub fn has_room(&self, col: usize) -> bool {
        self.cells[0][col] == Cell::Empty
    }

    /// Drops a stone of the player to move into `col`.
    pub fn drop(&mut self, col: usize) -> Outcome {
        if self.over() {
            return Outcome::GameOver;
        }
        let Some(row) = (0..ROWS).rev().find(|&r| self.cells[r][col] == Cell::Empty) else {
            return Outcome::ColumnFull;
        };
        let me = if self.to_move == 1 {
            Cell::P1
        } else {
            Cell::P2
        };
        self.cells[row][col] = me;
        self.stones += 1;
        if self.line_through(row, col) >= 4 {
            self.winner = Some(self.to_move);
            return Outcome::Won { row };
        }
        self.to_move = 3 - self.to_move;
        if self.stones == COLS * ROWS {
            Outcome::Draw { row }
        } else {
            Outcome::Placed { row }
        }
    }

    /// The longest run of the stone at (row, col)'s owner through it.
    fn line_through(&self, row: usize, col: usize) -> usize {
        let me = self.cells[row][col];
        let count = |dr: isize, dc: isize| {
            let mut n = 0;
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while (0..ROWS as isize).contains(&r)
                && (0..COLS as isize).contains(&c)
                && self.cells[r as usize][c as usize] == me
            {
                n += 1;
                r += dr;
                c += dc;
            }
            n
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dr, dc)| 1 + count(dr, dc) + count(-dr, -dc))
            .max()
            .unwrap_or(1)
    }
}

/// Plays `moves` from the start and returns the referee.
pub fn referee_after(moves: &[usize]) -> Referee {
    let mut r = Referee::default();
    for &c in moves {
        r.drop(c);
    }
    r
}
