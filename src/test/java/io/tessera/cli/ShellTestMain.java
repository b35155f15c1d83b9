package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;

import java.util.List;

/**
 * {@code tessera} with a stand-in for the SQL engine, for driving the real interactive shell from a terminal
 * multiplexer in tests: every statement answers one row holding the statement's text, except statements
 * starting with "fail", which throw, and {@code rows N}, which answers N rows numbered from 1. With {@code -Dtessera.test.engine=true} the real engine runs the statements.
 */
public final class ShellTestMain {

    private ShellTestMain() {
    }

    public static void main(String[] args) {
        SqlCommand.interactiveCheck = () -> true;
        if (!Boolean.getBoolean("tessera.test.engine")) { // -Dtessera.test.engine=true: the real engine
            SqlCommand.runners = t -> ShellTestMain::answer;
        }
        System.exit(Main.run(args));
    }

    static QueryResult answer(String sql) {
        if (sql.startsWith("fail")) {
            throw new IllegalArgumentException("no such thing: " + sql);
        }
        if (sql.matches("rows \\d+")) {
            List<Object[]> rows = new java.util.ArrayList<>();
            for (int i = 1; i <= Integer.parseInt(sql.substring(5)); i++) {
                rows.add(new Object[] {i});
            }
            return new QueryResult(List.of(new ResultColumn("n", DataType.INTEGER, false)), rows, 0, 0);
        }
        return new QueryResult(List.of(new ResultColumn("sql", DataType.VARCHAR, false),
                new ResultColumn("len", DataType.INTEGER, false)),
                List.<Object[]>of(new Object[] {sql.replace('\n', ' '), sql.length()}), 1_000_000, 2_000_000);
    }
}
