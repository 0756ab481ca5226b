//! Did-you-mean hints: the close name to offer when a name is unknown. Shared by the
//! parser (shorthands) and the checker (variables, programs, copies, functions).

/// The candidate closest to `name` by edit distance, if close enough to be a typo.
pub fn suggest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    // One-letter names are all one edit apart: suggesting among them would be noise,
    // except for a different case (`H` for `h`).
    let len = name.chars().count();
    let limit = if len <= 1 { 0 } else { (len / 3).max(1) };
    candidates
        .filter(|c| *c != name)
        .map(|c| {
            let d = if c.eq_ignore_ascii_case(name) { 0 } else { edit_distance(name, c) };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// Edit distance with adjacent transpositions counted as one edit (`hihg` → `high`).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_only() {
        let names = ["high", "h", "low"];
        assert_eq!(suggest("hihg", names.into_iter()), Some("high"));
        assert_eq!(suggest("H", names.into_iter()), Some("h"));
        assert_eq!(suggest("x", names.into_iter()), None);
    }
}
