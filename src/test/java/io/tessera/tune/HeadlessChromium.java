package io.tessera.tune;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Opens a page in headless Chromium (Debian's chromium package) and returns the DOM after its scripts ran. A
 * machine without Chromium fails the test that needs it, saying how to install it: ./run-tests installs it.
 */
public final class HeadlessChromium {
    private HeadlessChromium() {
    }

    public static Path binary() {
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (!dir.isEmpty() && Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        fail("headless Chromium is needed to check the report's charts, and neither chromium nor chromium-browser is on "
                + "the PATH: install Debian's chromium package (apt-get install chromium); ./run-tests installs it");
        return null;
    }

    public static String dumpDom(Path page, Path scratch) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(scratch, "chromium-profile");
        Path err = scratch.resolve("chromium-stderr.txt");
        Process p = new ProcessBuilder(binary().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--user-data-dir=" + profile, "--dump-dom", page.toUri().toString())
                .redirectError(err.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 120 s");
        }
        String dom = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
        assertTrue(dom.contains("<body"), "no DOM from chromium: " + dom + Files.readString(err));
        return dom;
    }

    /** Occurrences of a regular expression. */
    public static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** The value of attribute {@code attr} on the element whose {@code data-chart} is {@code id}. */
    public static String attr(String dom, String id, String attr) {
        Matcher m = Pattern.compile("<svg[^>]*data-chart=\"" + Pattern.quote(id) + "\"[^>]*>").matcher(dom);
        assertTrue(m.find(), "no chart " + id);
        Matcher a = Pattern.compile(attr + "=\"([^\"]*)\"").matcher(m.group());
        assertTrue(a.find(), "chart " + id + " has no " + attr + ": " + m.group());
        return a.group(1);
    }

    /** The SVG element of a chart with its content. */
    public static String chart(String dom, String id) {
        int start = dom.indexOf("data-chart=\"" + id + "\"");
        assertTrue(start >= 0, "no chart " + id);
        int end = dom.indexOf("</svg>", start);
        return dom.substring(start, end);
    }
}
