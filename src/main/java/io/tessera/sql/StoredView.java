package io.tessera.sql;

import io.tessera.storage.View;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A stored view as Calcite sees it: a table whose rows are its query's, expanded into the plan of every query that
 * names it, through the same parser, checks, validator and conversion as a query (so a view runs exactly what its
 * query would). Its row type comes from validating the query against the same catalog; a view naming itself,
 * directly or through other views, is an error, and so is a view whose tables changed so that its query no longer
 * validates: the error names the view.
 */
final class StoredView extends AbstractTable implements TranslatableTable {

    /** The views being expanded on this thread, innermost last: a view met twice refers to itself. */
    private static final ThreadLocal<Deque<String>> EXPANDING = ThreadLocal.withInitial(ArrayDeque::new);

    private final View view;
    private final CalciteSchema root;
    private final JavaTypeFactoryImpl types;
    /** The session's variables, which the view's getvariable calls read where a query names it. */
    private final java.util.Map<String, SessionVariables.Value> variables;
    /** The macros the view's query calls, expanded where a query names it. */
    private final Macros macros;
    private RelDataType rowType;
    /** Per column, whether DESCRIBE calls it NOT NULL ({@link StoredNotNullColumns}); found when first asked. */
    private boolean[] notNull;

    private StoredView(View view, CalciteSchema root, JavaTypeFactoryImpl types,
                       java.util.Map<String, SessionVariables.Value> variables, Macros macros) {
        this.view = view;
        this.macros = macros;
        this.variables = variables;
        this.root = root;
        this.types = types;
    }

    /**
     * Adds every view to {@code root}, beside its tables; their getvariable calls read {@code variables}, their
     * macro calls expand {@code macros}.
     */
    static void addAll(CalciteSchema root, List<View> views, JavaTypeFactoryImpl types,
                       java.util.Map<String, SessionVariables.Value> variables, Macros macros) {
        for (View v : views) {
            root.add(v.name(), new StoredView(v, root, types, variables, macros));
        }
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
        if (rowType == null) {
            rowType = expanding(() -> {
                SqlValidator validator = SqlFrontEnd.validator(catalog(), types);
                SqlNode validated = validate(validator);
                return renamed(validator.getValidatedNodeType(validated));
            });
        }
        return rowType;
    }

    /** Whether DESCRIBE calls the view's column at {@code column} NOT NULL, as DuckDB does: as its query's. */
    boolean notNull(int column) {
        if (notNull == null) {
            notNull = expanding(() -> {
                SqlValidator validator = SqlFrontEnd.validator(catalog(), types);
                return StoredNotNullColumns.of(validator, validate(validator));
            });
        }
        return column < notNull.length && notNull[column];
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        RelDataType type = getRowType(types);
        return expanding(() -> {
            CalciteCatalogReader catalog = catalog();
            SqlValidator validator = SqlFrontEnd.validator(catalog, types);
            SqlNode validated = validate(validator);
            SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalog, context.getCluster(),
                    DateArithmetic.CONVERTLETS, SqlFrontEnd.CONVERTER);
            RelNode rel = converter.convertQuery(validated, false, true).project();
            return VolatileProjects.BUILDERS.create(context.getCluster(), catalog).push(rel)
                    .rename(type.getFieldNames()).build();
        });
    }

    /** The rows of the stored table {@code name} names, -1 where it names none. */
    private long storedRows(String name) {
        CalciteSchema.TableEntry entry = root.getTable(name, false);
        return entry != null && entry.getTable() instanceof CatalogTable t ? t.table().rowCount() : -1;
    }

    private CalciteCatalogReader catalog() {
        return SqlFrontEnd.catalog(root, types);
    }

    /** The view's query parsed, checked and validated; an error says which view it comes from. */
    private SqlNode validate(SqlValidator validator) {
        SqlNode parsed;
        try {
            parsed = MacroExpansion.expand(SqlFrontEnd.parse(view.query()), view.query(), false, macros);
            parsed = PivotStatements.expand(parsed, PivotValues.IN_VIEW);
            parsed = AsofJoins.rewrite(PositionalJoins.rewrite(parsed, this::storedRows));
            parsed = LimitPercent.rewrite(DistinctOn.rewrite(Samples.rewrite(parsed)));
            FileReferences.replace(parsed, new FileTables() {
                @Override
                public io.tessera.storage.Table table(FileReference file) {
                    throw new SqlError("a view cannot read a file in FROM" + file.at() + " (a view is expanded where"
                            + " a query names it; CREATE TABLE ... AS SELECT ... FROM 'file' keeps the file's rows)");
                }

                @Override
                public io.tessera.storage.Table series(Series series) {
                    throw new SqlError("unsupported: a view over " + series.function() + " in FROM (CREATE TABLE ..."
                            + " AS SELECT ... FROM " + series.function() + "(...) keeps its rows)");
                }
            });
            ColumnsSelections.mark(parsed);
            SupportCheck.check(parsed);
            ColumnNames.nameExpressions(parsed, view.query(), false);
            parsed = ValuesColumns.rewrite(parsed);
            parsed = SessionVariables.rewrite(parsed, variables);
        } catch (SqlError e) {
            throw new SqlError("view " + view.name() + ": " + e.getMessage());
        }
        parsed = InfixCasts.rewrite(parsed);
        parsed = MathFunctions.rewrite(parsed);
        WithNames.match(parsed);
        try {
            parsed = DuckDbTypeNames.rewriteAll(parsed);
        } catch (SqlError e) {
            throw new SqlError("view " + view.name() + ": " + e.getMessage());
        }
        try {
            parsed = UnionByName.rewrite(parsed, () -> SqlFrontEnd.validator(catalog(), types));
            return validator.validate(parsed);
        } catch (CalciteContextException e) {
            // no cause kept: the front end reports the innermost Calcite error it finds, and this one names the view
            throw new SqlError("view " + view.name() + ": " + e.getMessage());
        } catch (SqlError e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable c = e;
            while (c.getCause() != null && !(c instanceof CalciteContextException)) {
                c = c.getCause();
            }
            throw new SqlError("view " + view.name() + ": " + (c.getMessage() == null ? String.valueOf(e)
                    : c.getMessage()));
        }
    }

    /** The query's row type with the view's column names, where it gives them (the first ones, as in DuckDB). */
    private RelDataType renamed(RelDataType type) {
        if (view.columns().isEmpty()) {
            return type;
        }
        if (view.columns().size() > type.getFieldCount()) {
            throw new SqlError("view " + view.name() + " names " + view.columns().size() + " columns, its query has "
                    + type.getFieldCount());
        }
        RelDataTypeFactory.Builder b = types.builder();
        List<RelDataTypeField> fields = new ArrayList<>(type.getFieldList());
        for (int i = 0; i < fields.size(); i++) {
            b.add(i < view.columns().size() ? view.columns().get(i) : fields.get(i).getName(), fields.get(i).getType());
        }
        return b.build();
    }

    private <T> T expanding(java.util.function.Supplier<T> work) {
        Deque<String> stack = EXPANDING.get();
        if (stack.contains(view.name())) {
            throw new SqlError("view " + view.name() + " refers to itself (through " + String.join(" -> ", stack)
                    + ")");
        }
        stack.addLast(view.name());
        try {
            return work.get();
        } finally {
            stack.removeLast();
        }
    }
}
