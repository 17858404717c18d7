//! A password, secret or token written as a literal option value.

use crate::files::FileEntry;
use crate::rules::{Context, Reporter, Rule};
use crate::source::Span;
use crate::syntax::ast::{
    AlterMaterializedTableAction, AlterTableAction, PropertyList, Statement, StatementKind,
};

/// Reports credential options (`password`, `*.secret*`, `*.token`, `sasl.jaas.config` with a
/// password, `basic-auth.user-info`) whose value is written in the script.
pub struct LiteralSecretOption;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &LiteralSecretOption;

impl Rule for LiteralSecretOption {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        for file in ctx.files {
            for (i, statement) in file.parsed.script.statements.iter().enumerate() {
                if file.dialect.is_flink(i) {
                    check_statement(file, statement, out);
                }
            }
        }
    }
}

fn check_statement(file: &FileEntry, statement: &Statement, out: &mut Reporter<'_>) {
    let mut lists: Vec<&PropertyList> = Vec::new();
    match &statement.kind {
        StatementKind::CreateTable(t) => lists.extend(&t.with),
        StatementKind::CreateMaterializedTable(t) => lists.extend(&t.with),
        StatementKind::AlterTable(t) => {
            if let AlterTableAction::SetOptions(p) = &t.action {
                lists.push(p);
            }
        }
        StatementKind::AlterMaterializedTable(t) => match &t.action {
            AlterMaterializedTableAction::SetOptions(p) => lists.push(p),
            AlterMaterializedTableAction::Resume(Some(p)) => lists.push(p),
            _ => {}
        },
        StatementKind::Set(s) => {
            if let Some(pair) = &s.pair {
                report(
                    file,
                    out,
                    &pair.key,
                    &pair.value,
                    pair.key_span,
                    pair.value_span,
                );
            }
        }
        _ => {}
    }
    for list in lists {
        for p in &list.items {
            report(
                file,
                out,
                &p.key.value,
                &p.value.value,
                p.key.span,
                p.value.span,
            );
        }
    }
}

fn report(
    file: &FileEntry,
    out: &mut Reporter<'_>,
    key: &str,
    value: &str,
    key_span: Span,
    value_span: Span,
) {
    let Some(what) = secret_kind(key, value) else {
        return;
    };
    let d = out
        .diagnostic(
            file.id,
            value_span,
            format!("option '{key}' holds {what} written in the script"),
        )
        .with_label("a literal credential")
        .with_related(file.id, key_span, "the credential option")
        .with_help(
            "reference the secret instead of writing it: a placeholder your deployment fills in \
             (`${secret_values.NAME}` on Ververica and Alibaba Cloud Realtime Compute, \
             `${NAME}` for a Ververica Platform secret value or a variable your scripts are \
             rendered with), a Kafka config provider for `properties.*` keys \
             (`${file:/path:key}`, `${env:NAME}`), or, on Confluent Cloud, a CONNECTION that \
             holds the credential",
        )
        .with_note(
            "anyone who can read this file, its history or the job's configuration can read the \
             credential; rotating it means changing every script that repeats it",
        );
    out.report(d);
}

/// Words of a key that name a credential (the key split at `.`, `-` and `_`).
const SECRET_WORDS: &[&str] = &["password", "passwd", "secret", "pwd"];

/// Last words after which a credential word names something else: the path of a file that
/// holds it, its type, whether it is enabled.
const NOT_A_VALUE: &[&str] = &[
    "file", "path", "location", "type", "enabled", "enable", "class", "provider", "name", "url",
    "uri", "endpoint", "mode", "algorithm", "id", "manager", "format", "length", "prefix",
];

/// What the value of `key` is when the key names a credential and the value is written
/// literally ("a password", "a secret", "a token", "a password in a JAAS configuration",
/// "a user's credentials"); `None` for other keys, empty values and placeholders.
pub(crate) fn secret_kind(key: &str, value: &str) -> Option<&'static str> {
    // Most keys name no credential: the key is judged first, the value (whether it is a
    // placeholder) only for a credential key.
    let kind = credential_kind(key, value)?;
    (!is_placeholder(value)).then_some(kind)
}

/// [`secret_kind`] before the placeholder check of the whole value.
fn credential_kind(key: &str, value: &str) -> Option<&'static str> {
    let key = key.trim();
    let lower;
    let key = if key.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = key.to_ascii_lowercase();
        lower.as_str()
    } else {
        key
    };
    // Kafka's `sasl.jaas.config` (also under `properties.`): a login module line whose
    // options may carry a password (`password="..."`) or a client secret.
    if key.ends_with("sasl.jaas.config") {
        return jaas_secret(value).then_some("a password in a JAAS configuration");
    }
    // The Confluent Schema Registry formats' `basic-auth.user-info`: `user:password`.
    if key.ends_with("basic-auth.user-info") {
        return value.contains(':').then_some("a user's credentials");
    }
    let words = || key.split(['.', '-', '_']).filter(|w| !w.is_empty());
    let mut backwards = key.rsplit(['.', '-', '_']).filter(|w| !w.is_empty());
    let last = backwards.next()?;
    let before = backwards.next();
    // A connection URL with credentials (`mongodb://user:pass@host`, a JDBC URL's
    // `password=` parameter).
    if matches!(last, "url" | "uri" | "hosts" | "servers") {
        return url_password(value).then_some("a password in a URL");
    }
    if NOT_A_VALUE.contains(&last) {
        return None;
    }
    if words().any(|w| SECRET_WORDS.contains(&w)) {
        return Some(if words().any(|w| w.starts_with("pass") || w == "pwd") {
            "a password"
        } else {
            "a secret"
        });
    }
    // `bearer-auth.token`, `access-token`; not `token.endpoint.url` (caught above) or
    // `token-ttl`.
    if last == "token"
        || last == "apikey"
        || (last == "key"
            && before.is_some_and(|before| {
                before == "api"
                    || before == "private"
                    || before == "access" && key.contains("secret")
            }))
    {
        return Some(if last == "token" {
            "a token"
        } else {
            "a secret key"
        });
    }
    None
}

