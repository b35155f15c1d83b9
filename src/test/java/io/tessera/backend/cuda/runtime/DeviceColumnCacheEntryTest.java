package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.gen.KernelParam;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class DeviceColumnCacheEntryTest {

    @Test
    void aMaskIsKeptPerArrayNotPerContent() {
        int[] mask = {1, 2, 3};
        assertEquals(DeviceColumnCache.Entry.words(mask), DeviceColumnCache.Entry.words(mask));
        // an equal mask made again (another dictionary's, say) is another device copy
        assertNotEquals(DeviceColumnCache.Entry.words(mask), DeviceColumnCache.Entry.words(mask.clone()));
        assertEquals(12, DeviceColumnCache.Entry.words(mask).bytes());
    }

    @Test
    void kernelParameterWordsCompareAndHashByContentWhateverTheArray() {
        int[] a = new int[100_000];
        a[77] = 5;
        int[] b = a.clone();
        KernelParam.Words x = new KernelParam.Words(a);
        KernelParam.Words y = new KernelParam.Words(b);
        assertEquals(x, y);
        assertEquals(x.hashCode(), y.hashCode());
        assertEquals(java.util.Arrays.hashCode(a), x.hashCode());
        b[3] = 1;
        KernelParam.Words z = new KernelParam.Words(b.clone());
        assertNotEquals(x, z);
    }
}
