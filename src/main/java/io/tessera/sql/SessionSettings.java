package io.tessera.sql;

import io.tessera.storage.ZonedTimestamps;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

import java.util.Locale;

/**
 * {@code SET [SESSION] name = value} and {@code RESET name}: the settings of one connection, as DuckDB names them.
 * The only one is {@code TimeZone}, in which TIMESTAMP WITH TIME ZONE values are read, shown and taken apart (UTC
 * until set; RESET sets it back). A value is a string or a name; an unknown zone or setting is refused with its
 * position.
 */
final class SessionSettings {

    /** The time zone's setting, in lower case. */
    static final String TIME_ZONE = "timezone";

    private SessionSettings() {
    }

    static Statement parse(String sql) {
        SqlNode node = SqlFrontEnd.parse(sql);
        if (!(node instanceof SqlSetOption set)) {
            throw SupportCheck.unsupported(node.getKind().name().replace('_', ' '), node.getParserPosition());
        }
        String name = set.getName().toString().toLowerCase(Locale.ROOT);
        if (!name.equals(TIME_ZONE)) {
            throw new SqlError("unsupported: the setting " + set.getName() + SupportCheck.at(set.getName()
                    .getParserPosition()) + " (Tessera's settings: TimeZone)");
        }
        SqlNode value = set.getValue();
        if (value == null) {
            return new Statement.SetOption(TIME_ZONE, null); // RESET
        }
        String text = switch (value) {
            case SqlLiteral l when l.getValue() != null -> l.toValue();
            case SqlIdentifier id when id.isSimple() -> id.getSimple();
            default -> throw new SqlError("SET TimeZone takes a zone's name as a string"
                    + SupportCheck.at(value.getParserPosition()));
        };
        try {
            ZonedTimestamps.zone(text);
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + SupportCheck.at(value.getParserPosition())
                    + " (a name such as 'UTC', 'Europe/Berlin' or 'America/New_York')", e);
        }
        return new Statement.SetOption(TIME_ZONE, text);
    }
}
