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
 * position. Besides, DuckDB's {@code SELECT setseed(x)} seeds the connection's random() values.
 */
public final class SessionSettings {

    /** The time zone's setting, in lower case. */
    static final String TIME_ZONE = "timezone";
    /** The seed of random(), which {@code SELECT setseed(x)} sets: a {@link Statement.SetOption} of this name. */
    public static final String SEED = "setseed";

    private SessionSettings() {
    }

    /**
     * {@code SELECT setseed(x)}, DuckDB's way to make the connection's following random() values repeatable: x a
     * constant number from -1 to 1, the only item of a SELECT without FROM. A SetOption named {@link #SEED} whose
     * value is x's text.
     */
    static Statement setseed(String sql) {
        SqlNode node = SqlFrontEnd.parse(sql);
        org.apache.calcite.sql.SqlCall call = node instanceof org.apache.calcite.sql.SqlSelect select
                && select.getFrom() == null && select.getWhere() == null && select.getSelectList().size() == 1
                && select.getSelectList().get(0) instanceof org.apache.calcite.sql.SqlCall c ? c : null;
        if (call == null || !call.getOperator().getName().equalsIgnoreCase(SEED) || call.operandCount() != 1) {
            throw new SqlError("unsupported: setseed(...) other than alone in SELECT setseed(x)"
                    + SupportCheck.at(node.getParserPosition()));
        }
        SqlNode arg = call.operand(0);
        boolean negative = arg.getKind() == org.apache.calcite.sql.SqlKind.MINUS_PREFIX;
        if (negative) {
            arg = ((org.apache.calcite.sql.SqlCall) arg).operand(0);
        }
        if (!(arg instanceof org.apache.calcite.sql.SqlNumericLiteral number)) {
            throw new SqlError("unsupported: setseed of a value that is not a constant number"
                    + SupportCheck.at(call.operand(0).getParserPosition()));
        }
        java.math.BigDecimal seed = number.getValueAs(java.math.BigDecimal.class);
        seed = negative ? seed.negate() : seed;
        if (seed.abs().compareTo(java.math.BigDecimal.ONE) > 0) {
            throw new SqlError("SETSEED accepts seed values between -1.0 and 1.0, inclusive"
                    + SupportCheck.at(call.operand(0).getParserPosition()));
        }
        return new Statement.SetOption(SEED, seed.toPlainString());
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
