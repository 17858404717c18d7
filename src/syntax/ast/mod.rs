//! Typed syntax tree of Flink SQL scripts.
//!
//! Every node carries the [`Span`] of the source it was parsed from: from the first byte of its
//! first token to the last byte of its last token. Spans are set by the parser only; a child's
//! span lies within its parent's. Identifiers are [`Ident`]s, compared with [`Ident::matches`]
//! (Flink: case-sensitive, case-preserving); option keys are [`StringLit`] values compared
//! exactly. The tree mirrors Flink 2.3's grammar (`flink-spec.md` §2; Flink's
//! `parserImpls.ftl`), plus the seed FLIP-557 `ALTER MATERIALIZED TABLE ... [SET START_MODE =
//! ...] AS` form, so that rules can say which versions accept what.

mod ddl;
mod expr;
mod parts;
mod pattern;
mod query;
mod types;

pub use ddl::*;
pub use expr::*;
pub use parts::NameParts;
pub use pattern::*;
pub use query::*;
pub use types::*;

use crate::source::Span;
use compact_str::CompactString;
use serde::Serialize;

/// An identifier: unquoted (`orders`, `$rowtime`) or backtick-quoted (`` `order id` ``).
#[derive(Debug, Clone, Serialize)]
pub struct Ident {
    /// The name as Flink sees it: case preserved, doubled backticks undone.
    pub text: CompactString,
    /// Whether it was written in backticks.
    pub quoted: bool,
    /// Where it was written.
    pub span: Span,
}

impl Ident {
    /// Flink's identifier comparison: exact and case-sensitive.
    pub fn matches(&self, other: &Ident) -> bool {
        self.text == other.text
    }
    /// Whether the name is exactly `name` (case-sensitive).
    pub fn is(&self, name: &str) -> bool {
        self.text == name
    }
    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// A possibly qualified name: `name`, `db.name` or `catalog.db.name` (columns may be nested
/// paths such as `row_col.f0`).
#[derive(Debug, Clone, Serialize)]
pub struct ObjectName {
    /// The parts, outermost first; never empty (one part without a heap allocation).
    pub parts: NameParts,
    /// From the first to the last part.
    pub span: Span,
}

impl ObjectName {
    /// The last part (the object's own name).
    pub fn last(&self) -> &Ident {
        self.parts
            .last()
            .expect("an ObjectName has at least one part")
    }
    /// Parts joined with `.` (unquoted; for messages).
    pub fn dotted(&self) -> String {
        let mut out = String::new();
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            out.push_str(&part.text);
        }
        out
    }
}

/// A string literal; adjacent literals (`'a' 'b'`) are one literal.
#[derive(Debug, Clone, Serialize)]
pub struct StringLit {
    /// The value with quotes removed and `''` undone.
    pub value: CompactString,
    /// Where it was written (all parts).
    pub span: Span,
}

/// One `'key' = 'value'` option.
#[derive(Debug, Clone, Serialize)]
pub struct Property {
    /// The option key.
    pub key: StringLit,
    /// The option value.
    pub value: StringLit,
    /// From key to value.
    pub span: Span,
}

/// `( 'k' = 'v', ... )`.
#[derive(Debug, Clone, Serialize)]
pub struct PropertyList {
    /// Options in written order (duplicates kept; Flink lets the last one win).
    pub items: Vec<Property>,
    /// From `(` to `)`.
    pub span: Span,
}

impl PropertyList {
    /// The value of the last option named `key`, as Flink resolves duplicates.
    pub fn get(&self, key: &str) -> Option<&Property> {
        self.items.iter().rev().find(|p| p.key.value == key)
    }
}

/// `( 'k1', 'k2' )` as in `RESET ('k1')`.
#[derive(Debug, Clone, Serialize)]
pub struct KeyList {
    /// The keys.
    pub keys: Vec<StringLit>,
    /// From `(` to `)`.
    pub span: Span,
}

/// `( a, b, c )`: a parenthesized list of simple names.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnList {
    /// The names.
    pub names: Vec<Ident>,
    /// From `(` to `)`.
    pub span: Span,
}

/// A table or query hint `/*+ NAME(args) */`, kept as one token.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    /// The whole hint comment.
    pub span: Span,
    /// The names of its hints (`OPTIONS`, `STATE_TTL`, `LOOKUP`, ...), as written.
    pub names: Vec<CompactString>,
}

impl Hint {
    /// Whether one of its hints is `name` (hint names are case-insensitive).
    pub fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// A whole file: its statements in order.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Script {
    /// Statements, in file order.
    pub statements: Vec<Statement>,
}

/// One statement, without its terminating `;`.
#[derive(Debug, Clone, Serialize)]
pub struct Statement {
    /// What the statement is.
    pub kind: StatementKind,
    /// From its first token to its last token (the `;` excluded).
    pub span: Span,
    /// Whether Flink's parser rejects it: a syntax error was reported inside it (the node may
    /// be partial), or it uses a form no Flink version has that is kept in the tree for SY005
    /// (`CREATE TEMPORARY MATERIALIZED TABLE`, `ALTER MATERIALIZED TABLE IF EXISTS`, ...).
    pub has_error: bool,
}

