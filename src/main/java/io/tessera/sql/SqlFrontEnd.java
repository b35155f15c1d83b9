package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImpl;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.RelBuilder;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

/**
 * Apache Calcite as Tessera's SQL front-end: parses, validates against the database's tables, converts to
 * relational algebra, removes subqueries and prunes unused columns. The result is a logical plan for the optimizer
 * ({@code optimize.Optimizer}), which pushes filters down and orders joins before {@code plan.PhysicalPlanner}
 * cuts the plan into pipelines.
 */
public final class SqlFrontEnd {

    /**
     * Tessera's parser (Calcite's grammar with the words that both DuckDB and PostgreSQL reserve as its reserved
     * words, and table definitions: {@code src/main/codegen}) for every statement and query. Names are read as
     * written, quoted or not, and matched ignoring case ({@link #catalog}), as DuckDB keeps and matches them.
     */
    static final SqlParser.Config PARSER = SqlParser.config()
            .withParserFactory(TesseraParserImpl.FACTORY)
            .withCaseSensitive(false)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withConformance(TesseraConformance.INSTANCE);

    private final Database db;
    private final Table replacement; // a slice read in place of the stored table of its name, else null
    private final java.util.List<io.tessera.storage.View> views;
    private final FileTables files; // the tables of files named in FROM; null: such a file is an error
    /** The session's time zone: TIMESTAMP WITH TIME ZONE values are read, shown and taken apart in it. */
    private final java.time.ZoneId zone;
    /** The columns of views for the catalog's listings; null: they list none. */
    private final ViewColumns viewColumns;
    /** Reads the values of a PIVOT statement's ON items from the data (PivotValues.NONE: none is read). */
    private final PivotValues pivotValues;
    /** The session's variables (SET VARIABLE) by {@link SessionVariables#key}, which getvariable reads. */
    private final java.util.Map<String, SessionVariables.Value> variables;
    /** The session's temporary macros (CREATE TEMP MACRO); the database's are read where a statement is planned. */
    private final java.util.List<io.tessera.storage.Macro> temporaryMacros;

    public SqlFrontEnd(Database db) {
        this(db, db.views(), null, null, java.time.ZoneOffset.UTC, null, PivotValues.NONE, java.util.Map.of(),
                java.util.List.of());
    }

    private SqlFrontEnd(Database db, java.util.List<io.tessera.storage.View> views, Table replacement,
                        FileTables files, java.time.ZoneId zone, ViewColumns viewColumns, PivotValues pivotValues,
                        java.util.Map<String, SessionVariables.Value> variables,
                        java.util.List<io.tessera.storage.Macro> temporaryMacros) {
        this.db = db;
        this.temporaryMacros = temporaryMacros;
        this.variables = variables;
        this.pivotValues = pivotValues;
        this.viewColumns = viewColumns;
        this.views = views;
        this.replacement = replacement;
        this.files = files;
        this.zone = zone;
    }

    /** A front end over no tables and no views (the warm-up of {@link CalciteSetup}). */
    static SqlFrontEnd withoutTables() {
        return new SqlFrontEnd(null, List.of(), null, null, java.time.ZoneOffset.UTC, null, PivotValues.NONE,
                java.util.Map.of(), List.of());
    }

    /** This front end with {@code table} (a slice of a stored table) in place of the stored table of its name. */
    public SqlFrontEnd withTable(Table table) {
        return new SqlFrontEnd(db, views, table, files, zone, viewColumns, pivotValues, variables, temporaryMacros);
    }

    /** This front end reading the files named in FROM ({@code FROM 'f.csv'}, {@code read_parquet}) through files. */
    public SqlFrontEnd withFiles(FileTables files) {
        return new SqlFrontEnd(db, views, replacement, files, zone, viewColumns, pivotValues, variables,
                temporaryMacros);
    }

    /** This front end listing the columns of views that {@code columns} gives in the catalog's listings. */
    public SqlFrontEnd withViewColumns(ViewColumns columns) {
        return new SqlFrontEnd(db, views, replacement, files, zone, columns, pivotValues, variables, temporaryMacros);
    }

    /**
     * This front end reading the values of a PIVOT statement's ON items through {@code values} (a query of the
     * statement it plans; PivotValues.IN_VIEW refuses them, as in a view's query).
     */
    public SqlFrontEnd withPivotValues(PivotValues values) {
        return new SqlFrontEnd(db, views, replacement, files, zone, viewColumns, values, variables, temporaryMacros);
    }

