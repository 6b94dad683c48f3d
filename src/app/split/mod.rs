//! The page split into modules: what the first modules show in place of what only the whole
//! page draws ([`stand_in`]), and the hand-over to the whole page's module ([`whole_page`]).

pub mod stand_in;
pub mod whole_page;
