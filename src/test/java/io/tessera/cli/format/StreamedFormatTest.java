package io.tessera.cli.format;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every format written batch by batch, as the shell streams a result, gives the text of the whole result. */
class StreamedFormatTest {

    static final List<ResultColumn> COLUMNS = List.of(new ResultColumn("id", DataType.INTEGER, false),
            new ResultColumn("name", DataType.VARCHAR, true));

    static List<Object[]> rows(int n) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {i, i % 3 == 0 ? null : "n" + i});
        }
        return rows;
    }

    static String streamed(OutputFormat f, List<ResultColumn> columns, List<Object[]> rows, int batch) {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        ResultFormatter.Rows w = f.formatter().open(columns, out);
        for (int i = 0; i < rows.size(); i += batch) {
            w.rows(rows.subList(i, Math.min(rows.size(), i + batch)));
        }
        w.finish();
        return s.toString();
    }

    @Test
    void batchesGiveTheWholeResultsText() {
        for (OutputFormat f : OutputFormat.values()) {
            for (int n : new int[] {0, 1, 7, 100}) {
                QueryResult whole = new QueryResult(COLUMNS, rows(n), 0, 0);
                assertEquals(f.formatter().format(whole), streamed(f, COLUMNS, rows(n), 3), f + " " + n);
            }
            assertEquals(f.formatter().format(new QueryResult(List.of(), List.of(), 0, 0)),
                    streamed(f, List.of(), List.of(), 3), f + " no columns");
        }
    }

    @Test
    void aLongTableWidensInANewSectionWhenALaterRowIsWider() {
        List<Object[]> rows = rows(TableFormatter.FIRST_ROWS + 5000);
        rows.add(new Object[] {-1, "a much longer name than any before"});
        String text = streamed(OutputFormat.TABLE, COLUMNS, rows, 4096);
        String[] lines = text.split("\n");
        long headers = java.util.Arrays.stream(lines).filter(l -> l.contains(" id | name")).count();
        assertEquals(2, headers, "the header again at the wider width");
        assertTrue(text.contains("| a much longer name than any before |"), "the wide row fits its column");
        assertTrue(text.endsWith("(" + rows.size() + " rows)\n"), text.substring(text.length() - 40));
    }
}
