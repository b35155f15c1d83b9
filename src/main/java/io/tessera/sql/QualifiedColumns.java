package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Table;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The column names of a WHERE over many stored tables listed in FROM qualified with their table's name before
 * validation, where exactly one of the tables has a column of that name: the validator qualifies every name so
 * anyway, but it finds a bare name's table by resolving the name in each table of FROM, each table found again by
 * its name among all of them, so each name costs the square of the tables (most of the parse-to-algebra time of a
 * join of 64 tables). A name that is ambiguous, not found, or in a subquery is left to the validator, and with it
 * its errors.
 *
 * <p>Only for a query of one SELECT whose FROM lists at least {@link #MIN_TABLES} stored tables, so that every
 * other statement is validated as written.
 */
final class QualifiedColumns {

    static final int MIN_TABLES = 13;

    private QualifiedColumns() {
    }

    /** {@code tables}: the stored tables by lower-case name. */
    static void rewrite(SqlNode statement, Map<String, Table> tables) {
        SqlNode query = statement instanceof SqlOrderBy o ? o.query : statement;
        if (!(query instanceof SqlSelect select) || select.getWhere() == null || select.getFrom() == null
                || containsQuery(select.getWhere())) {
            return;
        }
        List<SqlNode> from = new ArrayList<>();
        if (!listed(select.getFrom(), from) || from.size() < MIN_TABLES) {
            return;
        }
        // each column name (lower case) to the one name its table has in FROM; null where several tables have it
        Map<String, String> tableOf = new HashMap<>();
        Map<String, Boolean> qualifiers = new HashMap<>();
        for (SqlNode item : from) {
            SqlIdentifier name = (SqlIdentifier) (item instanceof SqlCall as ? as.operand(0) : item);
            String qualifier = item instanceof SqlCall as ? ((SqlIdentifier) as.operand(1)).getSimple()
                    : name.getSimple();
            Table t = tables.get(name.getSimple().toLowerCase(Locale.ROOT));
            if (t == null || qualifiers.put(qualifier.toLowerCase(Locale.ROOT), true) != null) {
                return; // a view, a file or a table named twice: the validator's work
            }
            for (ColumnSchema c : t.schema().columns()) {
                String key = c.name().toLowerCase(Locale.ROOT);
                tableOf.put(key, tableOf.containsKey(key) ? null : qualifier);
            }
        }
        select.setWhere(select.getWhere().accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (!id.isSimple()) {
                    return id;
                }
                String qualifier = tableOf.get(id.getSimple().toLowerCase(Locale.ROOT));
                return qualifier == null ? id
                        : new SqlIdentifier(List.of(qualifier, id.getSimple()), null, id.getParserPosition(),
                        List.of(id.getParserPosition(), id.getParserPosition()));
            }
        }));
    }

    /** Whether {@code from} is tables separated by commas, each a name or a name AS another; collected in order. */
    private static boolean listed(SqlNode from, List<SqlNode> out) {
        if (from instanceof SqlJoin j) {
            return j.getJoinType() == JoinType.COMMA && j.getCondition() == null && listed(j.getLeft(), out)
                    && listed(j.getRight(), out);
        }
        if (from instanceof SqlIdentifier id && id.isSimple()) {
            out.add(id);
            return true;
        }
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS && as.operandCount() == 2
                && as.operand(0) instanceof SqlIdentifier id && id.isSimple()
                && as.operand(1) instanceof SqlIdentifier alias && alias.isSimple()) {
            out.add(as);
            return true;
        }
        return false;
    }

    /** Whether {@code node} holds a subquery or a lambda, whose names the validator resolves in scopes of their own. */
    private static boolean containsQuery(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                // a lambda's parameters are names too, which no table's column may take
                if (call instanceof SqlSelect || SqlKind.QUERY.contains(call.getKind())
                        || call.getKind() == SqlKind.LAMBDA) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }
}
