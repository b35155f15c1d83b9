package io.tessera.sql;

import io.tessera.storage.Timestamps;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;

/**
 * TIMESTAMP literals in the forms DuckDB reads ({@code TIMESTAMP '2020-01-01'}, {@code '2020-01-01 10:00'},
 * {@code '2020-01-01T10:00:00.5'}) written in the one form Calcite's literal parser takes
 * ({@code yyyy-mm-dd hh:mm:ss[.ffffff]}), before validation; an invalid one fails with its text.
 */
final class TemporalLiterals {

    private TemporalLiterals() {
    }

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlLiteral literal) {
                if (literal instanceof SqlUnknownLiteral u && u.tag.toUpperCase(Locale.ROOT).equals("TIMESTAMP")) {
                    return SqlLiteral.createUnknown(u.tag, normalized(u.getValue()), u.getParserPosition());
                }
                return literal;
            }
        });
        return r == null ? parsed : r;
    }

    private static String normalized(String text) {
        try {
            return Timestamps.format(Timestamps.parse(text));
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage(), e);
        }
    }
}
