package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.data.io.AllowedDirectories;
import io.tessera.data.io.FileAccessException;
import io.tessera.data.io.SourceFile;
import io.tessera.sql.SqlError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A folder below the allowed directory swapped for a link to an outside folder, over and over, while files below it
 * are opened and COPY reads them: a file is read or refused, and never is the outside file's content read. (Checked
 * by what was read, not by time: the swapping only makes every interleaving likely.)
 */
class CopyLinkRaceTest {

    /** Turns {@code allowed/sub} from a folder into a link to {@code outside} and back until stopped. */
    private static final class Swapper extends Thread {
        private final Path sub;
        private final Path saved;
        private final Path link;
        private final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong swaps = new AtomicLong();
        volatile Throwable failure;

        Swapper(Path allowed, Path outside) throws IOException {
            super("link-swapper");
            setDaemon(true);
            sub = allowed.resolve("sub");
            saved = allowed.resolve("saved");
            link = Files.createSymbolicLink(allowed.resolve("link"), outside);
        }

        @Override
        public void run() {
            try {
                while (!stop.get()) {
                    Files.move(sub, saved, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, sub, StandardCopyOption.ATOMIC_MOVE); // sub is now a link out
                    Thread.onSpinWait();
                    Files.move(sub, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(saved, sub, StandardCopyOption.ATOMIC_MOVE); // sub is the folder again
                    swaps.incrementAndGet();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        void finish() throws InterruptedException {
            stop.set(true);
            join();
            assertEquals(null, failure, "the swapper failed");
            assertTrue(Files.isDirectory(sub, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        }
    }

    @Test
    void opensNeverReadTheOutsideFileWhileAFolderIsSwappedForALink(@TempDir Path work) throws Exception {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.createDirectories(allowed.resolve("sub"));
        Files.writeString(allowed.resolve("sub/in.csv"), "1,inside\n");
        Files.writeString(outside.resolve("in.csv"), "2,outside\n");
        AllowedDirectories dirs = new AllowedDirectories(List.of(allowed));
        String name = allowed.resolve("sub/in.csv").toString();
        Swapper swapper = new Swapper(allowed, outside);
        swapper.start();
        int read = 0;
        int refused = 0;
        try {
            for (int i = 0; i < 200_000 && (read < 2_000 || refused < 2_000); i++) {
                try {
                    SourceFile f = dirs.openForRead(name, "COPY");
                    assertEquals("1,inside\n", content(f));
                    read++;
                } catch (FileAccessException e) {
                    assertTrue(e.getMessage().contains("symbolic link") || e.getMessage().contains("no such "),
                            e.getMessage());
                    refused++;
                }
            }
        } finally {
            swapper.finish();
        }
        // both outcomes happened, so the swaps raced the opens
        assertTrue(read > 0 && refused > 0, read + " read, " + refused + " refused, " + swapper.swaps + " swaps");
    }

    @Test
    void copyNeverLoadsTheOutsideRowsWhileAFolderIsSwappedForALink(@TempDir Path work) throws Exception {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.createDirectories(allowed.resolve("sub"));
        StringBuilder inside = new StringBuilder();
        StringBuilder secret = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            inside.append(i).append(",inside\n");
            secret.append(i).append(",outside\n");
        }
        Files.writeString(allowed.resolve("sub/in.csv"), inside);
        Files.writeString(outside.resolve("in.csv"), secret);
        try (Tessera t = Tessera.openOrCreate(work.resolve("db"))) {
            t.query("CREATE TABLE c (id INTEGER, side VARCHAR)");
            t.allowCopyFrom(allowed);
            String copy = "COPY c FROM '" + allowed.resolve("sub/in.csv") + "'";
            Swapper swapper = new Swapper(allowed, outside);
            swapper.start();
            int loaded = 0;
            int refused = 0;
            try {
                for (int i = 0; i < 400 && (loaded < 15 || refused < 15); i++) {
                    try {
                        assertEquals(1000L, ((Number) t.query(copy).rows().getFirst()[0]).longValue());
                        loaded++;
                    } catch (SqlError e) {
                        assertTrue(e.getMessage().contains("symbolic link")
                                || e.getMessage().contains("no such "), e.getMessage());
                        refused++;
                    }
                }
            } finally {
                swapper.finish();
            }
            assertEquals(0L, ((Number) t.query("SELECT count(*) FROM c WHERE side <> 'inside'").rows().getFirst()[0])
                    .longValue());
            assertEquals(1000L * loaded, ((Number) t.query("SELECT count(*) FROM c").rows().getFirst()[0])
                    .longValue());
            assertTrue(loaded > 0 && refused > 0, loaded + " loaded, " + refused + " refused");
        }
    }

    @Test
    void aFileInFromIsNeverReadFromOutsideWhileAFolderIsSwappedForALink(@TempDir Path work) throws Exception {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.createDirectories(allowed.resolve("sub"));
        Files.writeString(allowed.resolve("sub/in.csv"), "id,side\n1,inside\n2,inside\n");
        Files.writeString(outside.resolve("in.csv"), "id,side\n1,outside\n2,outside\n");
        try (Tessera t = Tessera.openOrCreate(work.resolve("db"))) {
            t.allowCopyFrom(allowed);
            String query = "SELECT count(*) FROM '" + allowed.resolve("sub/in.csv") + "' WHERE side = 'inside'";
            Swapper swapper = new Swapper(allowed, outside);
            swapper.start();
            int read = 0;
            int refused = 0;
            try {
                for (int i = 0; i < 400 && (read < 15 || refused < 15); i++) {
                    try {
                        // two rows, both inside: an outside file would count 0
                        assertEquals(2L, ((Number) t.query(query).rows().getFirst()[0]).longValue());
                        read++;
                    } catch (SqlError e) {
                        assertTrue(e.getMessage().contains("symbolic link")
                                || e.getMessage().contains("no such "), e.getMessage());
                        refused++;
                    }
                }
            } finally {
                swapper.finish();
            }
            assertTrue(read > 0 && refused > 0, read + " read, " + refused + " refused");
        }
    }

    private static String content(SourceFile f) throws IOException {
        try (FileChannel ch = f.open()) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read on
            }
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }
}
