package io.tessera.sql;

import io.tessera.storage.Timestamps;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;

/**
 * TIMESTAMP and TIME literals in the forms DuckDB reads ({@code TIMESTAMP '2020-01-01'}, {@code '2020-01-01 10:00'},
 * {@code '2020-01-01T10:00:00.5'}, {@code TIME '1:02'}) written in the one form Calcite's literal parser takes
 * ({@code yyyy-mm-dd hh:mm:ss[.ffffff]}, {@code hh:mm:ss[.ffffff]}), before validation; an invalid one fails with its
 * text and position.
 */
final class TemporalLiterals {

    private TemporalLiterals() {
    }

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlLiteral literal) {
                if (literal instanceof SqlUnknownLiteral u) {
                    switch (u.tag.toUpperCase(Locale.ROOT)) {
                        case "TIMESTAMP" -> {
                            return SqlLiteral.createUnknown(u.tag, normalized(u, false), u.getParserPosition());
                        }
                        case "TIME" -> {
                            return SqlLiteral.createUnknown(u.tag, normalized(u, true), u.getParserPosition());
                        }
                        default -> {
                        }
                    }
                }
                return literal;
            }
        });
        return r == null ? parsed : r;
    }

    private static String normalized(SqlUnknownLiteral u, boolean time) {
        try {
            return time ? Timestamps.formatTime(Timestamps.parseTime(u.getValue()))
                    : Timestamps.format(Timestamps.parse(u.getValue()));
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + SupportCheck.at(u.getParserPosition()), e);
        }
    }
}
