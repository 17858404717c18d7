//! Natural order of names and paths, as a person sorts files: runs of digits compare by their
//! value (`V2__x.sql` before `V11__y.sql`, `a2` before `a10`), everything else byte by byte.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::path::{Component, Path};

/// Compares two names in natural order: runs of ASCII digits by value (however long: they are
/// compared as digit strings, never parsed), every other byte by its value (for UTF-8 text,
/// the order of the code points). Names equal in that order (`01` and `1`) are ordered by
/// their bytes, so the order is total and only equal strings compare equal.
pub fn cmp(a: &str, b: &str) -> Ordering {
    cmp_values(a.as_bytes(), b.as_bytes()).then_with(|| a.cmp(b))
}

/// [`cmp`] without the final tie-break by bytes.
fn cmp_values(mut a: &[u8], mut b: &[u8]) -> Ordering {
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (run_a, rest_a) = split_digits(a);
                let (run_b, rest_b) = split_digits(b);
                let (va, vb) = (trim_zeros(run_a), trim_zeros(run_b));
                let order = va.len().cmp(&vb.len()).then_with(|| va.cmp(vb));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (rest_a, rest_b);
            }
            (Some(x), Some(y)) => {
                // A digit against another byte: every other byte sorts wholly below or wholly
                // above the digits, so comparing the first bytes keeps the order consistent.
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits
        .iter()
        .position(|&c| c != b'0')
        .unwrap_or(digits.len());
    &digits[start..]
}

/// Compares two paths component by component, each in natural order ([`cmp`]); a path that is
/// a prefix of the other comes first (a folder before what it holds).
pub fn cmp_paths(a: &Path, b: &Path) -> Ordering {
    cmp_components(&components(a), &components(b))
}

/// The components of a path as text, for [`cmp_components`].
pub fn components(path: &Path) -> Vec<Cow<'_, str>> {
    path.components()
        .map(|c: Component<'_>| c.as_os_str().to_string_lossy())
        .collect()
}

/// [`cmp_paths`] on paths already split by [`components`].
pub fn cmp_components<S: AsRef<str>>(a: &[S], b: &[S]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match cmp(x.as_ref(), y.as_ref()) {
            Ordering::Equal => {}
            order => return order,
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_runs_compare_by_value() {
        let mut names = vec![
            "V11__y.sql",
            "V2__x.sql",
            "a10",
            "a2",
            "a",
            "b1",
            "V1.10__z.sql",
            "V1.9__z.sql",
            "x007",
            "x7",
            "x0",
        ];
        names.sort_by(|a, b| cmp(a, b));
        assert_eq!(
            names,
            [
                "V1.9__z.sql",
                "V1.10__z.sql",
                "V2__x.sql",
                "V11__y.sql",
                "a",
                "a2",
                "a10",
                "b1",
                "x0",
                "x007",
                "x7",
            ]
        );
    }

    #[test]
    fn long_digit_runs_do_not_overflow() {
        let big = format!("v{}", "9".repeat(40));
        let bigger = format!("v1{}", "0".repeat(40));
        assert_eq!(cmp(&big, &bigger), Ordering::Less);
        assert_eq!(cmp(&bigger, &big), Ordering::Greater);
    }

    #[test]
    fn the_order_is_total_on_tricky_names() {
        // Digits against the bytes just below and above them, leading zeros, empty names.
        let names = [
            "", "/", "0", "00", "1", "01", "9", "10", ":", "a", "a/", "a0", "a00", "a1", "a:",
            "é2", "é10", "_1", "-1",
        ];
        for x in names {
            assert_eq!(cmp(x, x), Ordering::Equal);
            for y in names {
                assert_eq!(cmp(x, y), cmp(y, x).reverse(), "{x:?} {y:?}");
                if x != y {
                    assert_ne!(cmp(x, y), Ordering::Equal, "{x:?} {y:?}");
                }
                for z in names {
                    if cmp(x, y).is_lt() && cmp(y, z).is_lt() {
                        assert!(cmp(x, z).is_lt(), "{x:?} {y:?} {z:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn paths_compare_by_component() {
        let mut paths = vec![
            "b/x.sql",
            "a10/x.sql",
            "a2/y.sql",
            "a2/x10.sql",
            "a2/x9.sql",
            "a2",
        ];
        paths.sort_by(|a, b| cmp_paths(Path::new(a), Path::new(b)));
        assert_eq!(
            paths,
            [
                "a2",
                "a2/x9.sql",
                "a2/x10.sql",
                "a2/y.sql",
                "a10/x.sql",
                "b/x.sql"
            ]
        );
    }
}
