package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.TypeKind;

import java.util.List;
import java.util.function.Function;

/**
 * Which dictionary the codes of a string value computed on the device index: a column's (its slot's key), a map of
 * one column's codes ({@link MappedCodes}), or the one dictionary of the codes a CASE passes through. The kernels
 * read and write codes; what the host later reads back as strings, and what later kernels compare with constants,
 * looks the codes up in that dictionary.
 */
public final class CodeDictionaries {

    /** Why a CASE giving a string has no GPU code: a branch is a constant, or codes of two dictionaries. */
    static final String NOT_A_CODE = "CASE giving a string that is not one column's code";

    private CodeDictionaries() {
    }

    /** The key of the dictionary the device's codes of string value e index, or null (not a string, or none). */
    public static String of(Expr e) {
        if (e.type().kind() != TypeKind.VARCHAR) {
            return null;
        }
        if (e instanceof Expr.Ref r) {
            return r.slot().dictionaryKey();
        }
        String mapped = MappedCodes.dictionaryKey(e);
        if (mapped != null) {
            return mapped;
        }
        if (e instanceof Expr.Call c && c.op() == Op.CASE) {
            return ofCase(c, CodeDictionaries::of);
        }
        if (e instanceof Expr.Call c && c.op() == Op.CAST && c.args().get(0).type().equals(c.type())) {
            return of(c.args().get(0));
        }
        return null;
    }

    /**
     * The dictionary of the codes a CASE giving a string passes through, or null when it has none: every branch is
     * NULL or a code of that one dictionary (a column, or a map of one), so that the CASE picks a code, as
     * {@code CASE WHEN n THEN NULL ELSE s END} does. {@code dictOf} gives a branch's dictionary key.
     */
    static String ofCase(Expr.Call c, Function<Expr, String> dictOf) {
        List<Expr> args = c.args();
        String dict = null;
        for (int i = 1; i <= args.size(); i += 2) {
            Expr branch = args.get(Math.min(i, args.size() - 1)); // the THENs, then the ELSE
            if (branch instanceof Expr.Literal l && l.value() == null) {
                continue;
            }
            String d = dictOf.apply(branch);
            if (d == null || dict != null && !dict.equals(d)) {
                return null;
            }
            dict = d;
        }
        return dict;
    }
}
