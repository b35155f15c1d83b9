package io.tessera.spark;

import java.io.Serializable;
import java.util.List;

/**
 * The query each task runs over its part of the table: what it selects (quoted columns, or aggregates of them), the
 * pushed conditions (whose values are bound to their {@code ?} marks, never written into the text), the grouping,
 * the order and the row limit. Every name in it was found in the table's schema and quoted by {@link SqlText}.
 */
record ScanQuery(String table, List<String> select, List<Condition> where, List<String> groupBy, List<String> orderBy,
                 int limit) implements Serializable {

    ScanQuery {
        select = List.copyOf(select);
        where = List.copyOf(where);
        groupBy = List.copyOf(groupBy);
        orderBy = List.copyOf(orderBy);
    }

    String sql() {
        StringBuilder sb = new StringBuilder("SELECT ");
        // no column needed (count(*) over the rows Spark counts): one constant per row
        sb.append(select.isEmpty() ? "0" : String.join(", ", select));
        sb.append(" FROM ").append(SqlText.quote(table));
        if (!where.isEmpty()) {
            sb.append(" WHERE ").append(String.join(" AND ", where.stream().map(Condition::sql).toList()));
        }
        if (!groupBy.isEmpty()) {
            sb.append(" GROUP BY ").append(String.join(", ", groupBy));
        }
        if (!orderBy.isEmpty()) {
            sb.append(" ORDER BY ").append(String.join(", ", orderBy));
        }
        if (limit >= 0) {
            sb.append(" LIMIT ").append(limit);
        }
        return sb.toString();
    }

    /** The values of the query's {@code ?} marks, in order (only the conditions have any). */
    List<Object> values() {
        List<Object> values = new java.util.ArrayList<>();
        for (Condition c : where) {
            values.addAll(c.values());
        }
        return values;
    }
}
