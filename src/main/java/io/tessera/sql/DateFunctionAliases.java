package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's date functions that are other names of calls the engine runs, written as those calls before validation
 * (after ColumnNames, so a result column keeps the name as written): DATEPART is DATE_PART; ISODOW, ISOYEAR,
 * YEARWEEK, WEEKOFYEAR, CENTURY, MILLENNIUM, DECADE, HOUR, MINUTE, SECOND, MILLISECOND and MICROSECOND are DATE_PART
 * of that part; DAYNAME and MONTHNAME are
 * STRFTIME's {@code %A} and {@code %B}; NANOSECOND and EPOCH_NS are the microsecond part and EPOCH_US times 1000;
 * TODAY() is CURRENT_DATE; the clock's other names ({@link #CLOCKS}).
 */
final class DateFunctionAliases {

    private DateFunctionAliases() {
    }

    /** The functions that are DATE_PART of a part, by name. */
    private static final Map<String, String> PARTS = Map.ofEntries(Map.entry("ISODOW", "isodow"),
            Map.entry("ISOYEAR", "isoyear"), Map.entry("YEARWEEK", "yearweek"), Map.entry("WEEKOFYEAR", "week"),
            Map.entry("CENTURY", "century"), Map.entry("ERA", "era"), Map.entry("MILLENNIUM", "millennium"), Map.entry("DECADE", "decade"),
            Map.entry("HOUR", "hour"), Map.entry("MINUTE", "minute"), Map.entry("SECOND", "second"),
            Map.entry("MILLISECOND", "millisecond"), Map.entry("MICROSECOND", "microsecond"));

    /** The functions that are STRFTIME of a format, by name. */
    private static final Map<String, String> FORMATS = Map.of("DAYNAME", "%A", "MONTHNAME", "%B");

    /**
     * DuckDB's other names of the clock's functions: GET_CURRENT_TIMESTAMP and TRANSACTION_TIMESTAMP are NOW (the
     * instant the statement was planned), CURRENT_LOCALTIMESTAMP and CURRENT_LOCALTIME are LOCALTIMESTAMP and
     * LOCALTIME; GET_CURRENT_TIME is current_time, refused (a TIME WITH TIME ZONE).
     */
    private static final Set<String> CLOCKS = Set.of("GET_CURRENT_TIMESTAMP", "TRANSACTION_TIMESTAMP",
            "CURRENT_LOCALTIMESTAMP", "CURRENT_LOCALTIME", "GET_CURRENT_TIME");

    static final Set<String> NAMES = names();

    private static Set<String> names() {
        java.util.Set<String> all = new java.util.HashSet<>(PARTS.keySet());
        all.addAll(FORMATS.keySet());
        all.add("DATEPART");
        all.add("TODAY");
        all.add("NANOSECOND");
        all.add("EPOCH_NS");
        all.addAll(CLOCKS);
        return Set.copyOf(all);
    }

    static SqlNode rewrite(SqlNode parsed) {
        return UnresolvedCalls.rewrite(parsed, (name, c) -> {
            SqlParserPos pos = c.getParserPosition();
            List<SqlNode> ops = c.getOperandList();
            if (name.equals("DATEPART")) {
                return new SqlBasicCall(UnresolvedCalls.function("DATE_PART"), ops, pos);
            }
            if (CLOCKS.contains(name)) {
                arguments(c, name, 0);
                return switch (name) {
                    case "CURRENT_LOCALTIMESTAMP" -> new SqlIdentifier("LOCALTIMESTAMP", pos);
                    case "CURRENT_LOCALTIME" -> new SqlIdentifier("LOCALTIME", pos);
                    case "GET_CURRENT_TIME" -> throw TemporalLiterals.currentTime("get_current_time()", pos);
                    default -> TimestampFunctions.lookup("NOW").createCall(pos);
                };
            }
            if (name.equals("TODAY")) {
                arguments(c, name, 0);
                // as the parser reads CURRENT_DATE: a name the validator makes the niladic call of
                return new SqlIdentifier("CURRENT_DATE", pos);
            }
            if (name.equals("NANOSECOND") || name.equals("EPOCH_NS")) {
                // DuckDB's nanoseconds of Tessera's microseconds: the microsecond part, or epoch_us, times 1000
                arguments(c, name, 1);
                SqlNode micros = name.equals("EPOCH_NS")
                        ? new SqlBasicCall(UnresolvedCalls.function("EPOCH_US"), List.of(ops.get(0)), pos)
                        : new SqlBasicCall(UnresolvedCalls.function("DATE_PART"),
                        List.of(SqlLiteral.createCharString("microsecond", pos), ops.get(0)), pos);
                return org.apache.calcite.sql.fun.SqlStdOperatorTable.MULTIPLY.createCall(pos, micros,
                        SqlLiteral.createExactNumeric("1000", pos));
            }
            String part = PARTS.get(name);
            if (part != null) {
                arguments(c, name, 1);
                return new SqlBasicCall(UnresolvedCalls.function("DATE_PART"),
                        List.of(SqlLiteral.createCharString(part, pos), ops.get(0)), pos);
            }
            String format = FORMATS.get(name);
            if (format != null) {
                arguments(c, name, 1);
                return new SqlBasicCall(UnresolvedCalls.function("STRFTIME"),
                        List.of(ops.get(0), SqlLiteral.createCharString(format, pos)), pos);
            }
            return null;
        });
    }

    private static void arguments(SqlCall c, String name, int count) {
        if (c.operandCount() != count) {
            throw new SqlError(name.toLowerCase(Locale.ROOT) + " takes " + (count == 0 ? "no arguments" : "one argument")
                    + ", not " + c.operandCount() + SupportCheck.at(c.getParserPosition()));
        }
    }
}
