package io.tessera.sql;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNumericLiteral;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Integer literals as DuckDB types them: an INTEGER or a BIGINT by their value (Calcite's typing), BIGINT's whole
 * range included; beyond it DuckDB's HUGEINT, which Tessera does not have, so such a literal is an error naming it.
 */
final class IntegerLiterals {

    private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private IntegerLiterals() {
    }

    /**
     * Whether {@code literal} is an integer that a BIGINT holds; an error where it is an integer a BIGINT does not
     * hold; false for every other literal.
     */
    static boolean isBigint(SqlLiteral literal) {
        if (!(literal instanceof SqlNumericLiteral n) || !n.isExact() || n.getScale() == null || n.getScale() != 0) {
            return false;
        }
        BigInteger value = n.getValueAs(BigDecimal.class).toBigIntegerExact();
        if (value.compareTo(MIN) >= 0 && value.compareTo(MAX) <= 0) {
            return true;
        }
        throw new SqlError("integer literal " + value + " is out of BIGINT's range (DuckDB's HUGEINT is not supported)"
                + SupportCheck.at(literal.getParserPosition()));
    }
}
