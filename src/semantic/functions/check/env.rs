//! The functions of a run beyond the built-ins: what its statements create or load, and the
//! UDFs declared in the configuration.

use crate::semantic::types::Type;
use crate::syntax::ast::*;
use std::collections::{HashMap, HashSet};

/// A user-defined function declared in the configuration (`functions:`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredFunction {
    /// Its argument types, when declared (their count is checked).
    pub args: Option<Vec<Type>>,
    /// Its return type, when declared.
    pub returns: Option<Type>,
}

/// The UDFs declared in the settings (`functions:`), by upper-case name; types that do not
/// parse are left unknown (the configuration loader rejects them).
pub fn declared_functions(settings: &crate::config::Settings) -> HashMap<String, DeclaredFunction> {
    let parse = |t: &str| crate::syntax::parse_data_type(t).map(|d| Type::from_ast(&d));
    settings
        .functions
        .iter()
        .map(|f| {
            let args = f
                .args
                .as_ref()
                .map(|a| a.iter().map(|t| parse(t)).collect::<Option<Vec<Type>>>());
            (
                f.name.to_ascii_uppercase(),
                DeclaredFunction {
                    // Declared types that do not parse: the count is still known.
                    args: args
                        .map(|a| a.unwrap_or_default())
                        .filter(|a| f.args.as_ref().is_some_and(|w| w.len() == a.len())),
                    returns: f.returns.as_deref().and_then(parse),
                },
            )
        })
        .collect()
}

/// The functions of the run beyond the built-ins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionEnv {
    /// Names (upper case) of the functions the run's statements create (`CREATE [TEMPORARY]
    /// [SYSTEM] FUNCTION`, `ALTER FUNCTION`): calls to them are not checked.
    pub created: HashSet<String>,
    /// Functions declared in the configuration, by upper-case name.
    pub declared: HashMap<String, DeclaredFunction>,
    /// Whether a statement of the run may bring functions flinklint cannot see (`LOAD MODULE`,
    /// `USE MODULES`, `USE CATALOG` of a catalog other than `default_catalog`): no call is
    /// checked then.
    pub opaque: bool,
}

impl FunctionEnv {
    /// An environment that knows nothing of the run: every call may be a UDF, none is checked.
    pub fn unknown() -> FunctionEnv {
        FunctionEnv {
            opaque: true,
            ..FunctionEnv::default()
        }
    }

    /// The environment of a run: what its statements create or load, and the declared UDFs.
    pub fn of_statements<'a>(
        statements: impl Iterator<Item = &'a Statement>,
        declared: HashMap<String, DeclaredFunction>,
    ) -> FunctionEnv {
        let mut env = FunctionEnv {
            declared,
            ..FunctionEnv::default()
        };
        for s in statements {
            env.note(s);
        }
        env
    }

    fn note(&mut self, s: &Statement) {
        match &s.kind {
            StatementKind::Other(o) => match o.kind {
                OtherKind::CreateFunction | OtherKind::AlterFunction => match &o.name {
                    Some(n) => {
                        self.created
                            .insert(n.last().text.to_ascii_uppercase().to_string());
                    }
                    None => self.opaque = true,
                },
                OtherKind::LoadModule | OtherKind::UnloadModule => self.opaque = true,
                _ => {}
            },
            StatementKind::Use(u) => match &**u {
                UseStatement::Modules(_) => self.opaque = true,
                UseStatement::Catalog(c) if c.text != "default_catalog" => self.opaque = true,
                _ => {}
            },
            StatementKind::StatementSet(set) => set.statements.iter().for_each(|s| self.note(s)),
            StatementKind::Wrapped(w) => self.note(&w.inner),
            _ => {}
        }
    }
}
