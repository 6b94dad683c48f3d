//! The browser hooks the components use, one per file, each owning its cleanup: animation frames
//! ([`raf`]), a media query ([`media`]), the page's visibility ([`visibility`]), an element's
//! place in the viewport ([`in_view`]) and the first painted frame ([`settled`]).

pub mod in_view;
pub mod media;
pub mod raf;
pub mod settled;
pub mod visibility;
