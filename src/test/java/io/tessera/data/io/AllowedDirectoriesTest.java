package io.tessera.data.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files opened below allowed directories: links refused at every component, for reading, globs and writing. */
class AllowedDirectoriesTest {

    @Test
    void readsAFileBelowAnAllowedDirectoryAndRefusesALinkAnywhereBelowIt(@TempDir Path work) throws IOException {
        Path allowed = Files.createDirectories(work.resolve("allowed/a/b"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(allowed.resolve("in.csv"), "inside\n");
        Files.writeString(outside.resolve("in.csv"), "outside\n");
        Files.createSymbolicLink(work.resolve("allowed/a/link"), outside);
        Files.createSymbolicLink(work.resolve("allowed/a/b/file-link.csv"), outside.resolve("in.csv"));
        AllowedDirectories dirs = new AllowedDirectories(List.of(work.resolve("allowed")));

        assertEquals("inside\n", read(dirs.openForRead(allowed.resolve("in.csv").toString(), "COPY")));
        assertEquals("inside\n", read(dirs.openForRead(work + "/allowed/a/./b/in.csv", "COPY")));
        assertTrue(refused(dirs, work + "/allowed/a/link/in.csv").contains("'link' is a symbolic link"));
        assertTrue(refused(dirs, allowed + "/file-link.csv").contains("'file-link.csv' is a symbolic link"));
        assertTrue(refused(dirs, outside + "/in.csv").contains("not under a directory SQL may read"));
        assertTrue(refused(dirs, allowed + "/../../../outside/in.csv").contains("not under a directory"));
        assertTrue(refused(dirs, allowed + "/none.csv").contains("no such file"));
        assertTrue(refused(dirs, allowed + "/nodir/deeper/x.csv").contains("no such directory 'nodir' in the path of"));
        assertTrue(refused(dirs, allowed.toString()).contains("not a regular file"));
        assertTrue(refused(dirs, work + "/allowed").contains("not a regular file"));
        assertTrue(refused(new AllowedDirectories(List.of()), allowed + "/in.csv").contains("allowed no directory"));
    }

    @Test
    void anAllowedDirectoryThatIsItselfALinkIsFollowedOnce(@TempDir Path work) throws IOException {
        Path real = Files.createDirectories(work.resolve("real"));
        Files.writeString(real.resolve("f.csv"), "x\n");
        Path link = Files.createSymbolicLink(work.resolve("link"), real);
        // the application named the link: the names below it and below its target both open the file
        AllowedDirectories dirs = new AllowedDirectories(List.of(link));
        assertEquals("x\n", read(dirs.openForRead(link.resolve("f.csv").toString(), "COPY")));
        assertEquals("x\n", read(dirs.openForRead(real.resolve("f.csv").toString(), "COPY")));
    }

    @Test
    void aGlobOpensTheMatchingRegularFilesInNameOrderAndNoLink(@TempDir Path work) throws IOException {
        Path allowed = Files.createDirectories(work.resolve("allowed/d"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(allowed.resolve("b.csv"), "b\n");
        Files.writeString(allowed.resolve("a.csv"), "a\n");
        Files.writeString(allowed.resolve("c.txt"), "c\n");
        Files.writeString(outside.resolve("z.csv"), "z\n");
        Files.createSymbolicLink(allowed.resolve("z.csv"), outside.resolve("z.csv"));
        AllowedDirectories dirs = new AllowedDirectories(List.of(work.resolve("allowed")));
        List<SourceFile> files = dirs.openMatching(allowed + "/*.csv", "FROM");
        assertEquals(List.of(allowed + "/a.csv", allowed + "/b.csv"), files.stream().map(SourceFile::name).toList());
        assertEquals("a\n", read(files.get(0)));
        assertEquals("b\n", read(files.get(1)));
        String m = assertThrows(FileAccessException.class, () -> dirs.openMatching(allowed + "/*.parquet", "FROM"))
                .getMessage();
        assertTrue(m.contains("no file matches"), m);
        Files.createSymbolicLink(work.resolve("allowed/linked"), outside);
        m = assertThrows(FileAccessException.class, () -> dirs.openMatching(work + "/allowed/linked/*.csv", "FROM"))
                .getMessage();
        assertTrue(m.contains("'linked' is a symbolic link"), m);
    }

    @Test
    void writingFollowsNoLink(@TempDir Path work) throws IOException {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(outside.resolve("target.csv"), "keep\n");
        Files.createSymbolicLink(allowed.resolve("out.csv"), outside.resolve("target.csv"));
        Files.createSymbolicLink(allowed.resolve("dir"), outside);
        AllowedDirectories dirs = new AllowedDirectories(List.of(allowed));
        String m = assertThrows(FileAccessException.class, () -> dirs.openForWrite(allowed + "/out.csv", "COPY"))
                .getMessage();
        assertTrue(m.contains("'out.csv' is a symbolic link"), m);
        m = assertThrows(FileAccessException.class, () -> dirs.openForWrite(allowed + "/dir/new.csv", "COPY"))
                .getMessage();
        assertTrue(m.contains("'dir' is a symbolic link"), m);
        assertEquals("keep\n", Files.readString(outside.resolve("target.csv")));
        assertEquals(List.of("target.csv"), names(outside));

        try (FileChannel ch = dirs.openForWrite(allowed + "/new.csv", "COPY")) {
            ch.write(ByteBuffer.wrap("written\n".getBytes(StandardCharsets.UTF_8)));
        }
        assertEquals("written\n", Files.readString(allowed.resolve("new.csv")));
    }

    private static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String refused(AllowedDirectories dirs, String name) {
        return assertThrows(FileAccessException.class, () -> dirs.openForRead(name, "COPY")).getMessage();
    }

    private static String read(SourceFile f) throws IOException {
        try (FileChannel ch = f.open()) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read on
            }
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }
}
