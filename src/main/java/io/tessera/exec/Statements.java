package io.tessera.exec;

import io.tessera.sql.SqlError;
import io.tessera.storage.TableSchema;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Recognizes the statements that are not queries: CREATE TABLE, DROP TABLE, EXPLAIN [CODE]. */
final class Statements {

    sealed interface Statement permits Query, Explain, CreateTable, DropTable {
    }

    record Query(String sql) implements Statement {
    }

    record Explain(String sql, boolean code) implements Statement {
    }

    record CreateTable(TableSchema schema, boolean ifNotExists) implements Statement {
    }

    record DropTable(String name, boolean ifExists) implements Statement {
    }

    private static final Pattern CREATE = Pattern.compile(
            "(?is)\\s*CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?([A-Za-z_][A-Za-z0-9_]*)\\s*\\((.*)\\)\\s*;?\\s*");
    private static final Pattern DROP = Pattern.compile(
            "(?is)\\s*DROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?([A-Za-z_][A-Za-z0-9_]*)\\s*;?\\s*");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)\\s*EXPLAIN\\s+(CODE\\s+)?(.*)");

    private Statements() {
    }

    static Statement parse(String sql) {
        String s = stripTrailingSemicolon(sql);
        String head = s.stripLeading().toUpperCase(Locale.ROOT);
        if (head.startsWith("CREATE")) {
            Matcher m = CREATE.matcher(s);
            if (!m.matches()) {
                throw new SqlError("syntax error in CREATE TABLE: expected CREATE TABLE name (column type [NOT NULL], ...)");
            }
            try {
                return new CreateTable(TableSchema.parse(m.group(2), m.group(3)), m.group(1) != null);
            } catch (IllegalArgumentException e) {
                throw new SqlError("CREATE TABLE " + m.group(2) + ": " + e.getMessage());
            }
        }
        if (head.startsWith("DROP")) {
            Matcher m = DROP.matcher(s);
            if (!m.matches()) {
                throw new SqlError("syntax error in DROP TABLE: expected DROP TABLE [IF EXISTS] name");
            }
            return new DropTable(m.group(2).toLowerCase(Locale.ROOT), m.group(1) != null);
        }
        if (head.startsWith("EXPLAIN")) {
            Matcher m = EXPLAIN.matcher(s);
            if (m.matches() && !m.group(2).toUpperCase(Locale.ROOT).startsWith("PLAN")) {
                return new Explain(m.group(2), m.group(1) != null);
            }
        }
        return new Query(s);
    }

    private static String stripTrailingSemicolon(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }
}