impl Statement {
    /// Calls `f` on this statement and on the statements nested in it (the statement of an
    /// EXPLAIN / EXECUTE / COMPILE, the INSERTs of a statement set), depth first.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Statement)) {
        f(self);
        match &self.kind {
            StatementKind::Wrapped(w) => w.inner.walk(f),
            StatementKind::StatementSet(set) => {
                for s in &set.statements {
                    s.walk(f);
                }
            }
            _ => {}
        }
    }
}

impl Script {
    /// Every statement, nested ones included, in source order.
    pub fn all_statements(&self) -> Vec<&Statement> {
        let mut out = Vec::new();
        for s in &self.statements {
            s.walk(&mut |st| out.push(st));
        }
        out
    }
}

/// The statement kinds of Flink 2.3's SQL parser and SQL client.
#[derive(Debug, Clone, Serialize)]
pub enum StatementKind {
    /// `CREATE [OR REPLACE] [TEMPORARY] TABLE ...` (with columns, LIKE or AS query).
    CreateTable(Box<CreateTable>),
    /// `CREATE [OR ALTER] MATERIALIZED TABLE ...`.
    CreateMaterializedTable(Box<CreateMaterializedTable>),
    /// `ALTER MATERIALIZED TABLE ...`.
    AlterMaterializedTable(Box<AlterMaterializedTable>),
    /// `ALTER TABLE ...`.
    AlterTable(Box<AlterTable>),
    /// `CREATE [OR REPLACE] [TEMPORARY] VIEW ...`.
    CreateView(Box<CreateView>),
    /// `ALTER VIEW ...`.
    AlterView(Box<AlterView>),
    /// `DROP [TEMPORARY] TABLE | VIEW | MATERIALIZED TABLE ...` and other DROPs.
    Drop(Box<DropObject>),
    /// `INSERT INTO | INSERT OVERWRITE | UPSERT INTO ...`.
    Insert(Box<Insert>),
    /// A query (`SELECT`, `VALUES`, `WITH ...`, set operations).
    Query(Box<Query>),
    /// `EXECUTE STATEMENT SET BEGIN ...; END`.
    StatementSet(Box<StatementSet>),
    /// `BEGIN STATEMENT SET` (SQL client).
    BeginStatementSet,
    /// `END` (SQL client, closes `BEGIN STATEMENT SET`).
    End,
    /// `SET ['key' = 'value']`.
    Set(Box<SetStatement>),
    /// `RESET ['key']`.
    Reset(Box<ResetStatement>),
    /// `USE CATALOG c`, `USE db`, `USE MODULES m, ...`.
    Use(Box<UseStatement>),
    /// `EXPLAIN ...`, `EXECUTE ...`, `COMPILE [AND EXECUTE] PLAN ... FOR ...` around a statement.
    Wrapped(Box<WrappedStatement>),
    /// Statements parsed fully but kept only by kind and main name (SHOW, DESCRIBE, CATALOG,
    /// DATABASE, FUNCTION, MODEL, JAR, MODULE, ANALYZE, CALL, TRUNCATE, DELETE, UPDATE, ...).
    Other(Box<OtherStatement>),
    /// A statement whose start could not be parsed.
    Error,
}

/// `SET` with an optional `key = value`.
#[derive(Debug, Clone, Serialize)]
pub struct SetStatement {
    /// `'key' = 'value'` or the SQL client's unquoted `key=value`.
    pub pair: Option<SetPair>,
}

/// The key and value of a `SET`.
#[derive(Debug, Clone, Serialize)]
pub struct SetPair {
    /// The key (quotes removed).
    pub key: String,
    /// Where the key was written.
    pub key_span: Span,
    /// The value (quotes removed).
    pub value: String,
    /// Where the value was written.
    pub value_span: Span,
}

/// `RESET` with an optional key.
#[derive(Debug, Clone, Serialize)]
pub struct ResetStatement {
    /// The key (quotes removed), if any.
    pub key: Option<String>,
}

/// `USE ...`.
#[derive(Debug, Clone, Serialize)]
pub enum UseStatement {
    /// `USE CATALOG name`.
    Catalog(Ident),
    /// `USE [catalog.]database`.
    Database(ObjectName),
    /// `USE MODULES a, b`.
    Modules(Vec<Ident>),
}

/// What wraps an inner statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum WrapperKind {
    /// `EXPLAIN [PLAN FOR | details]`: planned, not executed.
    Explain,
    /// `EXECUTE stmt`: executed.
    Execute,
    /// `COMPILE PLAN 'file' [IF NOT EXISTS] FOR stmt`: planned, not executed.
    CompilePlan,
    /// `COMPILE AND EXECUTE PLAN 'file' FOR stmt`: executed.
    CompileAndExecutePlan,
}

