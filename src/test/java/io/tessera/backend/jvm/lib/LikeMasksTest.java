package io.tessera.backend.jvm.lib;

import io.tessera.storage.Dictionary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A LIKE mask is made once per dictionary and pattern, and each dictionary and pattern has its own. */
class LikeMasksTest {

    private static final String FOREST = ".*\\Qforest\\E.*";
    private static final String GREEN = "\\Qgreen\\E.*";

    @Test
    void aMaskIsMadeOncePerDictionaryAndPattern() {
        Dictionary parts = Dictionary.of(List.of("green forest", "forest", "green", "blue"));
        boolean[] forest = Runtime.likeMask(parts, FOREST);
        assertArrayEquals(new boolean[] {false, true, false, true}, forest); // blue, forest, green, green forest
        assertSame(forest, Runtime.likeMask(parts, FOREST));
        boolean[] green = Runtime.likeMask(parts, GREEN);
        assertArrayEquals(new boolean[] {false, false, true, true}, green);
        assertNotSame(forest, green);
    }

    @Test
    void anotherDictionaryOfTheSameStringsHasItsOwnMask() {
        Dictionary a = Dictionary.of(List.of("forest", "blue"));
        Dictionary b = Dictionary.of(List.of("forest", "blue", "forest fire"));
        boolean[] ofA = Runtime.likeMask(a, FOREST);
        boolean[] ofB = Runtime.likeMask(b, FOREST);
        assertArrayEquals(new boolean[] {false, true}, ofA);
        assertArrayEquals(new boolean[] {false, true, true}, ofB);
        assertNotSame(ofA, ofB);
    }
}
