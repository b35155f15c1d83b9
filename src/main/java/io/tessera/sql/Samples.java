package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
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
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

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
 * A seed in the sample itself (REPEATABLE (s), {@code (bernoulli, s)}) makes it deterministic by a hash of the seed
 * and each row instead of random() ({@link #seeded}): the same rows for the same seed and table, whatever the
 * rows' order and the threads, though not the rows DuckDB's generator picks.
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
        if (seed instanceof SqlNumericLiteral n) {
            query = seeded(from, method, percent, size, n.bigDecimalValue().toPlainString(), pos);
        } else if (!percent) {
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

    /**
     * A sample with a seed: each row keyed by the MD5 of the seed, the row's text ({@link #ROW_TEXT}) and the row's
     * number among the rows of that text (so that equal rows, which no order tells apart, get keys of their own);
     * a percentage by bernoulli or system keeps the rows whose key's first 52 bits, as a fraction, are below the
     * share; reservoir keeps the rows of the smallest keys. The keys depend on neither the rows' order nor the
     * threads: the same seed on the same rows keeps the same rows.
     */
    private static SqlNode seeded(SqlNode from, String method, boolean percent, BigDecimal size, String seed,
                                  SqlParserPos pos) {
        SqlNodeList star = SqlNodeList.of(SqlIdentifier.star(pos));
        SqlNodeList withText = SqlNodeList.of(SqlIdentifier.star(pos), as(ROW_TEXT.createCall(pos), ROW, pos));
        SqlNode numbered = over(SqlStdOperatorTable.ROW_NUMBER.createCall(pos), SqlNodeList.EMPTY,
                SqlNodeList.of(new SqlIdentifier(ROW, pos)), pos);
        SqlNode hashed = concat(pos, SqlLiteral.createCharString(seed + "#", pos), new SqlIdentifier(ROW, pos),
                SqlLiteral.createCharString("#", pos), varchar(numbered, pos));
        SqlNode key = new SqlUnresolvedFunction(new SqlIdentifier("md5", pos), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(pos, hashed);
        SqlNodeList withKey = SqlNodeList.of(SqlIdentifier.star(pos), as(key, KEY, pos));
        SqlNode keyed = select(withKey, select(withText, from, null, null, pos), null, null, pos);
        SqlNodeList kept = SqlNodeList.of(new AllColumns.ModifiedStar(SqlIdentifier.star(pos),
                List.of(new SqlIdentifier(ROW, pos), new SqlIdentifier(KEY, pos)), pos));
        BigDecimal share = size.divide(BigDecimal.valueOf(100));
        if (!percent) {
            return new SqlOrderBy(pos, select(kept, keyed, null, null, pos), SqlNodeList.of(new SqlIdentifier(KEY,
                    pos)), null, SqlLiteral.createExactNumeric(size.toBigInteger().toString(), pos));
        }
        if (method.equals("reservoir")) {
            SqlNode rank = over(SqlStdOperatorTable.ROW_NUMBER.createCall(pos), SqlNodeList.EMPTY,
                    SqlNodeList.of(new SqlIdentifier(KEY, pos)), pos);
            SqlNode count = over(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)),
                    SqlNodeList.EMPTY, SqlNodeList.EMPTY, pos);
            SqlNode qualify = SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, rank,
                    SqlStdOperatorTable.MULTIPLY.createCall(pos, count, SqlLiteral.createExactNumeric(
                            share.toPlainString(), pos)));
            return select(kept, keyed, null, qualify, pos);
        }
        if (share.compareTo(BigDecimal.ONE) >= 0) {
            return select(kept, keyed, null, null, pos);
        }
        // the key is below the threshold's 13 hex digits exactly where its first 13 digits are
        String threshold = String.format("%013x", share.multiply(BigDecimal.valueOf(1L << 52)).toBigInteger());
        SqlNode below = SqlStdOperatorTable.LESS_THAN.createCall(pos, new SqlIdentifier(KEY, pos),
                SqlLiteral.createCharString(threshold, pos));
        return select(kept, keyed, below, null, pos);
    }

    /** The columns a seeded sample adds to the sampled table's for a while: the row's text and its key. */
    private static final String ROW = "tessera_sample_row";
    private static final String KEY = "tessera_sample_key";

    /**
     * A row's text in a seeded sample's SELECT, until the validator writes it from the FROM's columns ({@link
     * #rowText}).
     */
    public static final SqlSpecialOperator ROW_TEXT = new SqlSpecialOperator("SAMPLE ROW TEXT", SqlKind.OTHER);

    /** Whether a select list holds {@link #ROW_TEXT}. */
    static boolean holdsRowText(SqlNodeList items) {
        return items.stream().anyMatch(i -> i.getKind() == SqlKind.AS && ((SqlCall) i).operand(0) instanceof SqlCall c
                && c.getOperator() == ROW_TEXT);
    }

    /**
     * {@code items} with {@link #ROW_TEXT} written as the text of the row of {@code columns} (the FROM's star
     * expanded): each column's text after its length and a colon, 'N' for NULL, the columns joined by '|', so
     * that different rows have different texts.
     */
    static SqlNodeList rowText(SqlNodeList items, SqlNodeList columns) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : items) {
            if (!(item.getKind() == SqlKind.AS && ((SqlCall) item).operand(0) instanceof SqlCall c
                    && c.getOperator() == ROW_TEXT)) {
                out.add(item);
                continue;
            }
            SqlParserPos pos = item.getParserPosition();
            List<SqlNode> parts = new ArrayList<>();
            for (SqlNode column : columns) {
                SqlNode read = column.getKind() == SqlKind.AS ? ((SqlCall) column).operand(0) : column;
                if (read instanceof SqlIdentifier id && id.names.get(id.names.size() - 1).equalsIgnoreCase(ROW)) {
                    continue;
                }
                SqlNode text = varchar(read.clone(pos), pos);
                SqlNode length = varchar(SqlStdOperatorTable.CHAR_LENGTH.createCall(pos, varchar(read.clone(pos),
                        pos)), pos);
                parts.add(SqlStdOperatorTable.COALESCE.createCall(pos, concat(pos, length,
                        SqlLiteral.createCharString(":", pos), text), SqlLiteral.createCharString("N", pos)));
                parts.add(SqlLiteral.createCharString("|", pos));
            }
            parts.add(SqlLiteral.createCharString("", pos));
            out.add(as(concat(pos, parts.toArray(SqlNode[]::new)), ROW, pos));
        }
        return new SqlNodeList(out, items.getParserPosition());
    }

    private static SqlNode concat(SqlParserPos pos, SqlNode... parts) {
        SqlNode all = parts[0];
        for (int i = 1; i < parts.length; i++) {
            all = SqlStdOperatorTable.CONCAT.createCall(pos, all, parts[i]);
        }
        return all;
    }

    private static SqlNode varchar(SqlNode e, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, e, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(
                SqlTypeName.VARCHAR, pos), pos));
    }

    private static SqlNode as(SqlNode e, String name, SqlParserPos pos) {
        return SqlStdOperatorTable.AS.createCall(pos, e, new SqlIdentifier(name, pos));
    }

    private static SqlSelect select(SqlNodeList items, SqlNode from, SqlNode where, SqlNode qualify,
                                    SqlParserPos pos) {
        return new SqlSelect(pos, SqlNodeList.EMPTY, items, from, where, null, null, null, qualify, null, null, null,
                null);
    }

    private static SqlNode over(SqlCall aggregate, SqlNodeList order, SqlParserPos pos) {
        return over(aggregate, SqlNodeList.EMPTY, order, pos);
    }

    private static SqlNode over(SqlCall aggregate, SqlNodeList partition, SqlNodeList order, SqlParserPos pos) {
        SqlWindow window = SqlWindow.create(null, null, partition, order, SqlLiteral.createBoolean(false, pos),
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
