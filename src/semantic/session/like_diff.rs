//! The lines that explain a LIKE problem: a short diff between the parent's and the derived
//! table's expanded definitions (as `SHOW CREATE TABLE` shows them), kept with the problem.

use crate::semantic::problems::Problem;
use crate::syntax::ast::FeatureOption;

/// The text that marks the expanded-definition lines a LIKE problem is about.
pub(super) fn needle(p: &Problem) -> Option<String> {
    Some(match p {
        Problem::OptionKeyConflict { key, .. } | Problem::OverridesOption { key, .. } => {
            format!("'{key}' =")
        }
        Problem::WatermarkConflict { .. } | Problem::MultipleWatermarks { .. } => {
            "WATERMARK FOR".to_string()
        }
        Problem::PrimaryKeyConflict { .. } => "PRIMARY KEY".to_string(),
        Problem::PartitionConflict { .. } => "PARTITIONED BY".to_string(),
        Problem::DistributionConflict { .. } => "DISTRIBUTED".to_string(),
        Problem::IneffectiveExcluding { feature, .. } => if *feature == FeatureOption::Partitions {
            "PARTITIONED BY"
        } else {
            "DISTRIBUTED"
        }
        .to_string(),
        Problem::LikeColumnClash { name, .. } | Problem::InheritedNotResolvable { name, .. } => {
            format!("{} ", crate::semantic::names::quote(name))
        }
        _ => return None,
    })
}

/// The few lines of a diff between the parent's and the derived table's expanded definitions
/// that explain a LIKE problem, after a header line.
pub(super) fn explain_diff(
    parent: &str,
    derived: &str,
    needle: &str,
    parent_name: &str,
    derived_name: &str,
) -> Vec<String> {
    let diff = similar::TextDiff::from_lines(parent, derived);
    let mut lines = Vec::new();
    // A line that only gained or lost its trailing comma did not change.
    let strip = |s: &str| {
        s.trim_end_matches('\n')
            .trim_end_matches(',')
            .trim()
            .to_string()
    };
    let deleted: Vec<String> = diff
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .map(|c| strip(c.value()))
        .collect();
    for change in diff.iter_all_changes() {
        let text = strip(change.value());
        if !text.contains(needle) {
            continue;
        }
        let sign = match change.tag() {
            similar::ChangeTag::Delete if !lines_contain(&diff, &text) => '-',
            similar::ChangeTag::Insert if !deleted.contains(&text) => '+',
            similar::ChangeTag::Equal => ' ',
            _ => continue,
        };
        let line = format!("{sign} {text}");
        if !lines.contains(&line) {
            lines.push(line);
        }
        if lines.len() == 4 {
            break;
        }
    }
    if lines.is_empty() {
        return lines;
    }
    let mut out = vec![format!(
        "expanded `{parent_name}` (-) and `{derived_name}` (+):"
    )];
    out.extend(lines);
    out
}

/// Whether an inserted line of the diff equals `text` (ignoring a trailing comma).
fn lines_contain(diff: &similar::TextDiff<'_, '_, str>, text: &str) -> bool {
    diff.iter_all_changes().any(|c| {
        c.tag() == similar::ChangeTag::Insert
            && c.value()
                .trim_end_matches('\n')
                .trim_end_matches(',')
                .trim()
                == text
    })
}
