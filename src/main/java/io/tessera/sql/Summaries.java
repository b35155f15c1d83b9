package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/**
 * The query of {@code SUMMARIZE}: one row per column of a relation, with DuckDB's columns column_name,
 * column_type, min, max, approx_unique, avg, std, q25, q50, q75, count and null_percentage. The quartiles are
 * exact where DuckDB's are approximate (its approx_quantile), so they may differ from DuckDB's on the same data: a
 * number's QUANTILE_CONT, a DATE's or TIMESTAMP's QUANTILE_DISC (a value of the column's type, as DuckDB's), NULL
 * for other types. Built as a parsed tree, a UNION ALL of one aggregate per column over the relation; names enter
 * it as identifiers and literals, never as SQL text.
 */
public final class Summaries {

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    private Summaries() {
    }

    /** One column of the relation: its name, its type as DESCRIBE writes it, and whether it is a number. */
    public record Column(String name, String type, boolean numeric) {
    }

    /** The summary of the relation {@code relation} (a query's text) with these columns. */
    public static SqlNode query(String relation, List<Column> columns) {
        SqlNode union = null;
        for (Column c : columns) {
            SqlNode branch = branch(SqlFrontEnd.parse(relation), c);
            union = union == null ? branch : SqlStdOperatorTable.UNION_ALL.createCall(POS, union, branch);
        }
        return union;
    }

    private static SqlNode branch(SqlNode relation, Column c) {
        SqlIdentifier col = new SqlIdentifier(List.of("s", c.name()), POS);
        SqlNode count = call("count", SqlIdentifier.star(POS));
        List<SqlNode> items = new ArrayList<>();
        items.add(as(SqlLiteral.createCharString(c.name(), "UTF8", POS), "column_name"));
        items.add(as(SqlLiteral.createCharString(c.type(), "UTF8", POS), "column_type"));
        items.add(as(varchar(call("min", col)), "min"));
        items.add(as(varchar(call("max", col)), "max"));
        items.add(as(call("approx_count_distinct", col), "approx_unique"));
        items.add(as(varchar(c.numeric() ? call("avg", col) : SqlLiteral.createNull(POS)), "avg"));
        items.add(as(varchar(c.numeric() ? call("stddev_samp", col) : SqlLiteral.createNull(POS)), "std"));
        for (String q : List.of("25", "50", "75")) {
            items.add(as(varchar(quartile(c, col, q)), "q" + q));
        }
        items.add(as(count, "count"));
        SqlNode nulls = SqlStdOperatorTable.MINUS.createCall(POS, call("count", SqlIdentifier.star(POS)),
                call("count", col));
        SqlNode percent = SqlStdOperatorTable.DIVIDE.createCall(POS,
                SqlStdOperatorTable.MULTIPLY.createCall(POS, SqlLiteral.createExactNumeric("100.0", POS), nulls),
                SqlStdOperatorTable.NULLIF.createCall(POS, call("count", SqlIdentifier.star(POS)),
                        SqlLiteral.createExactNumeric("0", POS)));
        items.add(as(SqlStdOperatorTable.CAST.createCall(POS, percent, new SqlDataTypeSpec(
                new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, 9, 2, POS), POS)), "null_percentage"));
        SqlNode from = SqlStdOperatorTable.AS.createCall(POS, relation, new SqlIdentifier("s", POS));
        return new SqlSelect(POS, null, new SqlNodeList(items, POS), from, null, null, null, null, null, null, null,
                null, null);
    }

    /** The column's quartile {@code 0.<q>}, exact (see the class comment), or NULL where it has none. */
    private static SqlNode quartile(Column c, SqlNode col, String q) {
        boolean temporal = c.type().equals("DATE") || c.type().startsWith("TIMESTAMP");
        if (!c.numeric() && !temporal) {
            return SqlLiteral.createNull(POS);
        }
        return new SqlUnresolvedFunction(new SqlIdentifier(c.numeric() ? "quantile_cont" : "quantile_disc", POS), null,
                null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
                .createCall(POS, col, SqlLiteral.createExactNumeric("0." + q, POS));
    }

    private static SqlNode call(String function, SqlNode arg) {
        return new SqlUnresolvedFunction(new SqlIdentifier(function, POS), null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(POS, arg);
    }

    private static SqlNode varchar(SqlNode e) {
        return SqlStdOperatorTable.CAST.createCall(POS, e,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, POS), POS));
    }

    private static SqlNode as(SqlNode e, String name) {
        return SqlStdOperatorTable.AS.createCall(POS, e, new SqlIdentifier(name, POS));
    }
}
