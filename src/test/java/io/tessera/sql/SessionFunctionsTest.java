package io.tessera.sql;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** VERSION() names the project's version as pom.xml gives it. */
class SessionFunctionsTest {

    @Test
    void versionIsThePomsVersion() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        // the project's own version: the first <version> after its artifactId, before any dependency
        Matcher m = Pattern.compile("<artifactId>tessera</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), "pom.xml names the project's version");
        assertEquals("v" + m.group(1), SessionFunctions.VERSION);
    }
}
