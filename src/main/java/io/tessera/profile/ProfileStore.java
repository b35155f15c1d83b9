package io.tessera.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tessera.variant.Genome;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The profile directory: one JSON file per device fingerprint. The default directory is {@code profiles} in
 * Tessera's cache directory; the system property {@value #PROPERTY} names another (the tests use their own).
 * Writes go to a temporary file renamed into place. A file that cannot be read is reported and treated as no
 * profile (queries then use the default genomes), never as a reason to fail a query.
 */
public final class ProfileStore {

    public static final String PROPERTY = "tessera.profiles.dir";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final Map<String, Cached> cache = new TreeMap<>();
    private final Map<String, Path> files = new java.util.concurrent.ConcurrentHashMap<>();

    private record Cached(FileTime modified, long size, Profile profile, String problem) {
    }

    public ProfileStore(Path dir) {
        this.dir = dir;
    }

    /** The store of this process: {@value #PROPERTY} if set, else {@code <cache dir>/profiles}. */
    public static ProfileStore openDefault() {
        String p = System.getProperty(PROPERTY);
        return new ProfileStore(p != null && !p.isBlank() ? Path.of(p) : CacheDirectory.root().resolve("profiles"));
    }

    public Path dir() {
        return dir;
    }

    /** The file of a fingerprint: its text made file-name safe, and a hash so that different ones never meet. */
    public Path file(String fingerprint) {
        // made once per device: a genome choice looks at its device's file in every prepare
        return files.computeIfAbsent(fingerprint, this::fileOf);
    }

    private Path fileOf(String fingerprint) {
        String safe = fingerprint.replaceAll("[^A-Za-z0-9._-]+", "_");
        if (safe.length() > 100) {
            safe = safe.substring(0, 100);
        }
        return dir.resolve(safe + "-" + String.format("%08x", fingerprint.hashCode()) + ".json");
    }

    /** The profile of a device; empty when there is none. */
    public Profile load(String fingerprint) {
        Cached c = read(fingerprint);
        return c.profile;
    }

    /** A device's profile (empty when there is none) and why it could not be read (null: no problem). */
    public record Loaded(Profile profile, String problem) {
    }

    /** {@link #load} of a device and why its file could not be read, from one look at the file. */
    public Loaded loadWithProblem(String fingerprint) {
        Cached c = read(fingerprint);
        return new Loaded(c.profile, c.problem);
    }

    private synchronized Cached read(String fingerprint) {
        Path f = file(fingerprint);
        FileTime modified;
        long size;
        try {
            if (!Files.isRegularFile(f)) {
                return new Cached(null, -1, Profile.empty(fingerprint), null);
            }
            modified = Files.getLastModifiedTime(f);
            size = Files.size(f);
        } catch (IOException e) {
            return new Cached(null, -1, Profile.empty(fingerprint), "cannot read " + f + ": " + e.getMessage());
        }
        Cached c = cache.get(fingerprint);
        if (c != null && modified.equals(c.modified) && size == c.size) {
            return c;
        }
        try {
            Profile p = parse(Files.readString(f, StandardCharsets.UTF_8));
            if (!p.fingerprint().equals(fingerprint)) {
                c = new Cached(modified, size, Profile.empty(fingerprint),
                        f + " holds the profile of another device (" + p.fingerprint() + ")");
            } else {
                c = new Cached(modified, size, p, null);
            }
        } catch (IOException | RuntimeException e) {
            c = new Cached(modified, size, Profile.empty(fingerprint), "cannot read the profile " + f + ": "
                    + e.getMessage());
        }
        cache.put(fingerprint, c);
        return c;
    }

    /** Stores a profile (the whole file of its device). */
    public synchronized void save(Profile p) {
        Path f = file(p.fingerprint());
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".profile-", ".tmp");
            Files.writeString(tmp, format(p), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
            }
            cache.remove(p.fingerprint());
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the profile " + f + ": " + e.getMessage(), e);
        }
    }

    static String format(Profile p) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("device", p.fingerprint());
        ObjectNode entries = root.putObject("entries");
        for (Map.Entry<String, Profile.Entry> e : p.entries().entrySet()) {
            Profile.Entry v = e.getValue();
            ObjectNode o = entries.putObject(e.getKey());
            o.put("genome", v.genome().toString());
            o.put("strategy", v.strategy());
            ArrayNode q = o.putArray("queries");
            v.queries().forEach(q::add);
            o.put("seconds", v.seconds());
            o.put("defaultSeconds", v.defaultSeconds());
            o.put("variants", v.variants());
            o.put("costSeconds", v.costSeconds());
            o.put("tunedAt", v.tunedAt());
        }
        return JSON.writeValueAsString(root) + "\n";
    }

    static Profile parse(String text) throws IOException {
        JsonNode root = JSON.readTree(text);
        if (root == null || !root.isObject() || !root.path("device").isTextual() || !root.path("entries").isObject()) {
            throw new IOException("not a profile (needs \"device\" and \"entries\")");
        }
        Map<String, Profile.Entry> entries = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = root.get("entries").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode o = e.getValue();
            if (!o.path("genome").isTextual()) {
                throw new IOException("entry " + e.getKey() + " has no genome");
            }
            List<String> queries = new ArrayList<>();
            for (JsonNode q : o.path("queries")) {
                queries.add(q.asText());
            }
            entries.put(e.getKey(), new Profile.Entry(Genome.parse(o.get("genome").asText()),
                    o.path("strategy").asText(""), queries, o.path("seconds").asDouble(Double.NaN),
                    o.path("defaultSeconds").asDouble(Double.NaN), o.path("variants").asInt(0),
                    o.path("costSeconds").asDouble(Double.NaN), o.path("tunedAt").asText("")));
        }
        return new Profile(root.get("device").asText(), entries);
    }
}
