package io.tessera.sql;

import io.tessera.storage.Table;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.NlsString;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds the files a statement names in FROM ({@code 'f.csv'}, {@code read_parquet('f')}, {@code read_csv('f',
 * delim = ';')}) and DuckDB's series ({@code range(...)}, {@code generate_series(...)}: {@link Series}), and puts a
 * name of a table holding each one's rows in their place, before the statement is validated. A file without an alias
 * gets its name's stem ({@code 'data/t.csv'} is {@code t}) or the function's name, as in DuckDB. The tables come from
 * a {@link FileTables} of the statement; the names put in their place are made here (never from the statement's
 * text) and are not names a stored table can have.
 */
final class FileReferences {

    static final Set<String> FUNCTIONS = Set.of("read_parquet", "parquet_scan", "read_csv", "read_csv_auto");

    private final FileTables files;
    private final Set<String> usedNames;
    private final Map<String, Table> tables = new LinkedHashMap<>();
    private List<FileReference.Bound> bounds = List.of(); // of the FROM item being replaced

    private FileReferences(FileTables files, Set<String> usedNames) {
        this.files = files;
        this.usedNames = usedNames;
    }

    /**
     * Replaces every file named in FROM of {@code statement} (in place) and returns the tables to add to the
     * catalog under the names put in their place; {@code files} null: a file in FROM is an error.
     */
    static Map<String, Table> replace(SqlNode statement, FileTables files) {
        FileReferences r = new FileReferences(files, usedNames(statement));
        r.walk(statement);
        return r.tables;
    }

