package io.tessera.tune;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained HTML page of tuning charts: line charts (each device's variant runtimes sorted, each
 * strategy's convergence) and heat maps (the cross-device matrix), drawn as inline SVG by an inline script from
 * data embedded in the page. Nothing is loaded from the network.
 */
public final class TuneReport {

    /** One line of a chart. */
    public record Line(String name, double[] x, double[] y) {
    }

    /** A line chart; {@code logY} draws the y axis logarithmic. */
    public record Chart(String id, String title, String xLabel, String yLabel, boolean logY, List<Line> lines) {
    }

    /** A heat map of ratios (1 is best), each cell labelled with {@code text}. */
    public record HeatMap(String id, String title, List<String> rows, List<String> cols, double[][] values,
                          String[][] text) {
    }

    /** A titled part of the page. */
    public record Section(String title, String text, List<Chart> charts, List<HeatMap> heatMaps) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private TuneReport() {
    }

    public static String html(String title, List<String> facts, List<Section> sections) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
                .append("</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}"
                        + "svg{margin:8px;border:1px solid #ddd;background:#fff}"
                        + "p.fact{margin:2px 0;font-size:13px}h2{margin-top:28px}</style></head>\n<body>\n");
        sb.append("<h1>").append(escape(title)).append("</h1>\n");
        for (String f : facts) {
            sb.append("<p class=\"fact\">").append(escape(f)).append("</p>\n");
        }
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            sb.append("<h2>").append(escape(s.title())).append("</h2>\n");
            if (s.text() != null && !s.text().isEmpty()) {
                sb.append("<p>").append(escape(s.text())).append("</p>\n");
            }
            sb.append("<div class=\"section\" id=\"section-").append(i).append("\"></div>\n");
        }
        sb.append("<script id=\"report-data\" type=\"application/json\">").append(data(sections)).append("</script>\n");
        sb.append("<script>\n").append(script()).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    public static void write(Path file, String html) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the report " + file + ": " + e.getMessage(), e);
        }
    }

    /** The charts' data as JSON, safe inside a script element (no "</"); non-finite numbers become null. */
    static String data(List<Section> sections) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("sections", sections.stream().map(s -> Map.of(
                "charts", s.charts().stream().map(c -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", c.id());
                    m.put("title", c.title());
                    m.put("xLabel", c.xLabel());
                    m.put("yLabel", c.yLabel());
                    m.put("logY", c.logY());
                    m.put("lines", c.lines().stream().map(l -> Map.of("name", l.name(), "x", finite(l.x()),
                            "y", finite(l.y()))).toList());
                    return m;
                }).toList(),
                "heatMaps", s.heatMaps().stream().map(h -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", h.id());
                    m.put("title", h.title());
                    m.put("rows", h.rows());
                    m.put("cols", h.cols());
                    Object[] vals = new Object[h.values().length];
                    for (int i = 0; i < vals.length; i++) {
                        vals[i] = finite(h.values()[i]);
                    }
                    m.put("values", vals);
                    m.put("text", h.text());
                    return m;
                }).toList())).toList());
        try {
            return JSON.writeValueAsString(root).replace("</", "<\\/");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object[] finite(double[] v) {
        Object[] out = new Object[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = Double.isFinite(v[i]) ? v[i] : null;
        }
        return out;
    }

    private static String script() {
        try (InputStream in = TuneReport.class.getResourceAsStream("report.js")) {
            if (in == null) {
                throw new IllegalStateException("report.js is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("</", "<\\/");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
