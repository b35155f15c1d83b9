package io.tessera.backend.cuda.measure;

import io.tessera.profile.CacheDirectory;
import io.tessera.profile.DeviceInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The measured read bandwidth of each processor this user has run on, remembered in
 * &lt;cache&gt;/devices.json under the processor's fingerprint, so that it is measured once:
 * <pre>
 * {"version": 1, "devices": [
 *   {"fingerprint": "gpu|NVIDIA H200|cc9.0|sm132|driver13000", "readGBps": 3300.0,
 *    "measuredAt": "2026-01-01T00:00:00Z", "method": "..."}]}
 * </pre>
 */
public final class DeviceCatalog {
    /** One remembered measurement. */
    public record Entry(String fingerprint, double readGBps, String measuredAt, String method) {
    }

    private final Path file;

    public DeviceCatalog(Path file) {
        this.file = file;
    }

    /** The catalog in the default cache directory. */
    public static DeviceCatalog openDefault() {
        return new DeviceCatalog(CacheDirectory.root().resolve("devices.json"));
    }

    public Path file() {
        return file;
    }

    /** Every entry, by fingerprint; empty when the file is absent or unreadable. */
    public synchronized Map<String, Entry> load() {
        if (!Files.isRegularFile(file)) {
            return new LinkedHashMap<>();
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            System.err.println("tessera: ignoring unreadable " + file + ": " + e.getMessage());
            return new LinkedHashMap<>();
        }
    }

    /** The remembered entry of a device, or null. */
    public Entry get(DeviceInfo device) {
        return load().get(device.fingerprint());
    }

    /** Remembers a measurement (replacing an older one of the same device). */
    public synchronized void put(DeviceInfo device, BandwidthProbe.Result r) {
        Map<String, Entry> all = load();
        all.put(device.fingerprint(), new Entry(device.fingerprint(), r.gbPerSecond(), Instant.now().toString(), r.method()));
        store(all);
    }

    /**
     * The device's read bandwidth in GB/s: the remembered one, or (when there is none, or when
     * {@code remeasure}) a new measurement, which is then remembered.
     */
    public Entry bandwidth(DeviceInfo device, boolean remeasure, Supplier<BandwidthProbe.Result> measure) {
        Entry e = remeasure ? null : get(device);
        if (e != null) {
            return e;
        }
        put(device, measure.get());
        return get(device);
    }

    private void store(Map<String, Entry> all) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "devices", ".tmp");
            try {
                Files.writeString(tmp, toJson(all), StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            System.err.println("tessera: cannot write " + file + ": " + e.getMessage());
        }
    }

    static String toJson(Map<String, Entry> all) {
        StringBuilder sb = new StringBuilder("{\n  \"version\": 1,\n  \"devices\": [");
        boolean first = true;
        for (Entry e : all.values()) {
            sb.append(first ? "\n" : ",\n");
            first = false;
            sb.append("    {\"fingerprint\": ").append(quote(e.fingerprint()))
                    .append(", \"readGBps\": ").append(e.readGBps())
                    .append(", \"measuredAt\": ").append(quote(e.measuredAt()))
                    .append(", \"method\": ").append(quote(e.method())).append('}');
        }
        return sb.append("\n  ]\n}\n").toString();
    }

    static Map<String, Entry> parse(String json) {
        Object root = new Json(json).document();
        Map<String, Entry> out = new LinkedHashMap<>();
        if (!(root instanceof Map<?, ?> m) || !(m.get("devices") instanceof List<?> devices)) {
            throw new IllegalArgumentException("no \"devices\" list");
        }
        for (Object o : devices) {
            if (o instanceof Map<?, ?> d && d.get("fingerprint") instanceof String fp
                    && d.get("readGBps") instanceof Double gbps) {
                out.put(fp, new Entry(fp, gbps, String.valueOf(d.get("measuredAt")), String.valueOf(d.get("method"))));
            }
        }
        return out;
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A small JSON reader (objects, arrays, strings, numbers as doubles, booleans, null). */
    private static final class Json {
        private final String s;
        private int pos;

        Json(String s) {
            this.s = s;
        }

        Object document() {
            Object v = value();
            skip();
            if (pos != s.length()) {
                throw error("trailing text");
            }
            return v;
        }

        private Object value() {
            skip();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (peek('}')) {
                        pos++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String k = string();
                        skip();
                        expect(':');
                        m.put(k, value());
                        skip();
                        if (peek(',')) {
                            pos++;
                        } else {
                            expect('}');
                            return m;
                        }
                    }
                }
                case '[' -> {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    skip();
                    if (peek(']')) {
                        pos++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (peek(',')) {
                            pos++;
                        } else {
                            expect(']');
                            return l;
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", pos)) {
                        pos += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", pos)) {
                        pos += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", pos)) {
                        pos += 4;
                        return null;
                    }
                    int start = pos;
                    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    if (start == pos) {
                        throw error("unexpected '" + c + "'");
                    }
                    return Double.parseDouble(s.substring(start, pos));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (pos < s.length()) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(pos++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 'r' -> sb.append('\r');
                        case 't' -> sb.append('\t');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            pos += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
            throw error("unterminated string");
        }

        private void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private boolean peek(char c) {
            return pos < s.length() && s.charAt(pos) == c;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at offset " + pos);
        }
    }
}
