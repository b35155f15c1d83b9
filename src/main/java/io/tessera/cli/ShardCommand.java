package io.tessera.cli;

import io.tessera.data.Sharder;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** {@code tessera shard}: splits a database into shard databases, one per machine of a cluster (docs/SPARK.md). */
@Command(name = "shard", mixinStandardHelpOptions = true, description = {
        "Split every table of a database into N shard databases OUT/shard-0 .. OUT/shard-(N-1): each row in exactly one.",
        "--by round-robin: rows in turn; --by key=COL[,COL...]: a table with one of the columns (the first it has)",
        "by that column's value (equal keys in one shard, in every table), the others round robin."})
public final class ShardCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Option(names = "--by", required = true, paramLabel = "round-robin|key=COL[,COL...]",
            description = "how rows are spread over the shards")
    String by;

    @Option(names = "--shards", required = true, paramLabel = "N", description = "number of shards")
    int shards;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "new (or empty) directory for the shards")
    Path out;

    @Override
    public void run() {
        List<String> keys;
        if (by.equals("round-robin")) {
            keys = List.of();
        } else if (by.startsWith("key=") && by.length() > 4) {
            keys = Arrays.stream(by.substring(4).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        } else {
            throw new ParameterException(spec.commandLine(), "--by takes round-robin or key=COL[,COL...], not '" + by + "'");
        }
        PrintWriter w = spec.commandLine().getOut();
        try (Database d = Database.open(db.db)) {
            Map<String, long[]> counts = Sharder.shard(d, out, shards, keys);
            for (Map.Entry<String, long[]> e : counts.entrySet()) {
                w.println(e.getKey() + ": " + Arrays.toString(e.getValue()) + " rows in " + out + "/shard-0.."
                        + (shards - 1));
            }
        }
        w.flush();
    }
}