    /** {@code SELECT * FROM name}: the rows of a table or a view of that name. */
    public static SqlNode selectAll(String name) {
        org.apache.calcite.sql.parser.SqlParserPos pos = org.apache.calcite.sql.parser.SqlParserPos.ZERO;
        return new org.apache.calcite.sql.SqlSelect(pos, null,
                org.apache.calcite.sql.SqlNodeList.of(org.apache.calcite.sql.SqlIdentifier.star(pos)),
                new org.apache.calcite.sql.SqlIdentifier(name, pos), null, null, null, null, null, null, null, null,
                null);
    }

    /**
     * This front end in the session's time zone {@code zone}: its plans carry it in their cluster's context
     * ({@link #timeZone}), where the physical planner finds it.
     */
    public SqlFrontEnd withTimeZone(java.time.ZoneId zone) {
        return new SqlFrontEnd(db, views, replacement, files, zone, viewColumns, pivotValues, variables,
                temporaryMacros);
    }

    /** This front end reading the session's variables {@code variables} (by {@link SessionVariables#key}). */
    public SqlFrontEnd withVariables(java.util.Map<String, SessionVariables.Value> variables) {
        return new SqlFrontEnd(db, views, replacement, files, zone, viewColumns, pivotValues,
                java.util.Map.copyOf(variables), temporaryMacros);
    }

    /** This front end calling the session's temporary macros {@code macros} besides the database's. */
    public SqlFrontEnd withTemporaryMacros(java.util.List<io.tessera.storage.Macro> macros) {
        return new SqlFrontEnd(db, views, replacement, files, zone, viewColumns, pivotValues, variables,
                java.util.List.copyOf(macros));
    }

    /** The macros a statement may call: the session's temporary ones and the database's. */
    public Macros macros() {
        return Macros.of(db == null ? List.of() : db.macros(), temporaryMacros);
    }

    /**
     * Checks {@code macro}, about to be created, against the macros with it in place: the macro calls of its body
     * bind and none leads back to it (an error says which, at {@code at}).
     */
    public void checkMacro(io.tessera.storage.Macro macro, org.apache.calcite.sql.parser.SqlParserPos at) {
        MacroExpansion.check(macro, macros(), at);
    }

    /** The session's time zone of a plan this front end made (UTC for one made otherwise). */
    public static java.time.ZoneId timeZone(RelOptCluster cluster) {
        java.time.ZoneId z = cluster.getPlanner().getContext().unwrap(java.time.ZoneId.class);
        return z == null ? java.time.ZoneOffset.UTC : z;
    }

    /** A validated, optimized logical plan and the names of its output columns. */
    public record LogicalPlan(RelNode rel, List<String> fieldNames, CalciteCatalogReader catalog,
                              boolean[] storedNotNull) {
    }