/// A statement wrapped by EXPLAIN / EXECUTE / COMPILE PLAN.
#[derive(Debug, Clone, Serialize)]
pub struct WrappedStatement {
    /// Which wrapper.
    pub wrapper: WrapperKind,
    /// The inner statement.
    pub inner: Statement,
}

/// `EXECUTE STATEMENT SET BEGIN insert; ... END`.
#[derive(Debug, Clone, Serialize)]
pub struct StatementSet {
    /// The INSERT statements, each with its own span.
    pub statements: Vec<Statement>,
}

/// Kinds of statements kept as [`OtherStatement`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum OtherKind {
    CreateCatalog,
    AlterCatalog,
    DropCatalog,
    CreateDatabase,
    AlterDatabase,
    CreateFunction,
    AlterFunction,
    CreateModel,
    AlterModel,
    CreateConnection,
    AlterConnection,
    Show,
    Describe,
    AddJar,
    RemoveJar,
    LoadModule,
    UnloadModule,
    Analyze,
    Call,
    Truncate,
    Delete,
    Update,
    StopJob,
    ExecutePlan,
    Merge,
    /// SQL client commands: `QUIT`, `EXIT`, `HELP`, `CLEAR`.
    ClientCommand,
}

/// A statement kept by kind and main name only.
#[derive(Debug, Clone, Serialize)]
pub struct OtherStatement {
    /// Which statement.
    pub kind: OtherKind,
    /// The object it names, if any.
    pub name: Option<ObjectName>,
    /// The form of the statement, where a rule needs it.
    pub form: OtherForm,
}

/// The forms of an [`OtherStatement`] that rules tell apart.
#[derive(Debug, Clone, Default, Serialize)]
pub enum OtherForm {
    /// Nothing rules need.
    #[default]
    Plain,
    /// `ALTER TEMPORARY SYSTEM FUNCTION`.
    TemporarySystem,
    /// `CREATE MODEL ... AS query`: whether `INPUT (...)` and `OUTPUT (...)` were written.
    ModelAsQuery {
        /// `INPUT (...)` was written.
        input: bool,
        /// `OUTPUT (...)` was written.
        output: bool,
    },
    /// `ALTER CATALOG | DATABASE | MODEL | CONNECTION ... RESET (keys)`.
    Reset(KeyList),
    /// `SHOW CREATE CONNECTION name`.
    ShowCreateConnection,
    /// `UPDATE t [[AS] alias] SET c = e, ... [WHERE cond]`.
    Update {
        /// The alias.
        alias: Option<Ident>,
        /// The assignments: target column and value.
        assignments: Vec<(ObjectName, Expr)>,
        /// The condition.
        filter: Option<Box<Expr>>,
    },
    /// `DELETE FROM t [[AS] alias] [WHERE cond]`.
    Delete {
        /// The alias.
        alias: Option<Ident>,
        /// The condition.
        filter: Option<Box<Expr>>,
    },
    /// `SHOW CONNECTIONS`: whether `FROM` / `IN` a database was written.
    ShowConnections {
        /// `FROM db` / `IN db` was written.
        from: bool,
    },
}

/// What a DROP removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum ObjectKind {
    Table,
    View,
    MaterializedTable,
    Database,
    Catalog,
    Function,
    Model,
    Connection,
}

/// `DROP [TEMPORARY [SYSTEM]] <kind> [IF EXISTS] name`.
#[derive(Debug, Clone, Serialize)]
pub struct DropObject {
    /// What is dropped.
    pub object: ObjectKind,
    /// `TEMPORARY` was written.
    pub temporary: bool,
    /// Where `TEMPORARY` was written (SY005 reports it on a materialized table).
    pub temporary_span: Option<Span>,
    /// `IF EXISTS` was written.
    pub if_exists: bool,
    /// The dropped object.
    pub name: ObjectName,
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// The sizes of the tree's hot types (x86_64 bytes), printed with `--nocapture`: a move of
    /// a larger value copies more, and every element of a vector holds the largest variant.
    #[test]
    fn hot_type_sizes() {
        let sizes = [
            ("Ident", std::mem::size_of::<Ident>()),
            ("ObjectName", std::mem::size_of::<ObjectName>()),
            ("StringLit", std::mem::size_of::<StringLit>()),
            ("Expr", std::mem::size_of::<Expr>()),
            ("ExprKind", std::mem::size_of::<ExprKind>()),
            ("Literal", std::mem::size_of::<Literal>()),
            ("DataType", std::mem::size_of::<DataType>()),
            ("TableElement", std::mem::size_of::<TableElement>()),
            ("ColumnDef", std::mem::size_of::<ColumnDef>()),
            ("SelectItem", std::mem::size_of::<SelectItem>()),
            ("FunctionCall", std::mem::size_of::<FunctionCall>()),
            ("Query", std::mem::size_of::<Query>()),
            ("Statement", std::mem::size_of::<Statement>()),
            ("StatementKind", std::mem::size_of::<StatementKind>()),
            ("Property", std::mem::size_of::<Property>()),
        ];
        for (name, size) in sizes {
            println!("{name}: {size}");
        }
    }
}
