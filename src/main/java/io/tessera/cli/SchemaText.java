package io.tessera.cli;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.View;

import java.util.regex.Pattern;

/**
 * The CREATE statements that make a database's tables and views again, as DuckDB's {@code .schema} prints them:
 * {@code CREATE TABLE parts(id INTEGER NOT NULL, name VARCHAR);}, a name in double quotes where it needs them.
 */
final class SchemaText {

    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");

    private SchemaText() {
    }

    /** The statements of every table and view, or of the one named {@code only} (none when there is no such). */
    static String of(Database d, String only) {
        StringBuilder b = new StringBuilder();
        for (Table t : d.tables()) {
            if (only == null || t.name().equalsIgnoreCase(only)) {
                b.append("CREATE TABLE ").append(name(t.name())).append('(');
                String sep = "";
                for (ColumnSchema c : t.schema().columns()) {
                    b.append(sep).append(name(c.name())).append(' ').append(c.type());
                    if (!c.nullable()) {
                        b.append(" NOT NULL");
                    }
                    sep = ", ";
                }
                b.append(");\n");
            }
        }
        for (View v : d.views()) {
            if (only == null || v.name().equalsIgnoreCase(only)) {
                b.append("CREATE VIEW ").append(name(v.name()));
                if (!v.columns().isEmpty()) {
                    b.append(" (").append(String.join(", ", v.columns().stream().map(SchemaText::name).toList()))
                            .append(')');
                }
                b.append(" AS ").append(v.query().strip()).append(";\n");
            }
        }
        if (only != null && b.isEmpty()) {
            throw new IllegalArgumentException("no table or view " + only);
        }
        return b.toString();
    }

    /** A name as SQL reads it back: as it is when plain lower case, else in double quotes. */
    static String name(String n) {
        return PLAIN.matcher(n).matches() ? n : "\"" + n.replace("\"", "\"\"") + "\"";
    }
}