/// Whether a URL carries a password: `scheme://user:password@host`, or a `password=`
/// parameter (JDBC URLs).
fn url_password(value: &str) -> bool {
    // Both forms need one of these: most URLs (`jdbc:mysql://db:3306/shop`) have neither.
    if !value.bytes().any(|b| b == b'=' || b == b'@') {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    if let Some(at) = lower.find("password=") {
        let rest = &value[at + "password=".len()..];
        let literal = rest.split(['&', ';']).next().unwrap_or("");
        if !is_placeholder(literal) {
            return true;
        }
    }
    let Some(scheme) = value.find("://") else {
        return false;
    };
    let authority = value[scheme + 3..].split(['/', '?']).next().unwrap_or("");
    let Some((userinfo, _)) = authority.rsplit_once('@') else {
        return false;
    };
    userinfo
        .split_once(':')
        .is_some_and(|(_, password)| !is_placeholder(password))
}

/// Whether a JAAS configuration sets a password or secret to a literal value.
fn jaas_secret(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq]
            .trim_end()
            .rsplit(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or("");
        let after = rest[eq + 1..].trim_start();
        let literal = after
            .strip_prefix('"')
            .and_then(|a| a.split('"').next())
            .unwrap_or_else(|| after.split([' ', ';']).next().unwrap_or(""));
        if (name.contains("password") || name.contains("secret") || name.contains("token"))
            && !is_placeholder(literal)
        {
            return true;
        }
        rest = &rest[eq + 1..];
    }
    false
}

/// An empty value, or one a deployment substitutes: `${...}`, `{{...}}`, `$NAME`, `<...>`,
/// `%NAME%`, or only `*`.
fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    v.is_empty()
        || v.contains("${")
        || v.contains("{{")
        || v.contains("#{")
        || (v.starts_with('$') && v.len() > 1)
        || (v.starts_with('<') && v.ends_with('>'))
        || (v.len() > 2 && v.starts_with('%') && v.ends_with('%'))
        || v.chars().all(|c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::secret_kind;

    #[test]
    fn credential_keys_and_placeholders() {
        assert_eq!(secret_kind("password", "hunter2"), Some("a password"));
        assert_eq!(
            secret_kind("properties.ssl.truststore.password", "changeit"),
            Some("a password")
        );
        assert_eq!(secret_kind("s3.secret-key", "abc"), Some("a secret"));
        assert_eq!(secret_kind("fs.s3a.secret.key", "abc"), Some("a secret"));
        assert_eq!(
            secret_kind("avro-confluent.bearer-auth.token", "t"),
            Some("a token")
        );
        assert_eq!(
            secret_kind("value.avro-confluent.basic-auth.user-info", "u:p"),
            Some("a user's credentials")
        );
        assert_eq!(
            secret_kind(
                "properties.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";"
            ),
            Some("a password in a JAAS configuration")
        );
        // Placeholders, empty values, keys that are not the credential itself.
        assert_eq!(secret_kind("password", ""), None);
        assert_eq!(secret_kind("password", "${secret_values.pg}"), None);
        assert_eq!(secret_kind("password", "$PG_PASSWORD"), None);
        assert_eq!(secret_kind("password", "<password>"), None);
        assert_eq!(secret_kind("password", "****"), None);
        assert_eq!(
            secret_kind(
                "properties.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"${env:KAFKA_PASSWORD}\";"
            ),
            None
        );
        assert_eq!(
            secret_kind(
                "properties.sasl.jaas.config",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;"
            ),
            None
        );
        assert_eq!(secret_kind("properties.ssl.keystore.location", "/k"), None);
        assert_eq!(secret_kind("password.file", "/run/secrets/pg"), None);
        assert_eq!(secret_kind("username", "flink"), None);
        assert_eq!(
            secret_kind(
                "properties.sasl.oauthbearer.token.endpoint.url",
                "https://x"
            ),
            None
        );
        assert_eq!(secret_kind("s3.access-key", "AKIA"), None);
        assert_eq!(
            secret_kind("uri", "mongodb://flink:s3cret@mongo:27017"),
            Some("a password in a URL")
        );
        assert_eq!(
            secret_kind("url", "jdbc:mysql://db:3306/shop?user=u&password=p"),
            Some("a password in a URL")
        );
        assert_eq!(
            secret_kind("uri", "mongodb://${MONGO_USER}:${MONGO_PASSWORD}@mongo"),
            None
        );
        assert_eq!(secret_kind("url", "jdbc:mysql://db:3306/shop"), None);
        assert_eq!(secret_kind("hosts", "http://es:9200"), None);
    }
}
