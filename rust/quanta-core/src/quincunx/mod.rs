pub mod cards;
pub mod scoring;

/// The name of `cell` on a grid of side `side`: column letter, then row number from the top.
pub fn cell_name(cell: usize, side: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (cell % side) as u8) as char,
        cell / side + 1
    )
}
