package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * DuckDB's {@code a UNION [ALL] BY NAME b}: the branches' columns matched by name, ignoring case; the result has
 * every name once, in the order the names first appear (spelled as there), a column that a branch lacks NULL in its
 * rows. The parser reads the operator as one of this class, one per occurrence. The names of a branch are known only
 * once it is validated ({@code SELECT *}), so {@link #rewrite} first validates a copy of the statement, in which this
 * operator types the union by name and keeps each branch's column names; then it makes each such union of the
 * statement itself the plain UNION of one {@code SELECT b.x AS x, NULL AS y, ... FROM (branch) AS b} per branch,
 * which the validator types as any UNION.
 */
public final class UnionByName extends SqlSetOperator {

    /** The alias of a branch inside the SELECT that puts its columns in the result's order. */
    private static final String BRANCH = "by_name";

    /** Each branch's column names, as the copy's validation found them; null before. */
    private List<List<String>> branchNames;

    private UnionByName(boolean all) {
        super(all ? "UNION ALL BY NAME" : "UNION BY NAME", SqlKind.UNION, 12, all);
    }

    /** The operator of one {@code UNION [ALL] BY NAME} the parser reads. */
    public static SqlSetOperator operator(boolean all) {
        return new UnionByName(all);
    }

    /** The row type of the union by name, its branches validated; keeps the branches' names for the rewrite. */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        RelDataTypeFactory types = validator.getTypeFactory();
        List<List<String>> names = new ArrayList<>();
        Map<String, Column> columns = new LinkedHashMap<>();
        for (SqlNode branch : call.getOperandList()) {
            RelDataType row = validator.getValidatedNodeType(branch);
            List<String> branchColumns = row.getFieldNames();
            for (int i = 0; i < branchColumns.size(); i++) {
                String key = branchColumns.get(i).toLowerCase(Locale.ROOT);
                for (int j = 0; j < i; j++) {
                    if (branchColumns.get(j).toLowerCase(Locale.ROOT).equals(key)) {
                        throw new SqlError(getName() + " does not take a name twice in one branch: \""
                                + branchColumns.get(i) + "\" is the name of two of its columns"
                                + SupportCheck.at(branch.getParserPosition()));
                    }
                }
                String name = branchColumns.get(i);
                columns.computeIfAbsent(key, k -> new Column(name, new ArrayList<>())).types()
                        .add(row.getFieldList().get(i).getType());
            }
            names.add(List.copyOf(branchColumns));
        }
        branchNames = names;
        List<String> resultNames = new ArrayList<>();
        List<RelDataType> resultTypes = new ArrayList<>();
        for (Column c : columns.values()) {
            RelDataType type = types.leastRestrictive(c.types());
            if (type == null) {
                type = c.types().get(0); // the plain UNION's validation says which types do not unite
            }
            resultNames.add(c.name());
            resultTypes.add(c.types().size() < names.size() ? types.createTypeWithNullability(type, true) : type);
        }
        return types.createStructType(resultTypes, resultNames);
    }

    private record Column(String name, List<RelDataType> types) {
    }

    /**
     * {@code statement} with each UNION BY NAME made a plain UNION, its names read by validating a copy of the
     * statement with a validator {@code validators} gives.
     */
    static SqlNode rewrite(SqlNode statement, Supplier<TesseraValidator> validators) {
        List<SqlBasicCall> unions = new ArrayList<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getOperator() instanceof UnionByName && call instanceof SqlBasicCall basic) {
                    unions.add(basic);
                }
                return super.visit(call);
            }
        });
        if (unions.isEmpty()) {
            return statement;
        }
        SqlNode copy = SqlCopies.deep(statement);
        TesseraValidator probe = validators.get();
        probe.repeatNamesIn(copy);
        probe.validate(copy);
        for (SqlBasicCall union : unions) {
            UnionByName op = (UnionByName) union.getOperator();
            if (op.branchNames == null) {
                throw new SqlError("unsupported: " + op.getName() + " where its branches' columns are not known"
                        + SupportCheck.at(union.getParserPosition()));
            }
            List<String> result = resultNames(op.branchNames);
            for (int i = 0; i < union.operandCount(); i++) {
                union.setOperand(i, inResultOrder(union.operand(i), op.branchNames.get(i), result));
            }
            union.setOperator(op.isAll() ? SqlStdOperatorTable.UNION_ALL : SqlStdOperatorTable.UNION);
        }
        return statement;
    }

    /** The names of the result: every branch's names once, ignoring case, in the order they first appear. */
    private static List<String> resultNames(List<List<String>> branchNames) {
        Map<String, String> names = new LinkedHashMap<>();
        for (List<String> branch : branchNames) {
            for (String name : branch) {
                names.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
            }
        }
        return List.copyOf(names.values());
    }

    /** {@code SELECT by_name.x AS x, NULL AS y, ... FROM (branch) AS by_name}: the branch's columns by name. */
    private static SqlNode inResultOrder(SqlNode branch, List<String> branchNames, List<String> result) {
        SqlParserPos pos = branch.getParserPosition();
        Map<String, String> byKey = new LinkedHashMap<>();
        for (String name : branchNames) {
            byKey.put(name.toLowerCase(Locale.ROOT), name);
        }
        List<SqlNode> items = new ArrayList<>();
        for (String name : result) {
            String own = byKey.get(name.toLowerCase(Locale.ROOT));
            SqlNode value = own == null ? SqlLiteral.createNull(pos) : new SqlIdentifier(List.of(BRANCH, own), pos);
            items.add(SqlStdOperatorTable.AS.createCall(pos, value, new SqlIdentifier(name, pos)));
        }
        SqlNode from = SqlStdOperatorTable.AS.createCall(pos, branch, new SqlIdentifier(BRANCH, pos));
        return new SqlSelect(pos, null, new SqlNodeList(items, pos), from, null, null, null, null, null, null, null,
                null, null);
    }
}
