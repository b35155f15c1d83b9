package io.tessera.data.parquet;

import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import org.apache.parquet.format.CompressionCodec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * The page compressions a Parquet file may use, in Java: Snappy, ZSTD and LZ4_RAW through aircompressor, GZIP
 * through the JDK, and none. LZO, BROTLI and the Hadoop-framed LZ4 are refused with the codec named.
 */
final class PageCodec {

    private PageCodec() {
    }

    /** Whether pages compressed with {@code codec} can be read; otherwise the reason, naming it. */
    static String unsupported(CompressionCodec codec) {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW -> null;
            default -> "pages compressed with " + codec + ", which Tessera does not read"
                    + " (it reads UNCOMPRESSED, SNAPPY, GZIP, ZSTD and LZ4_RAW)";
        };
    }

    /** The {@code uncompressedSize} bytes of a page stored in {@code src[off, off + len)}. */
    static byte[] decompress(CompressionCodec codec, byte[] src, int off, int len, int uncompressedSize)
            throws IOException {
        return decompress(codec, src, off, len, uncompressedSize, new PageBuffers());
    }

    /**
     * As {@link #decompress(CompressionCodec, byte[], int, int, int)}, into the start of an array from
     * {@code buffers}, which may be longer.
     */
    static byte[] decompress(CompressionCodec codec, byte[] src, int off, int len, int uncompressedSize,
                             PageBuffers buffers) throws IOException {
        if (uncompressedSize < 0) {
            throw new IOException("a page header gives a negative size");
        }
        byte[] out = buffers.take(uncompressedSize);
        if (codec == CompressionCodec.UNCOMPRESSED) {
            if (len != uncompressedSize) {
                throw new IOException("an uncompressed page of " + len + " bytes says it has " + uncompressedSize);
            }
            System.arraycopy(src, off, out, 0, len);
            return out;
        }
        int got;
        if (codec == CompressionCodec.GZIP) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(src, off, len))) {
                got = in.readNBytes(out, 0, uncompressedSize);
            }
        } else {
            Decompressor d = switch (codec) {
                case SNAPPY -> new SnappyDecompressor();
                case ZSTD -> new ZstdDecompressor();
                case LZ4_RAW -> new Lz4Decompressor();
                default -> throw new IOException(unsupported(codec));
            };
            try {
                got = d.decompress(src, off, len, out, 0, uncompressedSize);
            } catch (MalformedInputException | IndexOutOfBoundsException e) {
                throw new IOException("a " + codec + " page does not decompress: " + e.getMessage(), e);
            }
        }
        if (got != uncompressedSize) {
            throw new IOException("a " + codec + " page decompresses to " + got + " bytes, its header says "
                    + uncompressedSize);
        }
        return out;
    }

    /** {@code raw} compressed with Snappy, the compression the exporter writes. */
    static byte[] snappy(byte[] raw) {
        Compressor c = new SnappyCompressor();
        byte[] out = new byte[c.maxCompressedLength(raw.length)];
        int n = c.compress(raw, 0, raw.length, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }
}
