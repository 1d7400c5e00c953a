package net.i2p.util;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import net.i2p.util.BenchReport.FixedBaseRow;
import net.i2p.util.BenchSampler.Case;

/** Bench's groups of cases and how each case is checked. */
final class BenchGroup {
    private BenchGroup() {
    }

    /** Cases compared with each other, sampled in turns, and how each is checked. */
    static final class Group {
        final String label;
        final int bits;
        final List<Case> cases = new ArrayList<>();
        final List<Checked> checks = new ArrayList<>();
        /** For a group with FixedBase cases: their inputs and their line of the fixed-base report. */
        BenchInputs.Set fixedBaseSet;
        FixedBaseRow fixedBase;

        Group(String label, int bits) {
            this.label = label;
            this.bits = bits;
        }
    }

    /**
     * A case and how to check it on the very operands it is timed on:
     * computed in this JVM (op), or by rawgmp (rawOp, with alloc).
     */
    static final class Checked {
        final Case c;
        final BenchInputs.Set set;
        final IntFunction<BigInteger> op;
        final String rawOp;
        final String alloc;

        Checked(Case c, BenchInputs.Set set, IntFunction<BigInteger> op, String rawOp, String alloc) {
            this.c = c;
            this.set = set;
            this.op = op;
            this.rawOp = rawOp;
            this.alloc = alloc;
        }
    }
}
