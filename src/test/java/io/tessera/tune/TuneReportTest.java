package io.tessera.tune;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.tessera.tune.HeadlessChromium.attr;
import static io.tessera.tune.HeadlessChromium.chart;
import static io.tessera.tune.HeadlessChromium.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report page draws its charts in a browser: checked in headless Chromium through the DOM after its script ran. */
class TuneReportTest {

    @Test
    void chartsAndHeatMapAreDrawnWithTheirData(@TempDir Path dir) throws Exception {
        TuneReport.Chart runtimes = new TuneReport.Chart("runtimes-cpu", "cpu: variant runtimes", "rank", "time", true, List.of(
                new TuneReport.Line("q1.1", new double[] {0, 0.5, 1}, new double[] {1, 1.2, 3}),
                new TuneReport.Line("q2.1", new double[] {0, 0.25, 0.5, 0.75, 1}, new double[] {1, 1.1, 1.4, 2, 7}),
                new TuneReport.Line("q3.1 </script> & <b>", new double[] {0, 1}, new double[] {1, Double.NaN})));
        TuneReport.Chart conv = new TuneReport.Chart("convergence", "convergence", "s", "best", false, List.of(
                new TuneReport.Line("feature-wise", new double[] {0.1, 0.2, 0.3, 0.4}, new double[] {2, 1.5, 1.5, 1}),
                new TuneReport.Line("empty", new double[0], new double[0])));
        TuneReport.HeatMap heat = new TuneReport.HeatMap("matrix", "tuned for, run on", List.of("q1 cpu", "q1 cpu:1",
                "q2 cpu", "q2 cpu:1"), List.of("cpu", "cpu:1"), new double[][] {{1, 1.6}, {1.9, 1}, {1, Double.NaN},
                {2.2, 1}}, new String[][] {{"a", "b"}, {"c", "d"}, {"e", "n/a"}, {"g", "h"}});
        String html = TuneReport.html("Test report", List.of("fact one"), List.of(
                new TuneReport.Section("Runtimes", "sorted", List.of(runtimes), List.of()),
                new TuneReport.Section("Convergence", "", List.of(conv), List.of()),
                new TuneReport.Section("Matrix", "m", List.of(), List.of(heat))));
        assertFalse(html.contains("src=") || html.contains("href=") || html.contains("@import"), "self-contained");
        Path page = dir.resolve("report.html");
        TuneReport.write(page, html);
        String dom = HeadlessChromium.dumpDom(page, dir);
        assertFalse(dom.contains("data-error=\""), dom);
        assertTrue(dom.contains("data-drawn=\"3\""), "three charts drawn");
        assertEquals("3", attr(dom, "runtimes-cpu", "data-lines"));
        assertEquals("9", attr(dom, "runtimes-cpu", "data-points"), "3 + 5 + 1 finite points");
        assertEquals(3, count(chart(dom, "runtimes-cpu"), "<polyline[^>]*class=\"series\""));
        assertTrue(chart(dom, "runtimes-cpu").contains("q3.1 &lt;/script&gt; &amp; &lt;b&gt;"), "names are text");
        assertEquals("1", attr(dom, "convergence", "data-lines"), "an empty line is not drawn");
        assertEquals("4", attr(dom, "convergence", "data-points"));
        assertEquals("8", attr(dom, "matrix", "data-cells"));
        String m = chart(dom, "matrix");
        assertEquals(8, count(m, "<rect[^>]*class=\"cell\""));
        assertEquals(1, count(m, "data-value=\"NaN\""));
        assertEquals(1, count(m, "data-value=\"2.200\""));
        assertTrue(m.contains(">n/a<") && m.contains("run on cpu:1"));
    }
}
