package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

import java.math.BigDecimal;

/**
 * DuckDB's samples: {@code t TABLESAMPLE ...} samples a table, {@code USING SAMPLE ...} after a SELECT's FROM and
 * WHERE samples the FROM before the WHERE reads it (here only a FROM of one table or subquery). The parser reads
 * both as a call of {@link #SAMPLE} around the table (table, method, size, unit, seed); {@link #rewrite} makes each a
 * subquery of the table under the table's name that keeps random rows:
 * <ul>
 *   <li>a percentage by bernoulli or system (system's default for a percentage): each row with that chance,
 *       {@code WHERE random() < p / 100} (system sampling is DuckDB's by vectors of rows; here by rows);
 *   <li>a number of rows (reservoir, the default for rows and for a size without a unit, or system): that many
 *       rows at random, all where the table has fewer, {@code ORDER BY random() LIMIT n} (bernoulli is refused, as
 *       DuckDB refuses it);
 *   <li>a percentage by reservoir: that share of the rows, rounded down, {@code QUALIFY row_number() OVER (ORDER BY
 *       random()) <= count(*) OVER () * p / 100}.
 * </ul>
 * Which rows come back is as random as random() is: {@code SELECT setseed(x)} before a query makes them repeatable.
 * A seed in the sample itself (REPEATABLE (s), {@code (bernoulli, s)}) is refused with that hint, since the seed of
 * random() is the connection's.
 */
public final class Samples {

    private Samples() {
    }

    /** A sampled table as the parser reads it: the table, the method, the size, its unit, the seed (NULLs where none). */
    public static final SqlSpecialOperator SAMPLE = new SqlSpecialOperator("SAMPLE", SqlKind.OTHER);

    /** {@code statement} with each sampled table a subquery that keeps its random rows. */
    static SqlNode rewrite(SqlNode statement) {
        return statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                return visited instanceof SqlCall c && c.getOperator() == SAMPLE ? sampled(c) : visited;
            }
        });
    }

    private static SqlNode sampled(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        SqlNode table = call.operand(0);
        String method = text(call.operand(1));
        BigDecimal size = ((SqlNumericLiteral) call.operand(2)).bigDecimalValue();
        String unit = text(call.operand(3));
        SqlNode seed = call.operand(4);
        if (seed instanceof SqlNumericLiteral) {
            throw SupportCheck.unsupported("a sample's seed (REPEATABLE); SELECT setseed(x) before the query makes "
                    + "its random() values, and so its sample, repeatable", seed.getParserPosition());
        }
        boolean percent = "percent".equals(unit);
        if (percent && (size.signum() < 0 || size.compareTo(BigDecimal.valueOf(100)) > 0)) {
            throw new SqlError("Sample sample_size " + size.toPlainString() + " out of range, must be between 0 and 100"
                    + SupportCheck.at(pos));
        }
        if (method == null) {
            method = percent ? "system" : "reservoir";
        }
        if (!percent && method.equals("bernoulli")) {
            throw new SqlError("Sample method Bernoulli cannot be used with a discrete sample count, either "
                    + "switch to reservoir sampling or use a sample_size" + SupportCheck.at(pos));
        }
        if (!percent && size.stripTrailingZeros().scale() > 0) {
            throw new SqlError("a sample of rows takes a whole number of rows, not " + size.toPlainString()
                    + SupportCheck.at(pos));
        }
        String name = name(table);
        SqlNode from = table instanceof SqlBasicCall as && as.getKind() == SqlKind.AS ? as.operand(0) : table;
        SqlNodeList star = SqlNodeList.of(SqlIdentifier.star(pos));
        BigDecimal share = size.divide(BigDecimal.valueOf(100));
        SqlNode query;
        if (!percent) {
            SqlSelect select = select(star, from, null, null, pos);
            query = new SqlOrderBy(pos, select, SqlNodeList.of(random(pos)), null,
                    SqlLiteral.createExactNumeric(size.toBigInteger().toString(), pos));
        } else if (method.equals("reservoir")) {
            SqlNode rank = over(SqlStdOperatorTable.ROW_NUMBER.createCall(pos), SqlNodeList.of(random(pos)), pos);
            SqlNode count = over(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)), SqlNodeList.EMPTY,
                    pos);
            SqlNode kept = SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, rank,
                    SqlStdOperatorTable.MULTIPLY.createCall(pos, count, SqlLiteral.createExactNumeric(
                            share.toPlainString(), pos)));
            query = select(star, from, null, kept, pos);
        } else {
            SqlNode kept = SqlStdOperatorTable.LESS_THAN.createCall(pos, random(pos),
                    SqlLiteral.createApproxNumeric(share.toString() + "E0", pos));
            query = select(star, from, kept, null, pos);
        }
        return name == null ? query : SqlStdOperatorTable.AS.createCall(pos, query, new SqlIdentifier(name, pos));
    }

    private static SqlSelect select(SqlNodeList items, SqlNode from, SqlNode where, SqlNode qualify,
                                    SqlParserPos pos) {
        return new SqlSelect(pos, SqlNodeList.EMPTY, items, from, where, null, null, null, qualify, null, null, null,
                null);
    }

    private static SqlNode over(SqlCall aggregate, SqlNodeList order, SqlParserPos pos) {
        SqlWindow window = SqlWindow.create(null, null, SqlNodeList.EMPTY, order, SqlLiteral.createBoolean(false, pos),
                null, null, null, pos);
        return SqlStdOperatorTable.OVER.createCall(pos, aggregate, window);
    }

    private static SqlNode random(SqlParserPos pos) {
        return new SqlUnresolvedFunction(new SqlIdentifier("random", pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(pos);
    }

    /**
     * The name the sampled table keeps: its alias, else its own name (null: a subquery without an alias); a join or a
     * FROM of several is refused.
     */
    private static String name(SqlNode table) {
        if (table instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            if (as.operandCount() > 2) {
                throw SupportCheck.unsupported("a sample of a table with column aliases", as.getParserPosition());
            }
            return ((SqlIdentifier) as.operand(1)).getSimple();
        }
        if (table instanceof SqlIdentifier id) {
            return Util.last(id.names);
        }
        if (SqlKind.QUERY.contains(table.getKind())) {
            return null; // a subquery without an alias stays without one
        }
        throw SupportCheck.unsupported("USING SAMPLE of " + (table.getKind() == SqlKind.JOIN ? "a join" : "this FROM")
                + " (sample one table: t TABLESAMPLE ..., or a subquery with an alias)", table.getParserPosition());
    }

    private static String text(SqlNode literal) {
        return literal instanceof SqlLiteral l && l.getValue() != null ? l.getValueAs(String.class) : null;
    }
}
