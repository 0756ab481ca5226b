//! Byte offsets ↔ LSP positions. LSP counts lines from 0 and columns in UTF-16 code
//! units (the protocol's default encoding); the front end's spans are byte ranges.

use lsp_types::{Position, Range};

/// Line starts of one document, for converting in both directions.
pub struct LineMap<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineMap<'a> {
    pub fn new(text: &'a str) -> LineMap<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineMap { text, starts }
    }

    /// The position of byte `offset` (clamped to the text and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[self.starts[line]..offset].chars().map(char::len_utf16).sum();
        Position { line: line as u32, character: col as u32 }
    }

    pub fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range { start: self.position(span.start), end: self.position(span.end.max(span.start)) }
    }

    /// The byte offset of `pos` (past the line's end: the line's end; past the last
    /// line: the text's end). A column inside a surrogate pair rounds down.
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return self.text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(self.text.len(), |&e| e - 1);
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            if units + c.len_utf16() as u32 > pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit; `𝑥` is 4 bytes and 2 units (a surrogate pair).
        let text = "ab\né𝑥 = 1;\n";
        let map = LineMap::new(text);
        assert_eq!(map.position(0), Position::new(0, 0));
        assert_eq!(map.position(3), Position::new(1, 0));
        let x = text.find('𝑥').unwrap();
        assert_eq!(map.position(x), Position::new(1, 1));
        assert_eq!(map.position(x + 4), Position::new(1, 3));
        assert_eq!(map.offset(Position::new(1, 3)), x + 4);
        assert_eq!(map.offset(Position::new(1, 1)), x);
        assert_eq!(map.offset(Position::new(0, 99)), 2);
        assert_eq!(map.offset(Position::new(9, 0)), text.len());
    }
}
