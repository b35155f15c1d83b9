package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.runtime.PairList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Static;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Calcite's validator with standard name resolution where a SELECT alias and a column of the FROM clause share a
 * name. Calcite, once aliases are allowed in GROUP BY and HAVING, lets the alias win; the standard, PostgreSQL
 * and DuckDB let the column win. So before Calcite expands aliases, every simple name that denotes a column of
 * the query's own FROM clause is qualified with its table, which Calcite's alias expansion leaves alone:
 *
 * <ul>
 *   <li>GROUP BY: a name is the column when the FROM clause has one; else a SELECT alias (or an ordinal).
 *   <li>HAVING: a name is the column when the FROM clause has one and it is grouped on or inside an aggregate;
 *       a SELECT alias only where the column could not be used there (as DuckDB does); else the column.
 *   <li>ORDER BY: a whole item that is a bare name is the SELECT alias first (standard); a name inside an
 *       expression is the column first, else the alias (as DuckDB does).
 * </ul>
 *
 * <p>Names of an outer query, and names inside subqueries, are left to Calcite's usual scoping.
 */
final class TesseraValidator extends SqlValidatorImpl {

    /** The SELECTs whose rows are the statement's result, where a name that {@code *} gives twice is repeated. */
    private final Set<SqlSelect> results = Collections.newSetFromMap(new IdentityHashMap<>());

    TesseraValidator(SqlOperatorTable operators, SqlValidatorCatalogReader catalog, RelDataTypeFactory types,
                     Config config) {
        super(operators, catalog, types, config);
    }

    /**
     * Reads which SELECTs of {@code statement}, about to be validated, give the rows of its result: there a column
     * that {@code *} expands to keeps its name where another column has it, as DuckDB repeats it
     * ({@code SELECT * FROM t JOIN u ON t.a = u.a}: a, ..., a). Without this every SELECT is a subquery's.
     */
    void repeatNamesIn(SqlNode statement) {
        results.clear();
        ColumnNames.resultSelects(statement, results);
    }

    /**
     * A column of an expanded {@code *}: in a subquery (and a view) a name that another column of the list has gets
     * DuckDB's suffix, {@code a_1}, where Calcite's would add a digit ({@code a0}), so that the query around it tells
     * the columns apart; in the statement's result the name is kept (see {@link #repeatNamesIn}). A positional
     * join's row numbers ({@link PositionalJoins#POSITION}) are no column of a star.
     */
    @Override
    protected void addToSelectList(List<SqlNode> list, Set<String> aliases,
                                   List<Map.Entry<String, RelDataType>> fieldList, SqlNode exp, SelectScope scope,
                                   boolean includeSystemVars) {
        String alias = SqlValidatorUtil.alias(exp);
        if (PositionalJoins.POSITION.equals(alias)) {
            return; // the numbers of a positional join's rows, which no star shows
        }
        String name;
        if (scope.getNode() instanceof SqlSelect select && results.contains(select)) {
            aliases.add(alias);
            name = alias;
        } else {
            name = SqlValidatorUtil.uniquify(alias, aliases, (original, attempt, size) -> original + "_" + (attempt + 1));
        }
        SqlNode item = java.util.Objects.equals(alias, name) ? exp : SqlValidatorUtil.addAlias(exp, name);
        ((PairList<String, RelDataType>) fieldList).add(name, deriveType(scope, item));
        list.add(item);
    }

    /**
     * An integer literal is a BIGINT as far as BIGINT reaches (-9223372036854775808 too, which the parser reads with
     * its sign), though its 19 digits pass the DECIMAL precision Calcite's check holds every exact literal to; past
     * BIGINT, where DuckDB's literal is a HUGEINT, an error naming the literal ({@link IntegerLiterals}).
     */
    @Override
    public void validateLiteral(org.apache.calcite.sql.SqlLiteral literal) {
        if (IntegerLiterals.isBigint(literal)) {
            return;
        }
        super.validateLiteral(literal);
    }

    /**
     * A SELECT item that is a column reference names its result column as the column is named where it comes from
     * (the table's column {@code Abc} for {@code abc}, {@code ABC} or {@code "abc"}), as DuckDB names it: names are
     * matched ignoring case, and Calcite, which names the column as the reference is written, is handed the
     * reference spelled as the expansion resolved it before it derives the name.
     */
    @Override
    public SqlNode expandSelectExpr(SqlNode expr, SelectScope scope, SqlSelect select,
                                    Map<String, SqlNode> expansions) {
        SqlNode expanded = super.expandSelectExpr(expr, scope, select, expansions);
        // a column of a FROM item expands to alias.column; a field of a STRUCT column (s.a), which DuckDB names as
        // written, to alias.column.field
        if (expr instanceof SqlIdentifier written && !written.isStar() && expanded instanceof SqlIdentifier resolved
                && !resolved.isStar() && resolved.names.size() == 2) {
            String name = Util.last(resolved.names);
            int last = written.names.size() - 1;
            if (!written.names.get(last).equals(name) && written.names.get(last).equalsIgnoreCase(name)) {
                List<String> names = new ArrayList<>(written.names);
                names.set(last, name);
                written.setNames(names, null);
            }
        }
        return expanded;
    }

