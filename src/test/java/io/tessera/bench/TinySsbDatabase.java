package io.tessera.bench;

import io.tessera.storage.Database;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link TinySsb} database open for the tests of one class: built in a directory of its own before them (and
 * before the class's own {@code @BeforeAll} methods), closed and deleted after them. Register it with
 * {@code @RegisterExtension static final TinySsbDatabase SSB = new TinySsbDatabase(seed, lineorders);}.
 */
public final class TinySsbDatabase implements BeforeAllCallback, AfterAllCallback {

    private final long seed;
    private final int lineorders;
    private Path dir;
    private Database db;

    public TinySsbDatabase(long seed, int lineorders) {
        this.seed = seed;
        this.lineorders = lineorders;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tessera-tiny-ssb");
        TinySsb.build(dir, seed, lineorders);
        db = Database.open(dir);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (db != null) {
                db.close();
            }
        } finally {
            Database.deleteTree(dir);
        }
    }

    /** The open database. */
    public Database db() {
        if (db == null) {
            throw new IllegalStateException("the database is built before the class's tests; register the extension");
        }
        return db;
    }
}
