//! The parts of a dotted name without a heap allocation for the common one-part name.

use super::Ident;
use serde::Serialize;

/// The parts of an [`ObjectName`](super::ObjectName), outermost first: one part is held
/// inline (most names: columns, tables of the current database), more in a vector. Reads as
/// a slice of [`Ident`]s (`parts.len()`, `parts[0]`, `parts.iter()`, `parts.as_slice()`);
/// serialized and debug-printed as a list, as a `Vec` is.
#[derive(Clone)]
pub struct NameParts(Repr);

#[derive(Clone)]
enum Repr {
    One(Ident),
    Many(Vec<Ident>),
}

impl NameParts {
    /// A name of one part.
    pub fn one(part: Ident) -> NameParts {
        NameParts(Repr::One(part))
    }
    /// The parts as a slice.
    pub fn as_slice(&self) -> &[Ident] {
        match &self.0 {
            Repr::One(part) => std::slice::from_ref(part),
            Repr::Many(parts) => parts,
        }
    }
    /// The parts as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [Ident] {
        match &mut self.0 {
            Repr::One(part) => std::slice::from_mut(part),
            Repr::Many(parts) => parts,
        }
    }
    /// The parts in a vector.
    pub fn into_vec(self) -> Vec<Ident> {
        match self.0 {
            Repr::One(part) => vec![part],
            Repr::Many(parts) => parts,
        }
    }
}

impl From<Vec<Ident>> for NameParts {
    fn from(mut parts: Vec<Ident>) -> NameParts {
        if parts.len() == 1 {
            if let Some(part) = parts.pop() {
                return NameParts::one(part);
            }
        }
        NameParts(Repr::Many(parts))
    }
}

impl std::ops::Deref for NameParts {
    type Target = [Ident];
    fn deref(&self) -> &[Ident] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for NameParts {
    fn deref_mut(&mut self) -> &mut [Ident] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a NameParts {
    type Item = &'a Ident;
    type IntoIter = std::slice::Iter<'a, Ident>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for NameParts {
    type Item = Ident;
    type IntoIter = std::vec::IntoIter<Ident>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl std::fmt::Debug for NameParts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for NameParts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn ident(text: &str) -> Ident {
        Ident {
            text: text.into(),
            quoted: false,
            span: Span::new(0, text.len()),
        }
    }

    #[test]
    fn one_part_is_inline_and_reads_like_a_vec() {
        let one = NameParts::from(vec![ident("a")]);
        assert!(matches!(one.0, Repr::One(_)));
        let two = NameParts::from(vec![ident("a"), ident("b")]);
        assert_eq!(format!("{one:?}"), format!("{:?}", vec![ident("a")]));
        assert_eq!(
            format!("{two:?}"),
            format!("{:?}", vec![ident("a"), ident("b")])
        );
        assert_eq!(
            serde_json::to_string(&two).unwrap(),
            serde_json::to_string(&vec![ident("a"), ident("b")]).unwrap()
        );
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].as_str(), "b");
        assert_eq!(one.into_iter().count(), 1);
        // One part costs no more than the vector it replaces and the part it held.
        assert!(std::mem::size_of::<NameParts>() <= std::mem::size_of::<Ident>());
    }
}
