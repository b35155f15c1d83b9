package io.tessera.exec;

import io.tessera.backend.Backend;
import io.tessera.backend.CodeNames;
import io.tessera.backend.PipelineActuals;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Pipeline;
import io.tessera.profile.GenomeChooser;

import java.util.List;
import java.util.Locale;

/**
 * EXPLAIN's text: each pipeline with the optimizer's estimate after every line, its genome, the device it runs on
 * and why; EXPLAIN ANALYZE adds each line's actual rows beside the estimate, each pipeline's time, and a summary
 * with the worst join estimate ({@link JoinEstimates}); EXPLAIN CODE the generated source of every pipeline.
 */
final class ExplainText {

    private ExplainText() {
    }

    /** The plan as EXPLAIN prints it; with {@code run} (null: not run) as EXPLAIN ANALYZE prints it. */
    static String plan(QueryEngine.Prepared p, AnalyzedRun run) {
        StringBuilder sb = new StringBuilder();
        for (Pipeline pl : p.plan().pipelines()) {
            List<String> lines = pl.lines();
            long[] actual = run == null ? null : run.actuals().rows(pl);
            for (int i = 0; i < lines.size(); i++) {
                sb.append(lines.get(i)).append(rows(pl.estimatedRows().get(i), actual == null ? null : actual[i]))
                        .append('\n');
            }
            sb.append("  genome: ").append(p.genomes().get(pl.id())).append(" (")
                    .append(p.origins().getOrDefault(pl.id(), GenomeChooser.DEFAULT)).append(")\n");
            boolean onGpu = !p.placement().onHost(pl.id());
            sb.append("  device: ").append(onGpu ? "gpu" : "jvm").append(" (")
                    .append(p.placement().reasons().get(pl.id())).append(")\n");
            if (onGpu) {
                String layout = p.gpu().describeOutput(pl.id());
                sb.append("  gpu: ").append(p.gpu().genomeText(pl.id())).append(" (")
                        .append(p.gpuOrigins().getOrDefault(pl.id(), GenomeChooser.DEFAULT))
                        .append(layout == null ? "" : "; " + layout).append(")\n");
            }
            if (run != null) {
                sb.append("  time: ").append(time(pl.id(), run.actuals())).append('\n');
            }
        }
        sb.append("result: r").append(p.plan().resultRelation()).append(' ')
                .append(p.plan().resultColumns().stream().map(ColumnInfo::name).toList());
        if (run != null) {
            sb.append('\n').append(String.format(Locale.ROOT, "analyzed: %,d result rows in %.3f ms (%s)", run.resultRows(),
                    run.nanos() / 1e6, run.device()));
            sb.append('\n').append(JoinEstimates.of(p.plan(), run.actuals()).summary());
        }
        return sb.toString();
    }