    public static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, PARSER).parseStmt();
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, sql);
        }
    }

    public LogicalPlan plan(String sql) {
        return plan(parse(sql), sql);
    }

    /** The tables a statement may name, by lower-case name: the database's and the files in its FROM. */
    private java.util.Map<String, Table> tablesByName(java.util.Map<String, Table> fileTables) {
        java.util.Map<String, Table> byName = new java.util.HashMap<>();
        for (Table t : db == null ? List.<Table>of() : db.tables()) {
            byName.put(t.name().toLowerCase(java.util.Locale.ROOT), t);
        }
        fileTables.forEach((name, t) -> byName.put(name.toLowerCase(java.util.Locale.ROOT), t));
        return byName;
    }

    public LogicalPlan plan(SqlNode parsed) {
        return plan(parsed, null);
    }

    /**
     * The plan of {@code parsed}, whose text {@code text} (null where it has none) names result columns with the
     * words DuckDB keeps as written ({@link ColumnNames}).
     */
    public LogicalPlan plan(SqlNode parsed, String text) {
        Macros macros = macros();
        parsed = MacroExpansion.expand(parsed, text, true, macros); // before all: macro calls become their bodies
        parsed = PivotStatements.expand(parsed, pivotValues); // first: the statement becomes the query it stands for
        java.util.Map<String, Table> stored = tablesByName(java.util.Map.of());
        parsed = PositionalJoins.rewrite(parsed, name -> { // DuckDB's joins as standard ones before FROM is read
            Table t = stored.get(name.toLowerCase(java.util.Locale.ROOT));
            return t == null ? -1 : t.rowCount();
        });
        parsed = AsofJoins.rewrite(parsed);
        parsed = Samples.rewrite(parsed); // the sampled table becomes a subquery the others read
        parsed = DistinctOn.rewrite(parsed); // its keys leave the select list before any rewrite reads it
        parsed = LimitPercent.rewrite(parsed); // after DISTINCT ON, whose QUALIFY it keeps below its own
        java.util.Map<String, Table> fileTables = FileReferences.replace(parsed, files);
        var unpivots = UnpivotCopies.includeNulls(parsed);
        InformationSchema.replace(parsed, db, views, viewColumns);
        parsed = ImplicitLaterals.rewrite(parsed); // before the rewrites that read FROM's subqueries
        parsed = ColumnDefaults.rewrite(parsed, db); // an INSERT's defaults, which the casts below read as values
        parsed = InsertValueCasts.rewrite(parsed, db); // before SupportCheck reads its interval texts
        parsed = StructUnnests.rewrite(parsed, tablesByName(fileTables));
        parsed = Unnests.rewrite(parsed);
        parsed = StructPacks.rewrite(parsed);
        ColumnsSelections.mark(parsed);
        SupportCheck.check(parsed);
        PivotNames.rewrite(parsed);
        ColumnNames.nameExpressions(parsed, text);
        parsed = FunctionAliases.rewrite(parsed);
        parsed = PatternOperators.rewrite(parsed);
        parsed = JsonArrows.rewrite(parsed);
        parsed = SliceSyntax.rewrite(parsed);
        parsed = ValuesColumns.rewrite(parsed);
        parsed = OrderedAggregates.rewrite(parsed);
        parsed = DerivedAggregates.rewrite(parsed);
        parsed = DateFunctionAliases.rewrite(parsed);
        parsed = SessionFunctions.rewrite(parsed, zone,
                SessionFunctions.databaseName(db == null ? null : db.directory()));
        parsed = SessionVariables.rewrite(parsed, variables); // getvariable('v') as its value, named as written
        parsed = EmptyLists.rewrite(parsed);
        parsed = InfixCasts.rewrite(parsed);
        parsed = MapItems.rewrite(parsed);
        parsed = ListConcatenation.rewrite(parsed);
        parsed = MathFunctions.rewrite(parsed);
        parsed = TemporalLiterals.rewrite(parsed, zone);
        parsed = NullableSetAggregates.rewrite(parsed);
        parsed = WindowSupport.rewrite(parsed);
        parsed = HolisticAggregates.nullsLastInside(parsed);
        parsed = InLists.rewrite(parsed);
        parsed = NestedCasts.rewrite(parsed);
        parsed = UnpivotCopies.restore(parsed, unpivots);
        parsed = LambdaCaptures.rewrite(parsed); // after every rewrite that could rebuild a lambda
        if (replacement == null) {
            QualifiedColumns.rewrite(parsed, tablesByName(fileTables));
        }
        JavaTypeFactoryImpl types = typeFactory();
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        for (Table t : db == null ? List.<Table>of() : db.tables()) {
            boolean replaced = replacement != null && replacement.name().equals(t.name());
            root.add(t.name(), new CatalogTable(replaced ? replacement : t));
        }
        fileTables.forEach((name, t) -> root.add(name, new CatalogTable(t)));
        StoredView.addAll(root, views, types, variables, macros);
        MainSchema.addTo(root);
        CalciteCatalogReader catalog = catalog(root, types);
        TesseraValidator validator = validator(catalog, types);
        WithNames.match(parsed);
        SqlNode validated;
        try {
            // UNION BY NAME a plain UNION, its branches' names read by validating a copy of the statement first
            parsed = UnionByName.rewrite(parsed, () -> validator(catalog, types));
            validator.repeatNamesIn(parsed);
            validated = validator.validate(parsed);
        } catch (CalciteContextException e) {
            throw NameHints.error(e, parsed, namesInScope(fileTables));
        } catch (RuntimeException e) {
            Throwable c = e;
            while (c.getCause() != null && !(c instanceof CalciteContextException)) {
                c = c.getCause();
            }
            if (c instanceof CalciteContextException context) {
                throw NameHints.error(context, parsed, namesInScope(fileTables));
            }
            throw new SqlError(c.getMessage() == null ? String.valueOf(e) : c.getMessage(), e);
        }
        UnionChains.check(validated, validator);
        boolean[] storedNotNull = StoredNotNullColumns.of(validator, validated);
        HepPlanner clusterPlanner = new HepPlanner(HepProgram.builder().build(),
                org.apache.calcite.plan.Contexts.of(zone));
        // while SQL becomes relational algebra, constant folding leaves inexact CASTs alone (see CheckedCasts);
        // then they become calls that the later reduction rules leave alone too
        clusterPlanner.setExecutor(new CheckedCasts.Executor());
        RelOptCluster cluster = RelOptCluster.create(clusterPlanner, new CheckedCasts.Builder(types, zone));
        cluster.setMetadataQuerySupplier(CalciteSetup::metadataQuery);
        SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalog, cluster,
                DateArithmetic.CONVERTLETS, CONVERTER);
        RelRoot relRoot;
        try {
            relRoot = converter.convertQuery(validated, false, true);
        } catch (AssertionError e) {
            java.util.regex.Matcher ungrouped = java.util.regex.Pattern.compile("Identifier '(?:[^'.]*\\.)?([^'.]*)' "
                    + "is not a group expr").matcher(String.valueOf(e.getMessage()));
            if (ungrouped.matches()) {
                // a correlated subquery of a grouped query reads a column no group key is (t.a where a + 1 is one)
                throw new SqlError("column \"" + ungrouped.group(1) + "\" must appear in the GROUP BY clause or must be "
                        + "part of an aggregate function (read by a correlated subquery)", e);
            }
            // Calcite checks that conversion keeps the types the validator derived; where the two disagree (the
            // nullability of a STRUCT or LIST that set operations' branches share, see TextCoercion) the query is
            // refused with that reason instead of the error ending the process
            throw new SqlError("unsupported: the planner could not keep this query's column types; where a STRUCT, "
                    + "LIST or MAP stands in a UNION, INTERSECT, EXCEPT or VALUES, CAST each branch's value to one "
                    + "type", e);
        }
        RelNode rel = DataChangeQueries.rowsToInsert(relRoot.project());
        int volatileCalls = VolatileCalls.count(rel);
        CorrelatedWindows.reject(rel);
        rel = CheckedCasts.keepInexactCasts(rel);
        rel = ValuesLiterals.asColumnTypes(rel);
        clusterPlanner.setExecutor(null);
        RelBuilder builder = VolatileProjects.BUILDERS.create(cluster, catalog);
        rel = GroupedCorrelations.rewrite(rel);
        rel = UnnestJoins.rewrite(rel, builder, lengths -> pivotValues.largest(new LogicalPlan(lengths,
                lengths.getRowType().getFieldNames(), catalog, new boolean[lengths.getRowType().getFieldCount()])));

        rel = ExistsJoins.rewrite(rel);
        rel = ScalarSubqueryJoins.rewrite(rel, builder);
        if (RuleTargets.holdsSubQuery(rel)) {
            rel = hep(rel, HepMatchOrder.BOTTOM_UP, CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);
        }
        rel = LateralValues.inline(rel);
        rel = ScalarCounts.fix(rel);
        rel = OrderedCorrelatedAggregates.hide(rel);
        // the decorrelator passes the columns a correlation adds through a Sort or a Filter at the top (a subquery
        // with LIMIT below an ORDER BY would add its key); a projection of the query's own columns keeps them out
        RelNode top = rel;
        rel = org.apache.calcite.rel.logical.LogicalProject.create(top, List.of(),
                top.getCluster().getRexBuilder().identityProjects(top.getRowType()), top.getRowType());
        try {
            rel = HeldValues.hide(rel, catalog);
            rel = ConstantKeyAggregates.hide(rel, catalog);
            if (RecursiveUnions.any(rel)) {
                // decorrelated around each recursive union, whose seed and step are decorrelated on their own
                rel = RecursiveUnions.hide(rel, catalog, r -> RelDecorrelator.decorrelateQuery(r, builder));
                rel = RecursiveUnions.restore(RelDecorrelator.decorrelateQuery(rel, builder));
            } else {
                // a correlation left over rows proved empty is dropped before a part counts as decorrelated
                rel = PartwiseDecorrelation.decorrelate(rel,
                        r -> withoutEmptyCorrelates(RelDecorrelator.decorrelateQuery(r, builder)));
            }
            rel = ConstantKeyAggregates.restore(rel);
            rel = HeldValues.restore(rel);
        } catch (RuntimeException e) {
            // Calcite's decorrelator fails on some shapes (NOT IN with a correlation in a computed value)
            throw new SqlError("unsupported: a correlated subquery that cannot be turned into a join", e);
        }
        rel = withoutEmptyCorrelates(rel);
        rejectCorrelation(rel);
        rel = OrderedCorrelatedAggregates.restore(rel);
        // window functions (RexOver in a projection) become Window nodes, which the planner turns into WINDOW sinks;
        // done before the rules that move projections and filters, which would move a RexOver across a join or a
        // filter below it and so compute it over other rows (a Window node is a barrier to them)
        if (RuleTargets.holdsWindow(rel)) {
            rel = LambdaWindows.split(rel);
            rel = hep(rel, HepMatchOrder.BOTTOM_UP, CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW);
        }
        rel = new RelFieldTrimmer(validator, builder).trim(rel);
        rel = pullFactors(rel);
        rel = ConstantFolding.fold(rel);
        VolatileCalls.checkNotRepeated(rel, volatileCalls);

        return new LogicalPlan(rel, relRoot.validatedRowType.getFieldNames(), catalog, storedNotNull);
    }

    /** The column names of every table, file table and view a statement could name, by name (for "did you mean"). */
    private java.util.Map<String, List<String>> namesInScope(java.util.Map<String, Table> fileTables) {
        java.util.Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        for (Table t : db == null ? List.<Table>of() : db.tables()) {
            out.put(t.name(), columnNames(t));
        }
        fileTables.forEach((name, t) -> out.put(name, columnNames(t)));
        for (io.tessera.storage.View v : views) {
            out.putIfAbsent(v.name(), v.columns());
        }
        return out;
    }

    private static List<String> columnNames(Table t) {
        return t.schema().columns().stream().map(io.tessera.storage.ColumnSchema::name).toList();
    }

    /**
     * Calcite's types as Tessera's rules have them, with every character type in UTF-8 (Calcite's default,
     * ISO-8859-1, cannot hold a literal such as '中文'), the charset Tessera stores strings in, and ordered by
     * code point ({@link CodePointCollation}) where Calcite compares string constants itself.
     */
    static JavaTypeFactoryImpl typeFactory() {
        return new JavaTypeFactoryImpl(TesseraTypeSystem.INSTANCE) {
            @Override
            public Charset getDefaultCharset() {
                return StandardCharsets.UTF_8;
            }

            @Override
            public RelDataType createTypeWithCharsetAndCollation(RelDataType type, Charset charset,
                                                                 SqlCollation collation) {
                return super.createTypeWithCharsetAndCollation(type, charset, CodePointCollation.of(collation));
            }

            @Override
            public RelDataType leastRestrictive(List<RelDataType> types) {
                RelDataType zoned = ZonedCommonType.of(this, types);
                if (zoned != null) {
                    return zoned;
                }
                RelDataType real = RealCommonType.of(this, types);
                if (real != null) {
                    return real;
                }
                RelDataType byName = StructCommonType.of(this, types, this::leastRestrictive);
                if (byName != null) {
                    return byName;
                }
                RelDataType common = super.leastRestrictive(types);
                return common != null ? common : NestedCommonType.of(this, types, super::leastRestrictive);
            }
        };
    }

    /**
     * Pulls conjuncts common to every branch of an OR out of it ({@code (a AND b) OR (a AND c)} becomes
     * {@code a AND (b OR c)}), so that a join key repeated in each branch (TPC-H Q19) becomes a join condition.
     */
    private static RelNode pullFactors(RelNode rel) {
        java.util.List<RelNode> inputs = new java.util.ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(pullFactors(in));
        }
        RelNode copy = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        if (copy instanceof org.apache.calcite.rel.logical.LogicalFilter f) {
            org.apache.calcite.rex.RexNode c = org.apache.calcite.rex.RexUtil.pullFactors(
                    f.getCluster().getRexBuilder(), f.getCondition());
            if (!c.equals(f.getCondition())) {
                return f.copy(f.getTraitSet(), f.getInput(), c);
            }
        }
        return copy;
    }

    /** {@code rel} rewritten by {@code rules} until none applies, visiting nodes in {@code order}. */
    public static RelNode hep(RelNode rel, HepMatchOrder order, RelOptRule... rules) {
        HepProgramBuilder b = new HepProgramBuilder().addMatchOrder(order).addRuleCollection(List.of(rules));
        HepPlanner planner = new HepPlanner(b.build());
        planner.setRoot(rel);
        return planner.findBestExp();
    }

    /**
     * {@code rel} where the decorrelator left a correlation over rows it proved empty (a WHERE that is always false,
     * {@code x > x}, becomes an empty VALUES that it cannot decorrelate a join of): what reads no rows gives none, so
     * the empty input is carried up through the operators above it, the correlation with them. A plan without a
     * correlation is returned as it is.
     */
    private static RelNode withoutEmptyCorrelates(RelNode rel) {
        if (!PartwiseDecorrelation.holdsCorrelate(rel)) {
            return rel;
        }
        return hep(rel, HepMatchOrder.BOTTOM_UP, PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.PROJECT_INSTANCE,
                PruneEmptyRules.JOIN_LEFT_INSTANCE, PruneEmptyRules.JOIN_RIGHT_INSTANCE,
                PruneEmptyRules.CORRELATE_LEFT_INSTANCE, PruneEmptyRules.AGGREGATE_INSTANCE,
                PruneEmptyRules.SORT_INSTANCE, PruneEmptyRules.UNION_INSTANCE, PruneEmptyRules.MINUS_INSTANCE,
                PruneEmptyRules.INTERSECT_INSTANCE);
    }

    private static void rejectCorrelation(RelNode rel) {
        if (rel instanceof Correlate) {
            throw new SqlError("unsupported: a correlated subquery that cannot be turned into a join");
        }
        for (RelNode in : rel.getInputs()) {
            rejectCorrelation(in);
        }
    }

    /** How SQL becomes relational algebra, for queries and the views they name. */
    static final SqlToRelConverter.Config CONVERTER = SqlToRelConverter.config().withTrimUnusedFields(true)
            .withExpand(false).withDecorrelationEnabled(true)
            // a SELECT over a subquery whose column is computed by random() or nextval reads the column, not the call
            .withRelBuilderFactory(VolatileProjects.BUILDERS)
            // an IN list of constants stays a search over its values (one set lookup when it runs), not a join with
            // a table of them, however long it is
            .withInSubQueryThreshold(Integer.MAX_VALUE);

    /** The catalog of {@code root}'s tables and views, names looked up ignoring case. */
    static CalciteCatalogReader catalog(CalciteSchema root, JavaTypeFactoryImpl types) {
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CalciteConnectionConfig config = new CalciteConnectionConfigImpl(props);
        return new CalciteCatalogReader(root, List.of(), types, config);
    }

    /** A validator for one statement (validators keep state): Tessera's functions, conformance and NULL order. */
    static TesseraValidator validator(CalciteCatalogReader catalog, JavaTypeFactoryImpl types) {
        return new TesseraValidator(MathFunctions.INSTANCE, catalog, types,
                SqlValidator.Config.DEFAULT.withConformance(TesseraConformance.INSTANCE)
                        .withTypeCoercionFactory(TextCoercion::new)
                        .withIdentifierExpansion(true)
                        .withDefaultNullCollation(NullCollation.LAST));
    }

    /**
     * This front end with {@code view} in place of the stored view of its name (or added): CREATE OR REPLACE VIEW
     * plans the new query as the database will have it, so a view that would refer to itself is refused.
     */
    public SqlFrontEnd withView(io.tessera.storage.View view) {
        java.util.List<io.tessera.storage.View> out = new java.util.ArrayList<>();
        for (io.tessera.storage.View v : views) {
            if (!v.name().equalsIgnoreCase(view.name())) {
                out.add(v);
            }
        }
        out.add(view);
        return new SqlFrontEnd(db, out, replacement, files, zone, viewColumns, pivotValues, variables, temporaryMacros);
    }
}
