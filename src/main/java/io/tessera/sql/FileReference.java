package io.tessera.sql;

import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Map;
import java.util.Set;

/**
 * A file named in FROM: {@code FROM 'f.parquet'} ({@code function} null) or {@code read_parquet('f')},
 * {@code read_csv('f', delim = ';', header = true)}, {@code read_csv(['a.csv', 'b.csv'])} and their DuckDB synonyms.
 * {@code paths} are the names written (one, or a list's), each of which may hold a glob in its last component;
 * {@code options} are the named arguments (lower-case names, values as text); {@code columns} the names and type
 * names of {@code read_csv}'s {@code columns = {'a': 'INTEGER', ...}}, in order (empty where not given);
 * {@code usedNames} holds every name the statement spells (lower case), so that a file's columns of other names need
 * not be read, or is null when the statement may use every column (a {@code *}, a NATURAL join, column aliases);
 * {@code bounds} the conditions all its used rows meet. {@code position} is where the statement names the file, for
 * errors.
 */
public record FileReference(String function, java.util.List<String> paths, Map<String, String> options,
                            Map<String, String> columns, Set<String> usedNames, java.util.List<Bound> bounds,
                            SqlParserPos position) {

    /** The file's name as messages give it: the one written, or a list's names. */
    public String path() {
        return paths.size() == 1 ? paths.getFirst() : String.join(", ", paths);
    }

    /**
     * A condition every row the statement uses from the file meets ({@code id > 2500}, a conjunct of the WHERE of a
     * query whose only FROM item is the file): a reader may leave out rows that cannot meet it. {@code op} is one
     * of {@code < <= > >= =}, with the column on the left.
     */
    public record Bound(String column, String op, java.math.BigDecimal value) {
    }

    /** Whether the file is read as Parquet: by the function's name, else by the name's ending. */
    public boolean parquet() {
        if (function != null) {
            return function.equals("read_parquet") || function.equals("parquet_scan");
        }
        return paths.getFirst().toLowerCase(java.util.Locale.ROOT).endsWith(".parquet");
    }

    /** Where the statement names the file, as errors say it. */
    public String at() {
        return " at line " + position.getLineNum() + ", column " + position.getColumnNum();
    }
}
