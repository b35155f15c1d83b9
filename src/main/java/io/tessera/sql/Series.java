package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's {@code range(...)} and {@code generate_series(...)} in FROM: the BIGINT values {@code start},
 * {@code start + step}, ... before {@code stop} ({@code range}) or up to it ({@code generate_series}), in one column
 * named as the function. {@code range(stop)} starts at 0 with step 1, {@code range(start, stop)} steps by 1; a NULL
 * argument gives no rows, a step of 0 is an error, as in DuckDB. The arguments are constants (literals, signed).
 */
public record Series(String function, long start, long step, long count, SqlParserPos position, Interval interval) {

    /**
     * The step of a series of TIMESTAMPs ({@code range(DATE '2024-01-01', DATE '2024-02-01', INTERVAL 1 DAY)}): each
     * value the one before plus the months, then the days, then the microseconds, as DuckDB adds an interval;
     * {@code start} is then the first value's microseconds.
     */
    public record Interval(int months, int days, long micros) {
        public java.time.LocalDateTime after(java.time.LocalDateTime t) {
            return t.plusMonths(months).plusDays(days).plus(micros, java.time.temporal.ChronoUnit.MICROS);
        }

        /** Whether the series ascends (else descends); the interval's rough length, months of 30 days. */
        boolean ascends() {
            return ((long) months * 30 + days) * 86_400_000_000L + micros > 0;
        }
    }

    /** Whether the values are TIMESTAMPs (else BIGINTs). */
    public boolean timestamps() {
        return interval != null;
    }

    /** The most rows a series may have (its values are written to a temporary table). */
    public static final long MAX_ROWS = 1_000_000_000L;

    /** The series a FROM item {@code node} names, or null when it names none. */
    static Series of(SqlNode node) {
        if (!(node instanceof SqlCall table) || table.getKind() != SqlKind.COLLECTION_TABLE
                || !(table.operand(0) instanceof SqlCall call)) {
            return null;
        }
        String function = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!function.equals("range") && !function.equals("generate_series")) {
            return null;
        }
        SqlParserPos pos = table.getParserPosition();
        List<SqlNode> args = call.getOperandList();
        if (args.isEmpty() || args.size() > 3) {
            throw new SqlError("no function matches " + function + " with " + args.size() + " arguments at line "
                    + pos.getLineNum() + ", column " + pos.getColumnNum() + " (" + function + "(stop), "
                    + function + "(start, stop), " + function + "(start, stop, step) of BIGINT values)");
        }
        if (args.size() == 3 && SeriesTimestamps.isTemporal(args.getFirst())) {
            return SeriesTimestamps.of(function, args, pos);
        }
        List<BigInteger> values = new ArrayList<>();
        for (SqlNode arg : args) {
            values.add(constant(function, arg));
        }
        if (values.contains(null)) {
            return new Series(function, 0, 1, 0, pos, null); // a NULL argument: no rows
        }
        BigInteger start = values.size() == 1 ? BigInteger.ZERO : values.get(0);
        BigInteger stop = values.size() == 1 ? values.get(0) : values.get(1);
        BigInteger step = values.size() == 3 ? values.get(2) : BigInteger.ONE;
        if (step.signum() == 0) {
            throw new SqlError(function + " at line " + pos.getLineNum() + ", column " + pos.getColumnNum()
                    + ": interval cannot be 0!");
        }
        boolean inclusive = function.equals("generate_series");
        BigInteger count = count(start, stop, step, inclusive);
        if (count.compareTo(BigInteger.valueOf(MAX_ROWS)) > 0) {
            throw new SqlError(function + " at line " + pos.getLineNum() + ", column " + pos.getColumnNum()
                    + " makes " + count + " rows, more than the " + MAX_ROWS + " a series in FROM may have");
        }
        return new Series(function, start.longValueExact(), step.longValueExact(), count.longValueExact(), pos, null);
    }

    /** How many values from {@code start} by {@code step} lie before {@code stop} (or at it, {@code inclusive}). */
    static BigInteger count(BigInteger start, BigInteger stop, BigInteger step, boolean inclusive) {
        BigInteger span = stop.subtract(start);
        if (span.signum() != 0 && span.signum() != step.signum()) {
            return BigInteger.ZERO; // the stop lies behind the start
        }
        BigInteger abs = span.abs();
        BigInteger by = step.abs();
        if (inclusive) {
            return abs.divide(by).add(BigInteger.ONE);
        }
        BigInteger[] qr = abs.divideAndRemainder(by);
        return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    }

    /** The BIGINT value of an argument, null for NULL; anything but an integer constant is an error. */
    private static BigInteger constant(String function, SqlNode arg) {
        boolean negate = false;
        SqlNode n = arg;
        while (n instanceof SqlCall c && (c.getKind() == SqlKind.MINUS_PREFIX || c.getKind() == SqlKind.PLUS_PREFIX)) {
            negate ^= c.getKind() == SqlKind.MINUS_PREFIX;
            n = c.operand(0);
        }
        if (n instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.NULL) {
            return null;
        }
        if (n instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.DECIMAL
                && lit.getValue() instanceof BigDecimal d && d.scale() <= 0) {
            BigInteger v = negate ? d.toBigIntegerExact().negate() : d.toBigIntegerExact();
            if (v.bitLength() < 64) {
                return v;
            }
            SqlParserPos p = arg.getParserPosition();
            throw new SqlError(function + " at line " + p.getLineNum() + ", column " + p.getColumnNum() + ": " + v
                    + " is out of BIGINT's range");
        }
        SqlParserPos p = arg.getParserPosition();
        throw new SqlError("unsupported: " + function + " at line " + p.getLineNum() + ", column " + p.getColumnNum()
                + " takes BIGINT constants (start, stop, step), not " + arg);
    }
}
