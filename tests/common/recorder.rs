//! A plotters backend that records what is drawn (colours, fills, texts) instead of rasterising
//! it, for native tests of the charts.
#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};

/// One stroke or fill, by colour.
#[derive(Debug)]
pub struct Mark {
    pub rgb: (u8, u8, u8),
    pub alpha: f64,
    pub filled: bool,
}

/// What a [`Recorder`] saw.
#[derive(Default)]
pub struct Drawn {
    pub marks: Vec<Mark>,
    pub texts: Vec<String>,
}

/// A backend that records what is drawn instead of rasterising it.
#[derive(Default)]
pub struct Recorder(pub Rc<RefCell<Drawn>>);

impl Recorder {
    fn mark(&self, s: &impl BackendStyle, filled: bool) {
        let color = s.color();
        self.0.borrow_mut().marks.push(Mark { rgb: color.rgb, alpha: color.alpha, filled });
    }
}

impl DrawingBackend for Recorder {
    type ErrorType = std::fmt::Error;

    fn get_size(&self) -> (u32, u32) {
        (800, 400)
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn draw_pixel(&mut self, _: BackendCoord, _: BackendColor) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.mark(s, false);
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.mark(s, fill);
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.mark(s, false);
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.mark(s, true);
        Ok(())
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        _: &T,
        _: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.borrow_mut().texts.push(text.to_string());
        Ok(())
    }
}

/// Runs `draw` on a fresh 800×400 recording area and returns what it drew.
pub fn record(draw: impl FnOnce(&DrawingArea<Recorder, Shift>)) -> Drawn {
    let drawn = Rc::new(RefCell::new(Drawn::default()));
    let root = Recorder(Rc::clone(&drawn)).into_drawing_area();
    draw(&root);
    drop(root);
    Rc::try_unwrap(drawn).ok().expect("the drawing area is gone").into_inner()
}

/// The `(r, g, b)` of a plotters colour, as marks store it.
pub fn rgb(c: plotters::style::RGBColor) -> (u8, u8, u8) {
    (c.0, c.1, c.2)
}

impl Drawn {
    /// Strokes (not fills) in `colour` at full opacity.
    pub fn strokes(&self, colour: plotters::style::RGBColor) -> usize {
        self.marks.iter().filter(|m| m.rgb == rgb(colour) && !m.filled && m.alpha == 1.0).count()
    }

    /// Whether `text` was drawn.
    pub fn has_text(&self, text: &str) -> bool {
        self.texts.iter().any(|t| t == text)
    }
}
