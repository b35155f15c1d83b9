package io.tessera.sql;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validation error with "did you mean" where a name was not found: a table among the tables and views of the
 * database (and the files the statement names), a column among the columns of the tables the statement names (of
 * the one table or alias the message names, where it names one).
 */
final class NameHints {

    /** Calcite's messages for a table, a column anywhere, and a column of one table or alias. */
    private static final Pattern TABLE = Pattern.compile("(?:Object|Table) '([^']+)' not found$");
    private static final Pattern ANY_COLUMN = Pattern.compile("Column '([^']+)' not found in any table$");
    private static final Pattern TABLE_COLUMN = Pattern.compile("Column '([^']+)' not found in table '([^']+)'$");

    private NameHints() {
    }

    /**
     * The error for a validation failure: Calcite's message, with a hint where it is a name not found.
     * {@code columns} holds each table's and view's column names by name (a view's may be empty).
     */
    static SqlError error(CalciteContextException e, SqlNode statement, Map<String, List<String>> columns) {
        String message = e.getMessage() == null ? "invalid statement" : e.getMessage();
        return new SqlError(message + hint(message, statement, columns), e);
    }

    static String hint(String message, SqlNode statement, Map<String, List<String>> columns) {
        Matcher m = TABLE.matcher(message);
        if (m.find()) {
            return DidYouMean.hint(m.group(1), columns.keySet());
        }
        m = TABLE_COLUMN.matcher(message);
        if (m.find()) {
            String table = aliases(statement, columns).getOrDefault(m.group(2).toLowerCase(Locale.ROOT),
                    m.group(2));
            List<String> of = find(columns, table);
            return DidYouMean.hint(m.group(1), of != null ? of : columnsNamed(statement, columns));
        }
        m = ANY_COLUMN.matcher(message);
        if (m.find()) {
            return DidYouMean.hint(m.group(1), columnsNamed(statement, columns));
        }
        return "";
    }

    /** The columns of every table or view the statement names. */
    private static Set<String> columnsNamed(SqlNode statement, Map<String, List<String>> columns) {
        Set<String> out = new LinkedHashSet<>();
        for (String table : tablesNamed(statement, columns)) {
            out.addAll(find(columns, table));
        }
        return out;
    }

    /** The tables and views the statement names (any identifier whose last part is one). */
    private static List<String> tablesNamed(SqlNode statement, Map<String, List<String>> columns) {
        List<String> out = new ArrayList<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (!id.isStar() && find(columns, id.names.getLast()) != null) {
                    out.add(id.names.getLast());
                }
                return null;
            }
        });
        return out;
    }

    /** Alias (lower case) to table name, for every {@code table AS alias} of the statement. */
    private static Map<String, String> aliases(SqlNode statement, Map<String, List<String>> columns) {
        Map<String, String> out = new LinkedHashMap<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.AS && call.operandCount() >= 2
                        && call.operand(0) instanceof SqlIdentifier t && call.operand(1) instanceof SqlIdentifier a
                        && find(columns, t.names.getLast()) != null) {
                    out.put(a.getSimple().toLowerCase(Locale.ROOT), t.names.getLast());
                }
                return super.visit(call);
            }
        });
        return out;
    }

    /** The columns of the table or view of this name, in any case; null where there is none. */
    private static List<String> find(Map<String, List<String>> columns, String name) {
        List<String> exact = columns.get(name);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, List<String>> e : columns.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
