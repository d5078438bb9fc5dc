//! "Did you mean ...?" for misspelled opcodes, modifiers, names and
//! binding members.

/// Edit distance between two short strings (Levenshtein, case-sensitive;
/// a case-only difference costs one edit in total).
fn distance(a: &str, b: &str) -> usize {
    if a.eq_ignore_ascii_case(b) {
        return usize::from(a != b);
    }
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(!ca.eq_ignore_ascii_case(&cb));
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest candidate, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|&(d, c)| d <= limit && c != word)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(did_you_mean("MOVV", ["MOV", "MUL"]), Some("MOV"));
        assert_eq!(
            did_you_mean("texcord", ["texcoord", "color"]),
            Some("texcoord")
        );
        assert_eq!(did_you_mean("mov", ["MOV"]), Some("MOV"));
        assert_eq!(did_you_mean("XYZ", ["MOV"]), None);
    }
}
