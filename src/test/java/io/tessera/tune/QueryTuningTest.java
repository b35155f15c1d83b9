package io.tessera.tune;

import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.profile.GenomeChooserTest;
import io.tessera.profile.DeviceInfo;
import io.tessera.profile.Profile;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.Database;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An engine that tunes each query as it is prepared, through the {@link QueryTuning} installed in it. */
class QueryTuningTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 20_000);
    @TempDir
    static Path dir;
    static Database db;
    static final String FP = DeviceInfo.machineCpu(2).fingerprint();

    @BeforeAll
    static void data() {
        db = SSB.db();
    }

    @Test
    void anEngineThatTunesSaysTunedNowAndStoresWhatItLearned() {
        ProfileStore s = new ProfileStore(dir.resolve("tuned"));
        QueryEngine e = new QueryEngine(db, 2, Device.CPU, s);
        e.tuneWith(new QueryTuning("feature-wise"));
        String sql = Queries.sql("ssb", "q3.2");
        String explain = e.explain(sql);
        assertTrue(explain.contains("(tuned now)"), explain);
        Profile p = s.load(FP);
        QueryPlan plan = new QueryEngine(db, 2, Device.CPU, null).plan(sql);
        Pipeline fact = plan.pipelines().stream().filter(x -> x.shape().startsWith("LOOP:lineorder")).findFirst().orElseThrow();
        assertTrue(p.entries().containsKey(fact.shape()), p.entries().keySet().toString());
        assertEquals("feature-wise", p.entry(fact.shape()).strategy());
        e.tuneWith(null);
        assertTrue(e.explain(sql).contains("(profile)"));
        List<String> plain = GenomeChooserTest.rows(new QueryEngine(db, 2, Device.CPU, null).execute(sql));
        assertEquals(plain, GenomeChooserTest.rows(new QueryEngine(db, 2, Device.CPU, s).execute(sql)), sql);
    }
}
