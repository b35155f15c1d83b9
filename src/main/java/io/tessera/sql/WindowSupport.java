package io.tessera.sql;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlWindow;

/** The parts of an OVER clause the engine does not run: a frame EXCLUDE clause other than EXCLUDE NO OTHERS. */
final class WindowSupport {

    /** The window functions the engine runs (the aggregates it runs are allowed as aggregates). */
    static final java.util.Set<String> FUNCTIONS = java.util.Set.of("ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK",
            "CUME_DIST", "NTILE", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE");

    private WindowSupport() {
    }

    static void check(SqlWindow w) {
        SqlLiteral exclude = w.getExclude();
        if (exclude != null && !SqlWindow.isExcludeNoOthers(exclude)) {
            throw SupportCheck.unsupported("EXCLUDE in a window frame", w.getParserPosition());
        }
    }
}
