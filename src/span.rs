//! Byte ranges into the source text: where diagnostics, IR nodes and
//! reflection point in the program.
//!
//! ```
//! let source = "!!NVfp4.0\nMOVV result.color, 1;\nEND\n";
//! let errors = nvp4c::compile(source, &nvp4c::Options::default()).unwrap_err();
//! let span = errors.iter().next().unwrap().primary_span().unwrap();
//! assert_eq!(&source[span.range()], "MOVV");
//! ```

/// A half-open byte range `start..end` into the program source.
///
/// ```
/// use nvp4c::span::Span;
/// let span = Span::new(10, 14);
/// assert_eq!((span.start, span.end), (10, 14));
/// assert_eq!(&"!!NVfp4.0\nMOVV result.color, 1;"[span.range()], "MOVV");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The range `start..end` (byte offsets, stored as `u32`).
    ///
    /// ```
    /// let span = nvp4c::span::Span::new(3, 7);
    /// assert_eq!(span.range(), 3..7);
    /// ```
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both `self` and `other`.
    ///
    /// ```
    /// use nvp4c::span::Span;
    /// assert_eq!(Span::new(3, 7).to(Span::new(10, 12)), Span::new(3, 12));
    /// ```
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    /// The span as a range, to index the source text.
    ///
    /// ```
    /// use nvp4c::span::Span;
    /// assert_eq!(&"MOV R0, R1;"[Span::new(4, 6).range()], "R0");
    /// ```
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}
