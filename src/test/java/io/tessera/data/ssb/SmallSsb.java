package io.tessera.data.ssb;

import io.tessera.data.Progress;
import io.tessera.storage.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * A test class's fixture: SSB at scale factor 0.01 from the real generator (about 60,000 lineorder rows), generated
 * once per test class into a temporary directory, open as {@link #db}.
 */
public abstract class SmallSsb {

    @TempDir
    static Path dir;
    protected static Database db;

    @BeforeAll
    static void generateSmallSsb() {
        db = Database.openOrCreate(dir.resolve("ssb"));
        new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(db, Progress.silent());
    }

    @AfterAll
    static void closeSmallSsb() {
        db.close();
    }
}
