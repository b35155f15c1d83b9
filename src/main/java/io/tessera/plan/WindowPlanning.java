package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Calcite's Window (the window functions of a SELECT, grouped by their OVER clause) as a WINDOW sink: the input's
 * rows are collected, and each function becomes one more column of the relation the sink writes. Operands are
 * columns of the input or constants of the Window node (offsets, LAG's default).
 */
final class WindowPlanning {

    /**
     * The detail of the CAST (to its argument's type) that holds a GROUPS frame's offset among a window's input
     * columns ({@link io.tessera.sql.GroupsFrames}: Calcite carries such a frame as ROWS with marked offsets).
     */
    static final String GROUPS_OFFSET = "groups frame offset";

    private WindowPlanning() {
    }

    static PhysicalPlanner.Open plan(PhysicalPlanner planner, Window w) {
        PhysicalPlanner.Open o = planner.input(w.getInput());
        int nIn = o.fields.size();
        List<String> outNames = w.getRowType().getFieldNames();
        List<String> inNames = new ArrayList<>(outNames.subList(0, nIn));
        List<WindowFunction> functions = new ArrayList<>();
        // the input's columns, then defaults of LAG and LEAD cast to their function's type
        List<Expr> outputs = new ArrayList<>(o.fields);
        int k = nIn;
        for (Window.Group g : w.groups) {
            List<Integer> partition = g.keys.asList();
            List<SortKey> order = new ArrayList<>();
            for (RelFieldCollation fc : g.orderKeys.getFieldCollations()) {
                if (o.fields.get(fc.getFieldIndex()).type().isNested()) {
                    DataType t = o.fields.get(fc.getFieldIndex()).type();
                    throw new SqlError("unsupported: a window ordered by a " + (t.isList() ? "list" : "struct") + " ("
                            + t + "; not ordered in windows yet)");
                }
                order.add(new SortKey(fc.getFieldIndex(), fc.getDirection().isDescending(),
                        fc.nullDirection == RelFieldCollation.NullDirection.FIRST));
            }
            boolean groups = groupsOffset(g.lowerBound, o.fields) != null || groupsOffset(g.upperBound, o.fields) != null;
            WindowFunction.Frame frame = new WindowFunction.Frame(
                    groups ? WindowFunction.Unit.GROUPS : g.isRows ? WindowFunction.Unit.ROWS : WindowFunction.Unit.RANGE,
                    bound(g.lowerBound, g.isRows, order, o.fields, w), bound(g.upperBound, g.isRows, order, o.fields, w),
                    exclusion(g.exclude));
            for (Window.RexWinAggCall c : g.aggCalls) {
                functions.add(function(c, partition, order, frame, outputs, nIn, w, outNames.get(k++)));
            }
        }
        for (int i = 0; i < nIn; i++) {
            if (outputs.get(i) instanceof Expr.Call c && GROUPS_OFFSET.equals(c.detail())) {
                outputs.set(i, c.args().get(0)); // the offset collected as it is (the frames have read it)
            }
        }
        int rel = planner.newRelation();
        for (int i = nIn; i < outputs.size(); i++) {
            inNames.add("default" + i);
        }
        planner.end(o, new Sink.Window(outputs, inNames, functions, rel));
        List<ColumnInfo> cols = new ArrayList<>(PhysicalPlanner.relationColumns(rel, outputs, inNames));
        for (WindowFunction f : functions) {
            cols.add(new ColumnInfo(f.name(), f.type(), f.nullable(),
                    f.type().kind() == TypeKind.VARCHAR ? DictionaryKeys.relation(rel, cols.size()) : null));
        }
        PhysicalPlanner.Open next = planner.readRelation(rel, cols, planner.rowCount(w));
        List<Expr> fields = new ArrayList<>(next.fields.subList(0, nIn));
        fields.addAll(next.fields.subList(outputs.size(), cols.size()));
        next.fields = fields;
        next.names = outNames;
        return next;
    }

    /** The offset of a GROUPS frame's bound (the marked input column's argument), or null for any other bound. */
    private static Expr groupsOffset(RexWindowBound b, List<Expr> in) {
        if (b.getOffset() instanceof RexInputRef r && r.getIndex() < in.size()
                && in.get(r.getIndex()) instanceof Expr.Call c && GROUPS_OFFSET.equals(c.detail())) {
            return c.args().get(0);
        }
        return null;
    }

    /** A GROUPS frame's offset: a constant count of peer groups, not negative. */
    private static WindowFunction.Bound groupsBound(WindowFunction.BoundKind kind, Expr offset) {
        if (!(offset instanceof Expr.Literal lit)) {
            throw new SqlError("unsupported: a frame offset other than a constant");
        }
        if (lit.value() == null) {
            throw new SqlError("a frame offset must not be NULL");
        }
        if (lit.type().kind() != TypeKind.INTEGER && lit.type().kind() != TypeKind.BIGINT) {
            throw new SqlError("unsupported: a GROUPS frame offset other than an integer constant: " + lit);
        }
        long n = (Long) lit.value();
        if (n < 0) {
            throw new SqlError("a frame offset must not be negative: " + n);
        }
        return new WindowFunction.Bound(kind, n);
    }

    private static WindowFunction.Exclusion exclusion(RexWindowExclusion e) {
        return switch (e) {
            case EXCLUDE_NO_OTHER -> WindowFunction.Exclusion.NO_OTHERS;
            case EXCLUDE_CURRENT_ROW -> WindowFunction.Exclusion.CURRENT_ROW;
            case EXCLUDE_GROUP -> WindowFunction.Exclusion.GROUP;
            case EXCLUDE_TIES -> WindowFunction.Exclusion.TIES;
        };
    }

    private static WindowFunction function(Window.RexWinAggCall c, List<Integer> partition, List<SortKey> order,
                                           WindowFunction.Frame frame, List<Expr> outputs, int nIn, Window w,
                                           String name) {
        List<Expr> in = List.copyOf(outputs.subList(0, nIn));
        String fn = c.getOperator().getName();
        if (c.distinct) {
            throw new SqlError("unsupported: " + fn + "(DISTINCT ...) OVER (...)");
        }
        if (c.ignoreNulls) {
            throw new SqlError("unsupported: " + fn + " ... IGNORE NULLS");
        }
        DataType type = Types.of(c.getType());
        boolean nullable = c.getType().isNullable();
        List<RexNode> ops = c.getOperands();
        WindowFunction.Kind kind = switch (c.getOperator().getKind()) {
            case ROW_NUMBER -> WindowFunction.Kind.ROW_NUMBER;
            case RANK -> WindowFunction.Kind.RANK;
            case DENSE_RANK -> WindowFunction.Kind.DENSE_RANK;
            case PERCENT_RANK -> WindowFunction.Kind.PERCENT_RANK;
            case CUME_DIST -> WindowFunction.Kind.CUME_DIST;
            case NTILE -> WindowFunction.Kind.NTILE;
            case LAG -> WindowFunction.Kind.LAG;
            case LEAD -> WindowFunction.Kind.LEAD;
            case FIRST_VALUE -> WindowFunction.Kind.FIRST_VALUE;
            case LAST_VALUE -> WindowFunction.Kind.LAST_VALUE;
            case NTH_VALUE -> WindowFunction.Kind.NTH_VALUE;
            case COUNT -> ops.isEmpty() || constant(ops.get(0), in.size(), w) != null
                    && !constant(ops.get(0), in.size(), w).isNull() ? WindowFunction.Kind.COUNT_STAR : WindowFunction.Kind.COUNT;
            case SUM -> WindowFunction.Kind.SUM;
            case SUM0 -> WindowFunction.Kind.SUM0;
            case AVG -> WindowFunction.Kind.AVG;
            case MIN -> WindowFunction.Kind.MIN;
            case MAX -> WindowFunction.Kind.MAX;
            default -> throw new SqlError("unsupported: window function " + fn);
        };
        int arg = -1;
        long offset = 1;
        int defaultColumn = -1;
        Object defaultValue = null;
        switch (kind) {
            case NTILE -> {
                offset = integerConstant(ops.get(0), in.size(), w, "the number of buckets of NTILE");
                if (offset <= 0) {
                    throw new SqlError("NTILE needs a positive number of buckets, not " + offset);
                }
            }
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, COUNT_STAR -> {
            }
            default -> {
                RexLiteral value = constant(ops.get(0), in.size(), w);
                if (value != null) {
                    // SUM(1), FIRST_VALUE('x'), as Calcite's decorrelator makes them: the constant a column of the
                    // window's relation, as a default of another type is below
                    outputs.add(RexTranslator.literal(value));
                    arg = outputs.size() - 1;
                } else {
                    arg = column(ops.get(0), in.size(), fn);
                }
                checkArgument(kind, outputs.get(arg).type(), type, fn);
                if (ops.size() > 1) {
                    offset = integerConstant(ops.get(1), in.size(), w, "the offset of " + fn);
                    if (kind == WindowFunction.Kind.NTH_VALUE && offset <= 0) {
                        throw new SqlError("NTH_VALUE needs a positive row number, not " + offset);
                    }
                }
                if (ops.size() > 2) {
                    RexNode d = ops.get(2);
                    RexLiteral lit = constant(d, in.size(), w);
                    if (lit != null) {
                        defaultValue = defaultValue(RexTranslator.literal(lit), type, fn);
                    } else {
                        defaultColumn = column(d, in.size(), fn);
                        Expr e = in.get(defaultColumn);
                        if (!sameRepresentation(e.type(), type)) {
                            // an expression of another type: the pipeline casts it (range-checked) as a column of its own
                            outputs.add(new Expr.Call(Op.CAST, List.of(e), type, e.nullable()));
                            defaultColumn = outputs.size() - 1;
                        }
                    }
                }
            }
        }
        // NULL where a frame is empty or the row reached holds NULL, whatever Calcite derived (it types LEAD(v, 1, 0)
        // and FIRST_VALUE of a NOT NULL column NOT NULL)
        boolean canBeNull = switch (kind) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, COUNT_STAR, COUNT, SUM0 -> nullable;
            case LAG, LEAD -> nullable || outputs.get(arg).nullable()
                    || (defaultColumn >= 0 ? outputs.get(defaultColumn).nullable() : defaultValue == null);
            default -> true;
        };
        return new WindowFunction(kind, arg, offset, defaultColumn, defaultValue, partition, order, frame, type, canBeNull,
                name);
    }

    /** The argument's and the result's types, where the evaluator copies or adds values as they are stored. */
    private static void checkArgument(WindowFunction.Kind kind, DataType arg, DataType result, String fn) {
        if ((kind == WindowFunction.Kind.MIN || kind == WindowFunction.Kind.MAX) && arg.isNested()) {
            throw new SqlError("unsupported: " + fn + " of " + arg + " values OVER (...) (lists and structs are not"
                    + " ordered in windows yet)");
        }
        switch (kind) {
            case COUNT -> {
            }
            case AVG -> {
                if (!numeric(arg) || result.kind() != TypeKind.DOUBLE) {
                    throw new SqlError("unsupported: " + fn + " of " + arg + " OVER (...)");
                }
            }
            case SUM, SUM0 -> {
                boolean ok = switch (arg.kind()) {
                    case INTEGER, BIGINT -> result.kind() == TypeKind.BIGINT || result.kind() == TypeKind.INTEGER;
                    case DECIMAL -> result.kind() == TypeKind.DECIMAL && result.scale() == arg.scale();
                    case DOUBLE -> result.kind() == TypeKind.DOUBLE;
                    default -> false;
                };
                if (!ok) {
                    throw new SqlError("unsupported: " + fn + " of " + arg + " OVER (...)");
                }
            }
            default -> {
                if (!sameRepresentation(arg, result)) {
                    throw new SqlError("unsupported: " + fn + " of " + arg + " giving " + result);
                }
            }
        }
    }

    /**
     * A constant INTERVAL frame offset ({@code INTERVAL '1' MONTH}, {@code INTERVAL '1 month 2 days'}); null when the
     * offset is no interval.
     */
    private static io.tessera.storage.Interval intervalOffset(RexNode n, List<Expr> in, Window w) {
        int nIn = in.size();
        if (n instanceof RexInputRef r && r.getIndex() < nIn && in.get(r.getIndex()) instanceof Expr.Literal c
                && c.type().isInterval() && c.value() != null) {
            // INTERVAL 'text', which the window's input computes: a constant of the plan
            return io.tessera.storage.Interval.decode((String) c.value());
        }
        RexLiteral lit = constant(n, nIn, w);
        if (lit != null && !lit.isNull() && IntervalCalls.isInterval(lit)) {
            return IntervalCalls.of(lit);
        }
        return null;
    }

    /**
     * A RANGE bound of an INTERVAL over a DATE or TIMESTAMP key: whole days over a DATE as a number of days, any
     * other interval as itself, which the frame adds on the calendar as DuckDB adds it (months first, a day the
     * month lacks its last day, then days and microseconds).
     */
    private static WindowFunction.Bound calendarBound(WindowFunction.BoundKind kind, io.tessera.storage.Interval iv,
                                                      DataType key) {
        if (iv.months() < 0 || iv.days() < 0 || iv.micros() < 0) {
            throw new SqlError("a frame offset must not be negative: " + iv);
        }
        if (key.kind() == TypeKind.DATE && iv.months() == 0 && iv.micros() == 0) {
            return new WindowFunction.Bound(kind, (long) iv.days());
        }
        return new WindowFunction.Bound(kind, iv);
    }

    /** A RANGE offset over a DATE key: an interval of whole days, as days. */
    private static long dateOffsetDays(RexLiteral lit) {
        if (lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
            BigDecimal millis = lit.getValueAs(BigDecimal.class);
            BigDecimal[] days = millis.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
            if (days[1].signum() == 0 && millis.signum() >= 0) {
                return days[0].longValueExact();
            }
        }
        throw new SqlError("unsupported: RANGE offset " + lit + " over a DATE ORDER BY key (only whole days)");
    }

    private static boolean numeric(DataType t) {
        return t.kind() == TypeKind.INTEGER || t.kind() == TypeKind.BIGINT || t.kind() == TypeKind.DECIMAL
                || t.kind() == TypeKind.DOUBLE;
    }

    /** Whether values of type {@code a} are stored as values of {@code b} are (an integer may go to a wider one). */
    private static boolean sameRepresentation(DataType a, DataType b) {
        if (a.kind() == TypeKind.INTEGER && b.kind() == TypeKind.INTEGER) {
            return b.precision() == 0 || a.precision() != 0 && a.precision() <= b.precision();
        }
        return a.kind() == b.kind() && (a.kind() != TypeKind.DECIMAL || a.scale() == b.scale());
    }


    /** LAG's or LEAD's constant default in the result's representation, checked against its range. */
    private static Object defaultValue(Expr.Literal lit, DataType type, String fn) {
        Object v = lit.value();
        if (v == null) {
            return null;
        }
        DataType from = lit.type();
        if (from.kind() == type.kind() && (from.kind() != TypeKind.DECIMAL || from.scale() == type.scale())) {
            if (type.kind() == TypeKind.INTEGER && ((Long) v < type.minValue() || (Long) v > type.maxValue())) {
                throw new SqlError(io.tessera.storage.Values.outOfRangeMessage(v.toString(), type.toString()));
            }
            return v;
        }
        BigDecimal exact = switch (from.kind()) {
            case INTEGER, BIGINT -> BigDecimal.valueOf((Long) v);
            case DECIMAL -> BigDecimal.valueOf((Long) v, from.scale());
            default -> null;
        };
        if (exact != null) {
            try {
                switch (type.kind()) {
                    case INTEGER, BIGINT -> {
                        long l = exact.longValueExact();
                        if (l >= type.minValue() && l <= type.maxValue()) {
                            return l;
                        }
                    }
                    case DECIMAL -> {
                        BigDecimal s = exact.setScale(type.scale());
                        if (s.precision() <= type.precision()) {
                            return s.unscaledValue().longValueExact();
                        }
                    }
                    case DOUBLE -> {
                        return exact.doubleValue();
                    }
                    default -> {
                    }
                }
            } catch (ArithmeticException inexact) {
                // falls through to the refusal below
            }
        }
        throw new SqlError("unsupported: the default " + lit + " of " + fn + " for values of type " + type);
    }

    private static int column(RexNode n, int nIn, String fn) {
        if (n instanceof RexInputRef r && r.getIndex() < nIn) {
            return r.getIndex();
        }
        throw new SqlError("unsupported: a constant argument of window function " + fn);
    }

    /** A constant operand: a literal, or a reference to one of the Window node's constants; else null. */
    private static RexLiteral constant(RexNode n, int nIn, Window w) {
        if (n instanceof RexLiteral l) {
            return l;
        }
        if (n instanceof RexInputRef r && r.getIndex() >= nIn) {
            return w.constants.get(r.getIndex() - nIn);
        }
        return null;
    }

    private static long integerConstant(RexNode n, int nIn, Window w, String what) {
        RexLiteral l = constant(n, nIn, w);
        if (l == null || l.isNull()) {
            throw new SqlError("unsupported: " + what + " other than an integer constant");
        }
        try {
            return l.getValueAs(BigDecimal.class).longValueExact();
        } catch (ArithmeticException e) {
            throw new SqlError("unsupported: " + what + " other than an integer constant");
        }
    }

    private static WindowFunction.Bound bound(RexWindowBound b, boolean rows, List<SortKey> order, List<Expr> in, Window w) {
        if (b.isUnboundedPreceding()) {
            return new WindowFunction.Bound(WindowFunction.BoundKind.UNBOUNDED_PRECEDING, null);
        }
        if (b.isUnboundedFollowing()) {
            return new WindowFunction.Bound(WindowFunction.BoundKind.UNBOUNDED_FOLLOWING, null);
        }
        if (b.isCurrentRow()) {
            return new WindowFunction.Bound(WindowFunction.BoundKind.CURRENT_ROW, null);
        }
        WindowFunction.BoundKind kind = b.isPreceding() ? WindowFunction.BoundKind.PRECEDING : WindowFunction.BoundKind.FOLLOWING;
        Expr groups = groupsOffset(b, in);
        if (groups != null) {
            return groupsBound(kind, groups);
        }
        if (!rows && order.size() == 1) {
            DataType key = in.get(order.get(0).column()).type();
            io.tessera.storage.Interval iv = intervalOffset(b.getOffset(), in, w);
            if (iv != null && (key.kind() == TypeKind.DATE || key.kind() == TypeKind.TIMESTAMP)) {
                return calendarBound(kind, iv, key);
            }
            if (iv != null) {
                throw new SqlError("unsupported: RANGE offset " + iv + " over an ORDER BY key of type " + key
                        + " (DATE and TIMESTAMP keys take INTERVAL offsets)");
            }
        }
        RexLiteral lit = constant(b.getOffset(), in.size(), w);
        if (lit == null || lit.isNull()) {
            throw new SqlError("unsupported: a frame offset other than a constant");
        }
        if (rows) {
            long n = integerConstant(b.getOffset(), in.size(), w, "a ROWS frame offset");
            if (n < 0) {
                throw new SqlError("a frame offset must not be negative: " + n);
            }
            return new WindowFunction.Bound(kind, n);
        }
        if (order.size() != 1) {
            throw new SqlError("unsupported: a RANGE frame with an offset needs exactly one ORDER BY key");
        }
        DataType key = in.get(order.get(0).column()).type();
        if (key.kind() == TypeKind.DATE) {
            return new WindowFunction.Bound(kind, dateOffsetDays(lit));
        }
        Expr.Literal off = RexTranslator.literal(lit);
        BigDecimal v = switch (off.type().kind()) {
            case INTEGER, BIGINT -> BigDecimal.valueOf((Long) off.value());
            case DECIMAL -> BigDecimal.valueOf((Long) off.value(), off.type().scale());
            case DOUBLE -> BigDecimal.valueOf((Double) off.value());
            default -> throw new SqlError("unsupported: a RANGE frame offset of type " + off.type());
        };
        if (v.signum() < 0) {
            throw new SqlError("a frame offset must not be negative: " + v.toPlainString());
        }
        try {
            Object value = switch (key.kind()) {
                case INTEGER, BIGINT -> v.setScale(0).longValueExact();
                case DECIMAL -> v.setScale(key.scale()).unscaledValue().longValueExact();
                case DOUBLE -> v.doubleValue();
                default -> throw new SqlError("unsupported: a RANGE frame with an offset over an ORDER BY key of type " + key);
            };
            return new WindowFunction.Bound(kind, value);
        } catch (ArithmeticException inexact) {
            throw new SqlError("unsupported: RANGE offset " + v.toPlainString() + " for an ORDER BY key of type " + key);
        }
    }
}