    /**
     * A SELECT with its COLUMNS(...) items and WHERE expanded ({@link ColumnsSelections}) and its dotted names read first as
     * table.column, then as column.field ({@link StructFieldNames}).
     */
    @Override
    protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
        if (ColumnsSelections.holds(select.getWhere())) {
            for (var child : getRawSelectScope(select).getChildren()) {
                validateNamespace(child, unknownType);
            }
            select.setWhere(ColumnsSelections.expandWhere(select.getWhere(),
                    star -> expandStar(SqlNodeList.of(star), select, false), getCatalogReader().nameMatcher()));
        }
        if (ColumnsSelections.holds(select.getSelectList())) {
            // COLUMNS(...): its items expanded before any clause reads the select list (GROUP BY ALL, ordinals),
            // from the FROM's columns, whose namespaces are validated first (validating one again does nothing)
            for (var child : getRawSelectScope(select).getChildren()) {
                validateNamespace(child, unknownType);
            }
            select.setSelectList(ColumnsSelections.expand(select.getSelectList(),
                    star -> expandStar(SqlNodeList.of(star), select, false), getCatalogReader().nameMatcher()));
        }
        if (Samples.holdsRowText(select.getSelectList())) {
            // a seeded sample's row text, written from the FROM's columns
            for (var child : getRawSelectScope(select).getChildren()) {
                validateNamespace(child, unknownType);
            }
            SqlParserPos pos = select.getSelectList().getParserPosition();
            select.setSelectList(Samples.rowText(select.getSelectList(),
                    expandStar(SqlNodeList.of(SqlIdentifier.star(pos)), select, false)));
        }
        StructFieldNames.qualify(select, getRawSelectScope(select), getCatalogReader().nameMatcher());
        JoinColumns common = joinColumns(select);
        if (common != null) {
            common.bindNames(select);
        }
        super.validateSelect(select, targetRowType);
    }

    /** The common columns of the select's USING and NATURAL joins, its tables validated first; null if none. */
    private JoinColumns joinColumns(SqlSelect select) {
        if (!JoinColumns.holds(select)) {
            return null;
        }
        List<RelDataType> rowTypes = new ArrayList<>();
        for (var child : getRawSelectScope(select).getChildren()) {
            validateNamespace(child, unknownType);
            rowTypes.add(child.getRowType());
        }
        return JoinColumns.of(select, rowTypes, getCatalogReader().nameMatcher());
    }

    /**
     * VALUES rows with string literals beside a temporal type's values read as that type ({@link TemporalText}), and
     * a column of STRUCTs or LISTs with text in a part beside another type refused ({@link NestedCommonType}); not
     * an INSERT's rows (those with a target row type), each of which is cast to its column's type, as in DuckDB.
     */
    @Override
    protected void validateValues(SqlCall node, RelDataType targetRowType, SqlValidatorScope scope) {
        boolean inserted = targetRowType.isStruct();
        if (!inserted) {
            TemporalText.readInValues(this, node, scope);
        }
        super.validateValues(node, targetRowType, scope);
        List<SqlNode> rows = node.getOperandList();
        if (inserted || rows.size() < 2 || !(rows.get(0) instanceof SqlCall first)) {
            return;
        }
        for (int c = 0; c < first.operandCount(); c++) {
            List<SqlNode> values = new ArrayList<>();
            List<RelDataType> types = new ArrayList<>();
            for (SqlNode row : rows) {
                if (!(row instanceof SqlCall r) || r.operandCount() != first.operandCount()) {
                    return;
                }
                values.add(r.operand(c));
                types.add(deriveType(scope, r.operand(c)));
            }
            NestedCommonType.refuseTextBesideOther("VALUES", values, types);
        }
    }

    /**
     * Calcite's check of an aggregate query's expressions knows no lambda parameters: it would read one as a column
     * that is not grouped. There (and only there: its caller is that check) a lambda's parameter, which {@link
     * LambdaCaptures} named, is a call of no arguments, which the check lets through; everywhere else it is the
     * parameter.
     */
    @Override
    public org.apache.calcite.sql.SqlCall makeNullaryCall(org.apache.calcite.sql.SqlIdentifier id) {
        if (id.isSimple() && LambdaCaptures.isParameter(id.getSimple()) && StackWalker.getInstance().walk(
                frames -> frames.skip(1).limit(1).anyMatch(f -> f.getClassName().endsWith(".AggChecker")))) {
            return org.apache.calcite.sql.fun.SqlStdOperatorTable.PI.createCall(id.getParserPosition());
        }
        return super.makeNullaryCall(id);
    }

    /**
     * A lambda's body is typed when its list function types its parameters ({@link LambdaFunctions}), not before with
     * parameters of no type, which a field of a struct parameter ({@code s -> s.a}) cannot be read from.
     */
    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
        if (node instanceof org.apache.calcite.sql.SqlLambda) {
            return;
        }
        super.inferUnknownTypes(inferredType, scope, node);
    }

    /** A CASE of STRUCTs typed from its ELSE first, as DuckDB's ({@link StructCases}), before Calcite types it. */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        if (expr instanceof SqlCase c) {
            StructCases.typeFromElse(this, scope, c);
        }
        return super.deriveType(scope, expr);
    }

    /**
     * A CASE (COALESCE is one) whose STRUCT or LIST results have text in a part beside another type refused, and one
     * whose DECIMAL type would round a result to fewer digits after the point.
     */
    @Override
    public void validateCall(SqlCall call, SqlValidatorScope scope) {
        if (call.getKind() == org.apache.calcite.sql.SqlKind.UNNEST) {
            for (SqlNode operand : call.getOperandList()) {
                if (deriveType(scope, operand).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP) {
                    // Calcite's UNNEST of a MAP gives its entries' keys and values; DuckDB's refuses a MAP
                    throw new SqlError("unsupported: unnest of a MAP" + SupportCheck.at(operand.getParserPosition())
                            + " (unnest map_entries(m), map_keys(m) or map_values(m))");
                }
            }
        }
        super.validateCall(call, scope);
        if (call instanceof SqlCase c) {
            List<SqlNode> values = new ArrayList<>(c.getThenOperands());
            values.add(c.getElseOperand());
            List<RelDataType> types = new ArrayList<>();
            for (SqlNode v : values) {
                types.add(deriveType(scope, v));
            }
            NestedCommonType.refuseTextBesideOther("CASE or COALESCE", values, types);
            NumericFunctions.keepingScale(types, deriveType(scope, c)); // no result rounded to a narrower scale
        }
    }

    @Override
    protected void validateGroupClause(SqlSelect select) {
        if (AllColumns.isGroupByAll(select.getGroup())) {
            select.setGroupBy(AllColumns.groupByAll(select, getOperatorTable(), getCatalogReader().nameMatcher()));
        }
        SqlNodeList group = select.getGroup();
        if (group != null) {
            ColumnsFirst columnsFirst = new ColumnsFirst(select, false);
            List<SqlNode> items = new ArrayList<>();
            for (SqlNode item : group) {
                items.add(item.accept(columnsFirst));
            }
            select.setGroupBy(new SqlNodeList(items, group.getParserPosition()));
        }
        super.validateGroupClause(select);
    }

    @Override
    protected void validateHavingClause(SqlSelect select) {
        SqlNode having = select.getHaving();
        if (having != null) {
            select.setHaving(having.accept(new ColumnsFirst(select, true)));
        }
        super.validateHavingClause(select);
    }

    @Override
    protected void validateOrderList(SqlSelect select) {
        if (AllColumns.hasOrderByAll(select.getOrderList())) {
            select.setOrderBy(AllColumns.orderByAll(select.getOrderList(), select.getSelectList().size()));
        }
        SqlNodeList order = select.getOrderList();
        if (order != null) {
            List<SqlNode> items = new ArrayList<>();
            for (SqlNode item : order) {
                items.add(qualifyOrderItem(select, item));
            }
            select.setOrderBy(new SqlNodeList(items, order.getParserPosition()));
        }
        super.validateOrderList(select);
    }

    /**
     * The select list with {@code * EXCLUDE (...)}: expanded with plain stars, then each star's excluded columns
     * taken out of the expanded list and its type; with REPLACE or RENAME, the star's columns written out first.
     */
    @Override
    protected RelDataType validateSelectList(SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType) {
        if (AllColumns.changesColumns(selectItems)) {
            // REPLACE or RENAME: the star's columns written out as items before the list is validated
            SqlNodeList written = AllColumns.writtenOut(selectItems,
                    star -> expandStar(SqlNodeList.of(star), select, false), getCatalogReader().nameMatcher());
            select.setSelectList(written);
            return validateSelectList(written, select, targetRowType);
        }
        if (!AllColumns.hasExclusions(selectItems)) {
            return boundStarColumns(select, super.validateSelectList(selectItems, select, targetRowType));
        }
        Map<SqlNode, Integer> widths = new java.util.IdentityHashMap<>();
        for (SqlNode item : selectItems) {
            boolean star = item instanceof SqlIdentifier id && id.isStar();
            SqlNode plain = item instanceof AllColumns.ModifiedStar x ? x.star() : item;
            widths.put(item, star ? expandStar(SqlNodeList.of(plain), select, false).size() : 1);
        }
        SqlNodeList plain = AllColumns.withoutExclusions(selectItems);
        select.setSelectList(plain);
        RelDataType rowType = super.validateSelectList(plain, select, targetRowType);
        AllColumns.Expanded kept = AllColumns.exclude(selectItems, select.getSelectList(), rowType, widths::get,
                getCatalogReader().nameMatcher(), getTypeFactory());
        select.setSelectList(kept.items());
        getRawSelectScope(select).setExpandedSelectList(kept.items().getList());
        return kept.rowType();
    }

    /**
     * The columns a star expanded to that are common columns of USING or NATURAL joins, which Calcite made the
     * COALESCE of both sides', bound as DuckDB binds them ({@link JoinColumns}), with their types.
     */
    private RelDataType boundStarColumns(SqlSelect select, RelDataType rowType) {
        JoinColumns common = JoinColumns.holds(select) ? joinColumns(select) : null;
        if (common == null) {
            return rowType;
        }
        List<SqlNode> items = new ArrayList<>(getRawSelectScope(select).getExpandedSelectList());
        List<RelDataType> types = new ArrayList<>();
        boolean changed = false;
        SqlValidatorScope scope = getSelectScope(select);
        // Calcite's row type misses a column where a select item before the star has a common column's name
        // (SELECT k, * FROM a JOIN b USING (k)): then every item's type is derived again
        boolean whole = items.size() == rowType.getFieldCount();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SqlNode bound = common.starColumn(items.get(i));
            if (bound != null) {
                items.set(i, bound);
                changed = true;
            }
            types.add(bound == null && whole ? rowType.getFieldList().get(i).getType()
                    : deriveType(scope, items.get(i)));
            names.add(whole ? rowType.getFieldNames().get(i) : SqlValidatorUtil.alias(items.get(i), i));
        }
        if (!changed && whole) {
            return rowType;
        }
        SqlNodeList list = new SqlNodeList(items, select.getSelectList().getParserPosition());
        select.setSelectList(list);
        getRawSelectScope(select).setExpandedSelectList(items);
        return getTypeFactory().createStructType(types, names);
    }

    /** An ORDER BY item: DESC and NULLS FIRST/LAST kept; a bare name left for the alias lookup. */
    private SqlNode qualifyOrderItem(SqlSelect select, SqlNode item) {
        SqlKind k = item.getKind();
        if (k == SqlKind.DESCENDING || k == SqlKind.NULLS_FIRST || k == SqlKind.NULLS_LAST) {
            SqlCall call = (SqlCall) item;
            SqlNode inner = qualifyOrderItem(select, call.operand(0));
            if (inner == call.operand(0)) {
                return item;
            }
            return call.getOperator().createCall(call.getParserPosition(), inner);
        }
        if (item instanceof SqlIdentifier) {
            return item;
        }
        return item.accept(new ColumnsFirst(select, false));
    }

    /**
     * The table name that qualifies {@code id} as a column of the select's own FROM clause, or null when it is
     * not one (or is the common column of a USING or NATURAL join, which Calcite resolves itself).
     */
    private String owningTable(SqlSelect select, SqlIdentifier id) {
        SelectScope scope = getRawSelectScope(select);
        if (scope == null) {
            return null;
        }
        String name = id.getSimple();
        SqlNameMatcher matcher = getCatalogReader().nameMatcher();
        boolean own = false;
        for (SqlValidatorNamespace ns : scope.getChildren()) {
            RelDataType row = ns.getRowType();
            if (matcher.field(row, name) != null) {
                own = true;
                break;
            }
        }
        if (!own) {
            return null;
        }
        Map<String, ?> tables = scope.findQualifyingTableNames(name, select, matcher);
        if (tables.size() == 1) {
            return tables.keySet().iterator().next();
        }
        // a name of several tables: ambiguous, or a USING/NATURAL join's common column. Calcite resolves it
        // (or says it is ambiguous) unless a SELECT alias of another expression would take its place.
        for (SqlNode s : select.getSelectList()) {
            String alias = SqlValidatorUtil.alias(s);
            if (alias != null && matcher.matches(alias, name)) {
                SqlNode e = s.getKind() == SqlKind.AS ? ((SqlCall) s).operand(0) : s;
                if (!(e instanceof SqlIdentifier ei && matcher.matches(Util.last(ei.names), name))) {
                    throw newValidationError(id, Static.RESOURCE.columnAmbiguous(name));
                }
            }
        }
        return null;
    }

    /** Qualifies simple names that denote a column of the select's own FROM clause, outside subqueries. */
    private final class ColumnsFirst extends SqlShuttle {
        private final SqlSelect select;
        private final boolean having;
        private int aggregateDepth;

        ColumnsFirst(SqlSelect select, boolean having) {
            this.select = select;
            this.having = having;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (!id.isSimple() || id.isStar()) {
                return id;
            }
            String name = id.getSimple();
            String table = owningTable(select, id);
            if (table == null) {
                return id;
            }
            if (having && aggregateDepth == 0 && !grouped(name, table) && hasAlias(name)) {
                return id;
            }
            return new SqlIdentifier(List.of(table, name), id.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (SqlKind.QUERY.contains(call.getKind())) {
                return call; // a subquery resolves its own names
            }
            boolean agg = call.getOperator().isAggregator();
            aggregateDepth += agg ? 1 : 0;
            try {
                return super.visit(call);
            } finally {
                aggregateDepth -= agg ? 1 : 0;
            }
        }

        /** Whether GROUP BY (already validated) refers to the column. */
        private boolean grouped(String name, String table) {
            SqlNodeList group = select.getGroup();
            if (group == null) {
                return false;
            }
            SqlNameMatcher m = getCatalogReader().nameMatcher();
            boolean[] found = {false};
            for (SqlNode g : group) {
                g.accept(new SqlBasicVisitor<Void>() {
                    @Override
                    public Void visit(SqlIdentifier gid) {
                        int n = gid.names.size();
                        if (m.matches(gid.names.get(n - 1), name)
                                && (n == 1 || m.matches(gid.names.get(n - 2), table))) {
                            found[0] = true;
                        }
                        return null;
                    }
                });
            }
            return found[0];
        }

        private boolean hasAlias(String name) {
            SqlNameMatcher m = getCatalogReader().nameMatcher();
            for (SqlNode s : select.getSelectList()) {
                String alias = SqlValidatorUtil.alias(s);
                if (alias != null && m.matches(alias, name)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * An INSERT's LIST or STRUCT value goes to a column of another LIST or STRUCT type as a CAST takes it (fields by
     * name, values converted: {@code DataChangeQueries.rowsToInsert} casts it) where Calcite, which matches the
     * fields by position, refuses it; the other columns are Calcite's to check (and VALUES rows Calcite's to coerce).
     */
    @Override
    protected void checkTypeAssignment(org.apache.calcite.sql.validate.SqlValidatorScope sourceScope,
                                       org.apache.calcite.sql.validate.SqlValidatorTable table,
                                       RelDataType sourceRowType, RelDataType targetRowType, SqlNode query) {
        try {
            super.checkTypeAssignment(sourceScope, table, sourceRowType, targetRowType, query);
        } catch (org.apache.calcite.runtime.CalciteContextException refused) {
            if (!sourceRowType.isStruct() || !targetRowType.isStruct()
                    || sourceRowType.getFieldCount() != targetRowType.getFieldCount()) {
                throw refused;
            }
            RelDataTypeFactory.Builder fields = getTypeFactory().builder();
            for (int i = 0; i < sourceRowType.getFieldCount(); i++) {
                org.apache.calcite.rel.type.RelDataTypeField f = sourceRowType.getFieldList().get(i);
                RelDataType to = targetRowType.getFieldList().get(i).getType();
                fields.add(f.getName(), nested(f.getType()) && nested(to)
                        ? getTypeFactory().createTypeWithNullability(to, f.getType().isNullable()) : f.getType());
            }
            super.checkTypeAssignment(sourceScope, table, fields.build(), targetRowType, query);
        }
    }

    private static boolean nested(RelDataType t) {
        return t.isStruct() || t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP
                || t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY
                && (t.getComponentType().isStruct() || nested(t.getComponentType()));
    }

    /** CASTs as DuckDB allows them: Calcite's, and BOOLEAN to numbers ({@link TextDateFunctions#CASTS}). */
    @Override
    public org.apache.calcite.sql.type.SqlTypeMappingRule getTypeMappingRule() {
        return TextDateFunctions.CASTS;
    }
}
