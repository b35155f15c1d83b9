package io.tessera.backend;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Expr;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.SortKey;
import io.tessera.plan.Source;
import io.tessera.plan.WindowFunction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the comments of a pipeline's generated code name what its plan holds, without the query's text: a column by
 * its position ({@code c2}, a build row's payload column {@code j1.c0}, an output {@code #3}), a constant by its
 * number in the pipeline ({@code lit0}: a literal, a LIKE pattern, an IN list, a LIMIT), a table as {@code table}.
 * {@link #legend} says what each stands for, for EXPLAIN CODE to print beside the source (never inside it).
 *
 * <p>Constants are numbered in the order a walk over the pipeline meets them (source, operations, sink), equal
 * values of one type once, so the comments of two queries that differ only in their constants are the same.
 */
public final class CodeNames {

    private final Pipeline p;
    /** Each constant's name, by its value and type. */
    private final Map<List<Object>, String> constants = new LinkedHashMap<>();
    /** What each constant is, in the order of {@link #constants}. */
    private final List<String> constantText = new ArrayList<>();

    public CodeNames(Pipeline p) {
        this.p = p;
        lines(); // numbers the constants in the order of the walk, before any emitter asks for one
    }

    /** The pipeline as the generated code's header prints it: one line per source, operation and sink. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("pipeline " + p.id() + ": " + source());
        for (Operation op : p.operations()) {
            out.add("  -> " + operation(op));
        }
        out.add("  -> " + sink(p.sink()));
        return out;
    }

    /**
     * What the names of the comments stand for, a line each: the table, the source's columns, the payload columns
     * of the tables the pipeline probes, then the constants.
     */
    public List<String> legend() {
        List<String> out = new ArrayList<>();
        if (p.source() instanceof Source.TableScan t) {
            out.add("table = " + visible(t.table().name()));
        }
        List<ColumnInfo> cs = p.source().columns();
        for (int c = 0; c < cs.size(); c++) {
            out.add("c" + c + " = " + visible(cs.get(c).name()));
        }
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe pr) {
                List<String> names = pr.build().payloadNames();
                for (int c = 0; c < names.size(); c++) {
                    out.add(payload(pr.joinId(), c) + " = " + visible(names.get(c)));
                }
            }
        }
        for (int i = 0; i < constantText.size(); i++) {
            out.add("lit" + i + " = " + visible(constantText.get(i)));
        }
        return out;
    }

    public String source() {
        return switch (p.source()) {
            case Source.TableScan t -> "LOOP table";
            case Source.RelationScan r -> "LOOP r" + r.relationId();
            case Source.JoinTableScan j -> "LOOP j" + j.joinId() + (j.matched() ? " (matched)" : " (unmatched)");
        };
    }

    public String operation(Operation op) {
        return switch (op) {
            case Operation.Filter f -> "FILTER " + expr(f.condition());
            case Operation.Probe pr -> "PROBE j" + pr.joinId() + " " + pr.kind().name().toLowerCase(Locale.ROOT)
                    + (pr.marks() ? " marking" : "") + " on " + exprs(pr.keys())
                    + (pr.residual() != null ? " where " + expr(pr.residual()) : "");
        };
    }

    public String sink(Sink s) {
        return switch (s) {
            case Sink.Build b -> "BUILD j" + b.joinId() + " keys " + exprs(b.keys()) + (b.uniqueKeys() ? " unique" : "")
                    + (b.range() != null ? " range [" + b.range().min() + ".." + b.range().max() + "]" : "")
                    + " payload " + exprs(b.payload()) + (b.keepsNullKeys() ? " with NULL keys" : "");
            case Sink.Aggregate a -> "AGGREGATE " + aggs(a.aggs()) + " -> r" + a.relationId();
            case Sink.GroupAggregate ga -> "GROUP_AGGREGATE by " + exprs(ga.keys()) + " " + aggs(ga.aggs())
                    + " -> r" + ga.relationId();
            case Sink.Materialize m -> "MATERIALIZE " + exprs(m.outputs())
                    + (m.fetch() >= 0 ? " limit " + constant(m.fetch(), "BIGINT") : "")
                    + (m.offset() > 0 ? " offset " + constant(m.offset(), "BIGINT") : "") + " -> r" + m.relationId();
            case Sink.Sort so -> (so.isTopK() ? "TOP_K " + constant(so.offset() + so.fetch(), "BIGINT") + " " : "SORT ")
                    + so.keys() + " of " + exprs(so.outputs()) + " -> r" + so.relationId();
            case Sink.Window w -> "WINDOW " + w.functions().stream().map(this::window).toList() + " of "
                    + exprs(w.outputs()) + " -> r" + w.relationId();
            case Sink.Marks m -> "MARKS j" + m.joinId();
        };
    }

    /** A list of expressions as {@code [e1, e2]}. */
    public String exprs(List<? extends Expr> es) {
        return es.stream().map(this::expr).toList().toString();
    }

    /** An expression with its columns and constants named. */
    public String expr(Expr e) {
        return switch (e) {
            case Expr.Ref r -> slot(r.slot());
            case Expr.Literal l -> l.value() == null ? "NULL" : constant(l.value(), l.type().toString(), l.toString());
            case Expr.Call c -> {
                StringBuilder sb = new StringBuilder(c.op().name().toLowerCase(Locale.ROOT)).append('(');
                for (int i = 0; i < c.args().size(); i++) {
                    sb.append(i > 0 ? ", " : "").append(expr(c.args().get(i)));
                }
                if (c.detail() != null) {
                    sb.append(c.args().isEmpty() ? "" : ", ").append(detail(c.detail()));
                }
                yield sb.append(')').toString();
            }
        };
    }

    /** A slot: {@code c<index>} of the source, {@code j<join>.c<index>} of a matched build row's payload. */
    public static String slot(Slot s) {
        return (s.isSource() ? "" : "j" + s.joinId() + ".") + "c" + s.index();
    }

    /** Column {@code index} of the source: {@code c<index>}. */
    public static String sourceColumn(int index) {
        return "c" + index;
    }

    /** Payload column {@code c} of join {@code joinId}'s table as this pipeline's build or probe sees it. */
    public static String payload(int joinId, int c) {
        return "j" + joinId + ".c" + c;
    }

    public String aggs(List<AggCall> as) {
        return as.stream().map(this::agg).toList().toString();
    }

    public String agg(AggCall a) {
        String f = a.function().name().toLowerCase(Locale.ROOT).replace("_star", "");
        String arg = a.arg() == null ? "*" : expr(a.arg());
        StringBuilder sb = new StringBuilder();
        if (a.options() != null) {
            sb.append(f).append('(').append(a.options().distinct() ? "distinct " : "").append(arg);
            if (a.function() == AggFunction.STRING_AGG) {
                sb.append(", ").append(a.options().separator() == null ? "NULL" : constant(a.options().separator(), "VARCHAR"));
            } else if (a.function() != AggFunction.MODE) {
                sb.append(", ").append(constant(a.options().fraction(), "DOUBLE"));
            }
            if (!a.options().order().isEmpty()) {
                sb.append(" order by ").append(String.join(", ", a.options().order().stream().map(o -> expr(o.key())
                        + (o.descending() ? " desc" : "") + (o.nullsFirst() ? " nulls first" : "")).toList()));
            }
            sb.append(')');
        } else if (a.function().distinct()) {
            sb.append(f.replace("_distinct", "")).append("(distinct ").append(arg).append(')');
        } else {
            sb.append(f).append('(').append(arg).append(')');
        }
        return a.filter() == null ? sb.toString() : sb.append(" filter ").append(expr(a.filter())).toString();
    }

    private String window(WindowFunction w) {
        StringBuilder sb = new StringBuilder(w.kind().name().toLowerCase(Locale.ROOT)).append('(');
        List<String> args = new ArrayList<>();
        if (w.arg() >= 0) {
            args.add("#" + w.arg());
        }
        if (w.kind() == WindowFunction.Kind.LAG || w.kind() == WindowFunction.Kind.LEAD
                || w.kind() == WindowFunction.Kind.NTILE) {
            args.add(constant(w.offset(), "BIGINT"));
        }
        if (w.defaultColumn() >= 0) {
            args.add("#" + w.defaultColumn());
        } else if (w.defaultValue() != null) {
            args.add(expr(new Expr.Literal(w.defaultValue(), w.type())));
        }
        sb.append(String.join(", ", args)).append(") over (");
        if (!w.partition().isEmpty()) {
            sb.append("partition by ").append(w.partition().stream().map(c -> "#" + c).toList()).append(' ');
        }
        if (!w.order().isEmpty()) {
            sb.append("order by ").append(w.order().stream().map(SortKey::toString).toList()).append(' ');
        }
        if (w.kind().framed() && w.frame() != null) {
            sb.append(w.frame().rows() ? "rows" : "range").append(" between ").append(bound(w.frame().lower()))
                    .append(" and ").append(bound(w.frame().upper()));
        }
        return sb.toString().trim() + ")";
    }

    private String bound(WindowFunction.Bound b) {
        return switch (b.kind()) {
            case PRECEDING -> constant(b.offset(), "offset") + " preceding";
            case FOLLOWING -> constant(b.offset(), "offset") + " following";
            default -> b.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    /** An operator's detail: a function's name as the code's vocabulary has it, anything else a constant. */
    private String detail(Object d) {
        if (d instanceof Enum<?> en) {
            return en.name().toLowerCase(Locale.ROOT);
        }
        String type = d instanceof String ? "text" : d instanceof List<?> ? "list" : d.getClass().getSimpleName();
        return constant(d, type);
    }

    private String constant(Object value, String type) {
        return constant(value, type, value instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(value));
    }

    /** The name of a constant: {@code lit<n>}, the same for equal values of one type. */
    private String constant(Object value, String type, String text) {
        List<Object> key = java.util.Arrays.asList(value, type);
        String name = constants.get(key);
        if (name == null) {
            name = "lit" + constants.size();
            constants.put(key, name);
            constantText.add((text.length() <= 200 ? text : text.substring(0, 200) + " ...") + " (" + type + ")");
        }
        return name;
    }

    /** Text as one visible line: control characters escaped, so a name with a line break stays one line. */
    public static String visible(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