    private void walk(SqlNode node) {
        if (node instanceof SqlSelect s) {
            // a file that is the only FROM item: the WHERE's simple comparisons bound the rows used from it
            bounds = s.getFrom() instanceof SqlJoin ? List.of() : FileBounds.of(s.getWhere());
            s.setFrom(from(s.getFrom()));
            bounds = List.of();
            for (SqlNode operand : s.getOperandList()) {
                if (operand != s.getFrom()) {
                    walk(operand);
                }
            }
        } else if (node instanceof SqlNodeList list) {
            for (SqlNode n : list) {
                walk(n);
            }
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                walk(operand);
            }
        }
    }

    private SqlNode from(SqlNode from) {
        if (from == null) {
            return null; // SELECT without FROM
        }
        if (from instanceof SqlJoin j) {
            bounds = List.of();
            j.setLeft(from(j.getLeft()));
            j.setRight(from(j.getRight()));
            walk(j.getCondition());
            return j;
        }
        if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            SqlNode inner = as.operand(0);
            SqlNode replaced = fileTable(inner);
            if (replaced != null) {
                as.setOperand(0, replaced);
            } else {
                walk(inner);
            }
            return as;
        }
        SqlNode replaced = fileTable(from);
        if (replaced != null) {
            SqlParserPos pos = from.getParserPosition();
            return SqlStdOperatorTable.AS.createCall(pos, replaced, new SqlIdentifier(alias(from), pos));
        }
        walk(from);
        return from;
    }

    /** The name of the table holding the rows of the file {@code node} names; null when it names none. */
    private SqlNode fileTable(SqlNode node) {
        Series series = Series.of(node);
        if (series != null) {
            if (files == null) {
                throw new SqlError(series.function() + " in FROM at line " + series.position().getLineNum()
                        + ", column " + series.position().getColumnNum() + " is read only by a statement run on a"
                        + " database (not here)");
            }
            String name = "$file" + tables.size();
            tables.put(name, files.series(series));
            return new SqlIdentifier(name, node.getParserPosition());
        }
        FileReference ref = reference(node);
        if (ref == null) {
            return null;
        }
        if (files == null) {
            throw new SqlError("a file in FROM" + ref.at() + " is read only by a statement run on a database"
                    + " (not here)");
        }
        String name = "$file" + tables.size();
        tables.put(name, files.table(ref));
        return new SqlIdentifier(name, node.getParserPosition());
    }

    private FileReference reference(SqlNode node) {
        SqlParserPos pos = node.getParserPosition();
        if (node instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.CHAR) {
            return new FileReference(null, List.of(text(lit)), Map.of(), Map.of(), usedNames, bounds, pos);
        }
        if (!(node instanceof SqlCall table) || table.getKind() != SqlKind.COLLECTION_TABLE
                || !(table.operand(0) instanceof SqlCall call)) {
            return null;
        }
        String function = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!FUNCTIONS.contains(function)) {
            return null;
        }
        List<SqlNode> args = call.getOperandList();
        List<String> paths = args.isEmpty() ? null : paths(args.getFirst());
        if (paths == null) {
            throw new SqlError("syntax error at line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": "
                    + function + " needs the file's name in single quotes first (or a list of names: ['a', 'b'])");
        }
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> columns = new LinkedHashMap<>();
        for (SqlNode arg : args.subList(1, args.size())) {
            SqlNode name = null;
            SqlNode value = null;
            if (arg instanceof SqlCall c && c.getKind() == SqlKind.EQUALS) {
                name = c.operand(0);
                value = c.operand(1);
            } else if (arg instanceof SqlCall c && c.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
                name = c.operand(1);
                value = c.operand(0);
            }
            if (name instanceof SqlIdentifier id && id.isSimple() && id.getSimple().equalsIgnoreCase("columns")
                    && value instanceof SqlCall struct && struct.getOperator() == StructOperators.STRUCT_PACK
                    && namesAndTypes(struct, columns)) {
                continue;
            }
            if (!(name instanceof SqlIdentifier id) || !id.isSimple() || !(value instanceof SqlLiteral v)) {
                SqlParserPos p = arg.getParserPosition();
                throw new SqlError("syntax error at line " + p.getLineNum() + ", column " + p.getColumnNum() + ": "
                        + function + " takes options as name = value (delim = ';', header = true, columns = "
                        + "{'a': 'INTEGER'})");
            }
            options.put(id.getSimple().toLowerCase(Locale.ROOT), text(v));
        }
        return new FileReference(function, paths, options, columns, usedNames, bounds, pos);
    }

    /** The names a function's first argument gives: a string, or a list of strings; null for anything else. */
    private static List<String> paths(SqlNode arg) {
        if (arg instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.CHAR) {
            return List.of(text(lit));
        }
        if (!(arg instanceof SqlCall list) || list.getKind() != SqlKind.ARRAY_VALUE_CONSTRUCTOR
                && !list.getOperator().getName().equalsIgnoreCase("LIST_VALUE")) {
            return null;
        }
        List<String> out = new java.util.ArrayList<>();
        for (SqlNode e : list.getOperandList()) {
            if (!(e instanceof SqlLiteral lit) || lit.getTypeName() != SqlTypeName.CHAR) {
                return null;
            }
            out.add(text(lit));
        }
        return out.isEmpty() ? null : out;
    }

    /** {@code {'a': 'INTEGER', ...}}'s names and type names put in {@code into}; false where one is no string. */
    private static boolean namesAndTypes(SqlCall struct, Map<String, String> into) {
        List<SqlNode> ops = struct.getOperandList();
        for (int i = 0; i + 1 < ops.size(); i += 2) {
            if (!(ops.get(i) instanceof SqlLiteral n) || n.getTypeName() != SqlTypeName.CHAR
                    || !(ops.get(i + 1) instanceof SqlLiteral t) || t.getTypeName() != SqlTypeName.CHAR) {
                return false;
            }
            into.put(text(n), text(t));
        }
        return !into.isEmpty();
    }

    private static String text(SqlLiteral lit) {
        if (lit.getTypeName() == SqlTypeName.BOOLEAN) {
            return String.valueOf(lit.booleanValue());
        }
        Object v = lit.getValue();
        return v instanceof NlsString s ? s.getValue() : String.valueOf(lit.toValue());
    }

    /** DuckDB's name of a file table without an alias: the file name's stem, or the function's name. */
    private static String alias(SqlNode node) {
        if (node instanceof SqlLiteral lit) {
            String path = text(lit);
            String file = path.substring(path.lastIndexOf('/') + 1);
            int dot = file.indexOf('.');
            String stem = dot > 0 ? file.substring(0, dot) : file;
            return stem.isEmpty() ? "file" : stem;
        }
        return ((SqlCall) ((SqlCall) node).operand(0)).getOperator().getName().toLowerCase(Locale.ROOT);
    }

    /**
     * Every name the statement spells, in lower case; null where a {@code *} in a select list, a NATURAL join or a
     * list of column aliases may use columns it does not name.
     */
    private static Set<String> usedNames(SqlNode statement) {
        Set<String> names = new HashSet<>();
        boolean[] all = {false};
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                for (String n : id.names) {
                    names.add(n.toLowerCase(Locale.ROOT));
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s && s.getSelectList() != null) {
                    for (SqlNode item : s.getSelectList()) {
                        SqlNode e = item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
                        if (e instanceof SqlIdentifier id && id.isStar()) {
                            all[0] = true;
                        }
                    }
                }
                if (call instanceof SqlJoin j && j.isNatural()
                        || call.getKind() == SqlKind.AS && call.operandCount() > 2) {
                    all[0] = true; // a NATURAL join, or column aliases (t(a, b)) that rename columns by position
                }
                return super.visit(call);
            }
        });
        return all[0] ? null : Set.copyOf(names);
    }
}
