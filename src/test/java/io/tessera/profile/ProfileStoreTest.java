package io.tessera.profile;

import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileStoreTest {

    static final String CPU = "cpu|AMD EPYC|cores2|Java 25.0.3+9-LTS";

    static Profile.Entry entry(String genome) {
        return new Profile.Entry(Genome.parse(genome), "feature-wise", List.of("ssb/q2.1", "ssb/q2.2"), 0.0251, 0.0302,
                17, 4.5, "2025-01-01T00:00:00Z");
    }

    @Test
    void savesAndLoadsAProfilePerDevice(@TempDir Path dir) throws IOException {
        ProfileStore store = new ProfileStore(dir.resolve("profiles"));
        assertEquals(Profile.empty(CPU), store.load(CPU));
        assertNull(store.loadWithProblem(CPU).problem());
        Profile p = Profile.empty(CPU)
                .with("LOOP:lineorder|PROBE|GROUPAGGREGATE", entry("jvm{workers=2,morsel=65536,agg=dense,hash=mulshift}"))
                .with("LOOP:ddate|FILTER|BUILD", entry("jvm{workers=1,morsel=4096,pred=branch,ht=linear,hash=murmur}"));
        store.save(p);
        assertEquals(p, store.load(CPU));
        assertEquals(p, new ProfileStore(dir.resolve("profiles")).load(CPU), "read back from disk");
        try (Stream<Path> files = Files.list(dir.resolve("profiles"))) {
            assertEquals(List.of(store.file(CPU)), files.toList(), "one file, no temporary left");
        }
        String text = Files.readString(store.file(CPU));
        assertTrue(text.contains("\"device\" : \"" + CPU + "\"") && text.contains("\"defaultSeconds\" : 0.0302"), text);
        // another device has its own file
        String other = "cpu|AMD EPYC|cores1|Java 25.0.3+9-LTS";
        assertNotEquals(store.file(CPU), store.file(other));
        assertEquals(Profile.empty(other), store.load(other));
        // replacing an entry
        Profile q = store.load(CPU).with("LOOP:ddate|FILTER|BUILD", entry("jvm{workers=2,morsel=16384,pred=branch,ht=perfect,hash=mulshift}"));
        store.save(q);
        assertEquals("perfect", store.load(CPU).entry("LOOP:ddate|FILTER|BUILD").genome().get("ht"));
    }

    @Test
    void aDamagedOrForeignFileIsReportedAndReadsAsNoProfile(@TempDir Path dir) throws IOException {
        ProfileStore store = new ProfileStore(dir);
        Files.writeString(store.file(CPU), "{ not json");
        assertEquals(Profile.empty(CPU), store.load(CPU));
        assertTrue(store.loadWithProblem(CPU).problem().startsWith("cannot read the profile " + store.file(CPU)), store.loadWithProblem(CPU).problem());
        Files.writeString(store.file(CPU), ProfileStore.format(Profile.empty("cpu|Other|cores8|Java 21")));
        assertEquals(Profile.empty(CPU), store.load(CPU));
        assertTrue(store.loadWithProblem(CPU).problem().contains("another device"), store.loadWithProblem(CPU).problem());
        Files.writeString(store.file(CPU), "{\"device\": \"" + CPU + "\", \"entries\": {\"X\": {\"strategy\": \"x\"}}}");
        assertTrue(store.loadWithProblem(CPU).problem().contains("has no genome"), store.loadWithProblem(CPU).problem());
    }

    @Test
    void theDefaultDirectoryIsTheTestsOwn() {
        String p = System.getProperty(ProfileStore.PROPERTY);
        assertTrue(p != null && p.contains("test-profiles"), "surefire sets " + ProfileStore.PROPERTY + ": " + p);
        assertEquals(Path.of(p), ProfileStore.openDefault().dir());
    }
}