    /** The plan as one JSON document: an object per pipeline with its operators, estimates (and actuals, time). */
    static String json(QueryEngine.Prepared p, AnalyzedRun run) {
        StringBuilder sb = new StringBuilder("{\n  \"pipelines\": [");
        List<Pipeline> pipelines = p.plan().pipelines();
        for (int k = 0; k < pipelines.size(); k++) {
            Pipeline pl = pipelines.get(k);
            List<String> lines = pl.lines();
            long[] actual = run == null ? null : run.actuals().rows(pl);
            sb.append(k == 0 ? "\n" : ",\n").append("    {\"id\": ").append(pl.id()).append(", \"device\": ");
            JsonStrings.append(sb, p.placement().onHost(pl.id()) ? "jvm" : "gpu");
            sb.append(", \"genome\": ");
            JsonStrings.append(sb, String.valueOf(p.genomes().get(pl.id())));
            if (run != null) {
                long nanos = run.actuals().nanos(pl.id());
                sb.append(", \"time_ms\": ").append(nanos < 0 ? "null" : String.format(Locale.ROOT, "%.3f", nanos / 1e6));
            }
            sb.append(", \"operators\": [");
            for (int i = 0; i < lines.size(); i++) {
                String text = lines.get(i);
                text = i == 0 ? text.substring(text.indexOf(": ") + 2) : text.substring("  -> ".length());
                sb.append(i == 0 ? "\n" : ",\n").append("      {\"operator\": ");
                JsonStrings.append(sb, text);
                double est = pl.estimatedRows().get(i);
                sb.append(", \"estimated_rows\": ").append(Double.isNaN(est) ? "null" : Long.toString(Math.round(est)));
                if (actual != null) {
                    sb.append(", \"actual_rows\": ").append(actual[i] < 0 ? "null" : Long.toString(actual[i]));
                }
                sb.append('}');
            }
            sb.append("\n    ]}");
        }
        sb.append("\n  ],\n  \"result\": ");
        JsonStrings.append(sb, "r" + p.plan().resultRelation());
        if (run != null) {
            JoinEstimates joins = JoinEstimates.of(p.plan(), run.actuals());
            sb.append(",\n  \"result_rows\": ").append(run.resultRows());
            sb.append(",\n  \"time_ms\": ").append(String.format(Locale.ROOT, "%.3f", run.nanos() / 1e6));
            sb.append(",\n  \"joins\": ").append(joins.joins());
            sb.append(",\n  \"joins_compared\": ").append(joins.compared());
            sb.append(",\n  \"worst_join_ratio\": ").append(joins.worst() == null ? "null"
                    : String.format(Locale.ROOT, "%.3f", joins.worst().ratio()));
        }
        return sb.append("\n}").toString();
    }

    /**
     * The generated source of every pipeline on the device it runs on (EXPLAIN CODE), each after its legend: what
     * the names of its comments stand for (columns by position, constants by number) and the values its constants
     * are bound to, which the source itself never holds. The legend is EXPLAIN's text, not part of the source.
     */
    static String code(QueryEngine.Prepared p) {
        StringBuilder sb = new StringBuilder();
        for (Pipeline pl : p.plan().pipelines()) {
            Backend.Query device = p.placement().onHost(pl.id()) ? p.jvm() : p.gpu();
            sb.append("-- pipeline ").append(pl.id()).append(": the names in its code's comments, and its constants\n");
            for (String line : new CodeNames(pl).legend()) {
                sb.append("--   ").append(line).append('\n');
            }
            List<Object> constants = device.constants(pl.id());
            for (int k = 0; k < constants.size(); k++) {
                sb.append("--   k").append(k).append(" = ").append(CodeNames.visible(constantText(constants.get(k))))
                        .append('\n');
            }
            sb.append(device.source(pl.id())).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    /** A constant as the legend shows it: a string quoted, anything longer than a line cut. */
    private static String constantText(Object value) {
        String s = value instanceof String str ? "'" + str.replace("'", "''") + "'"
                : value != null && value.getClass().isArray() ? "an array of " + java.lang.reflect.Array.getLength(value)
                : String.valueOf(value);
        return s.length() <= 200 ? s : s.substring(0, 200) + " ...";
    }

    /**
     * What EXPLAIN prints after a line: {@code  ~1,234 rows}, and when the query ran {@code , actual 1,200} (or
     * {@code actual n/a} where the device did not count it).
     */
    static String rows(double estimate, Long actual) {
        StringBuilder sb = new StringBuilder();
        if (!Double.isNaN(estimate)) {
            sb.append(io.tessera.plan.Pipeline.rows(estimate));
        }
        if (actual != null) {
            sb.append(sb.isEmpty() ? "  " : ", ").append("actual ")
                    .append(actual < 0 ? "n/a" : String.format(Locale.ROOT, "%,d", actual));
        }
        return sb.toString();
    }

    private static String time(int id, PipelineActuals a) {
        long nanos = a.nanos(id);
        return nanos < 0 ? "not run" : String.format(Locale.ROOT, "%.3f ms on %s", nanos / 1e6, a.device(id));
    }

    /** A query run for EXPLAIN ANALYZE: what it counted, its result's rows, its time and where it ran. */
    record AnalyzedRun(PipelineActuals actuals, long resultRows, long nanos, String device) {
    }
}
