package io.tessera.backend.jvm.gen;

import io.tessera.profile.CacheDirectory;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The class files of compiled pipelines kept in the cache directory ({@code <cache>/classes/<build>/<key>.classes}),
 * so that a new process running a pipeline of a shape seen before defines its class from the stored bytes instead of
 * compiling its source again: a process's first queries then pay no Janino compile for the shapes it knows (a join
 * of 64 small tables has 52 of them), as the kernel cache spares NVRTC on the GPU.
 *
 * <p>A class file is only valid with the Tessera classes it was compiled against (Janino inlines their constants and
 * links their methods by name), so the files live under a folder named for the build: the jar's path, size and
 * modification time, the JDK's version and Janino's. A build run from a folder of classes rather than a jar (tests,
 * a development class path) has no such identity and keeps nothing, unless {@link #BUILD_PROPERTY} names one.
 * The key within a build is a SHA-256 of the pipeline's code ({@link JavaCompiler#codeKey}). Each file carries a
 * CRC-32C of its contents; a damaged, truncated or unreadable file is a miss, never an error. Files are written to a
 * temporary name and moved into place, so readers see whole files only. The folders are made readable by their owner
 * only, and files are run only from folders that their user alone can write to. Other builds' folders unused for a week are
 * deleted when a process first stores a class.
 */
final class ClassFileCache {

    /** Set to {@code off}, classes are neither read from nor written to the cache directory. */
    static final String PROPERTY = "tessera.classCache";
    /** Names the build when Tessera runs from a folder of classes (whose identity is not known otherwise). */
    static final String BUILD_PROPERTY = "tessera.classCache.build";

    private static final int MAGIC = 0x54534331; // "TSC1"
    /** Past this many files a build's folder takes no more (a bound on the cache's size, about 20 KB a class). */
    private static final int MAX_FILES = 20_000;
    private static final Duration UNUSED_BUILD_AGE = Duration.ofDays(7);

    private static volatile ClassFileCache process;

    private final Path folder;
    private final AtomicBoolean housekept = new AtomicBoolean();
    private volatile boolean full;
    private volatile Boolean trusted;

    ClassFileCache(Path folder) {
        this.folder = folder;
    }

    /** The cache of this process, or null where it is turned off or the build has no identity. */
    static ClassFileCache forProcess() {
        ClassFileCache c = process;
        if (c == null) {
            synchronized (ClassFileCache.class) {
                c = process;
                if (c == null) {
                    String build = "off".equals(System.getProperty(PROPERTY)) ? null : buildIdentity();
                    c = build == null ? new ClassFileCache(null)
                            : new ClassFileCache(CacheDirectory.root().resolve("classes").resolve(build));
                    process = c;
                }
            }
        }
        return c.folder == null ? null : c;
    }

    /** The folder of this build's files. */
    Path folder() {
        return folder;
    }

    /** The file name of the classes compiled from {@code codeKey}. */
    static String fileName(String codeKey) {
        return HexFormat.of().formatHex(sha256(codeKey.getBytes(StandardCharsets.UTF_8))) + ".classes";
    }

    /**
     * The stored classes of {@code codeKey}, by binary name, the pipeline's own class first; null when none are
     * stored or the file is damaged.
     */
    Map<String, byte[]> load(String codeKey) {
        if (!trusted()) {
            return null;
        }
        byte[] file;
        try {
            file = Files.readAllBytes(folder.resolve(fileName(codeKey)));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | SecurityException e) {
            return null; // an unreadable file costs a compile
        }
        return decode(file);
    }

    /** Stores the classes compiled from {@code codeKey} (the pipeline's own class first); failures cost nothing. */
    void store(String codeKey, Map<String, byte[]> classes) {
        if (full) {
            return;
        }
        try {
            if (!Files.isDirectory(folder)) {
                createPrivateFolders(folder);
            }
            if (housekept.compareAndSet(false, true)) {
                houseKeep();
            }
            Path target = folder.resolve(fileName(codeKey)); // replaced where a damaged one lies
            Path temp = Files.createTempFile(folder, "part-", ".tmp");
            try {
                Files.write(temp, encode(classes));
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            // a cache that cannot be written only costs a compile in the next process
        }
    }

    /** The file's bytes: magic, class count, then each class's name and bytes, then a CRC-32C of all before it. */
    static byte[] encode(Map<String, byte[]> classes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(classes.size());
            for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().length);
                out.write(e.getValue());
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array stream does not fail
        }
        return bytes.toByteArray();
    }

    /** The classes of a file's bytes, or null when they are not a whole, undamaged file of this form. */
    static Map<String, byte[]> decode(byte[] file) {
        if (file.length < 12) {
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(file, file.length - 4, 4).getInt()) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(file, 0, file.length - 4))) {
            if (in.readInt() != MAGIC) {
                return null;
            }
            int count = in.readInt();
            if (count <= 0 || count > 1_000) {
                return null;
            }
            Map<String, byte[]> classes = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                int length = in.readInt();
                if (length <= 0 || length > in.available()) {
                    return null;
                }
                classes.put(name, in.readNBytes(length));
            }
            return in.available() == 0 ? classes : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the stored files may be run: the folder and the one above it belong to this process's user and no one
     * else may write to them (class files run as Tessera's code; a cache directory others can write to is not used).
     */
    private boolean trusted() {
        Boolean t = trusted;
        if (t == null) {
            t = isPrivate(folder) && isPrivate(folder.getParent());
            trusted = t;
        }
        return t;
    }

    private static boolean isPrivate(Path dir) {
        try {
            if (!dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return true; // no modes to check: the user's own profile folder
            }
            Set<PosixFilePermission> modes = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            return Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName().equals(System.getProperty("user.name"))
                    && !modes.contains(PosixFilePermission.GROUP_WRITE) && !modes.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Marks this build's folder used, deletes other builds' folders unused for a week and checks the bound. */
    private void houseKeep() throws IOException {
        Files.setLastModifiedTime(folder, FileTime.from(Instant.now()));
        Instant cutoff = Instant.now().minus(UNUSED_BUILD_AGE);
        try (DirectoryStream<Path> builds = Files.newDirectoryStream(folder.getParent())) {
            for (Path build : builds) {
                if (!build.equals(folder) && Files.isDirectory(build)
                        && Files.getLastModifiedTime(build).toInstant().isBefore(cutoff)) {
                    deleteFolder(build);
                }
            }
        }
        try (Stream<Path> files = Files.list(folder)) {
            full = files.limit(MAX_FILES).count() >= MAX_FILES;
        }
    }

    private static void deleteFolder(Path build) {
        try (Stream<Path> files = Files.list(build)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(build);
        } catch (IOException e) {
            // another process may be deleting it too; what is left goes next time
        }
    }

    /** Creates the folder and those above it that are missing, readable by the owner only where the system has modes. */
    private static void createPrivateFolders(Path dir) throws IOException {
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
    }

    /**
     * The folder name of this build: a SHA-256 over the jar holding Tessera's classes (path, size, modification time),
     * the JDK's version and Janino's; or over {@link #BUILD_PROPERTY}'s value. Null for a folder of classes without it.
     */
    static String buildIdentity() {
        String named = System.getProperty(BUILD_PROPERTY);
        String build;
        if (named != null && !named.isBlank()) {
            build = "named " + named;
        } else {
            Path jar = codeSource(ClassFileCache.class);
            if (jar == null || !Files.isRegularFile(jar)) {
                return null;
            }
            try {
                build = "jar " + jar.toAbsolutePath() + " " + Files.size(jar) + " "
                        + Files.getLastModifiedTime(jar).toInstant();
            } catch (IOException e) {
                return null;
            }
        }
        String janino = org.codehaus.janino.SimpleCompiler.class.getPackage().getImplementationVersion();
        String all = build + "\njava " + Runtime.version() + "\njanino " + janino
                + "\njanino jar " + codeSource(org.codehaus.janino.SimpleCompiler.class);
        return HexFormat.of().formatHex(sha256(all.getBytes(StandardCharsets.UTF_8))).substring(0, 24);
    }

    private static Path codeSource(Class<?> c) {
        try {
            var source = c.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
