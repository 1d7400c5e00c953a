package net.i2p.util;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The raw C program (rawgmp.c) as a subprocess: GMP called directly on the
 * same inputs, asked for one sample at a time so its samples interleave with
 * the Java ones.  The protocol is described at the top of rawgmp.c.
 */
final class BenchRawGmp implements AutoCloseable {
    private final Process process;
    private final BufferedReader replies;
    private final PrintWriter commands;
    /** GMP's version string, e.g. "6.2.1". */
    final String gmpVersion;
    /** The compiler flags GMP was built with (from gmp.h), e.g. "-O2 ... -march=znver2". */
    final String gmpCflags;

    BenchRawGmp(String program, Path inputs) throws IOException {
        process = new ProcessBuilder(program, inputs.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII);
        String[] ready = reply().split(" ", 4);
        if (!ready[0].equals("ready") || ready.length < 3)
            throw new IOException(program + " did not start: " + String.join(" ", ready));
        gmpVersion = ready[1];
        gmpCflags = ready.length > 3 ? ready[3] : "";
    }

    /**
     * Nanoseconds GMP took for n operations op on set, from input first on.
     * alloc null: GMP's default memory functions, one result variable
     * reused; "default" or "wiping": those memory functions, a result
     * variable per operation as in a jbigi call (see rawgmp.c).
     */
    long time(String op, String set, long first, long n, String alloc) throws IOException {
        commands.println("time " + op + " " + set + " " + n + " " + first + (alloc == null ? "" : " " + alloc));
        String r = reply();
        if (!r.startsWith("ok "))
            throw new IOException("rawgmp: " + r);
        return Long.parseLong(r.substring(3));
    }

    /** GMP's result of op for every input of set, in order, computed as time computes them. */
    List<BigInteger> results(String op, String set, String alloc) throws IOException {
        commands.println("check " + op + " " + set + (alloc == null ? "" : " " + alloc));
        List<BigInteger> results = new ArrayList<>();
        for (String r = reply(); !r.equals("end"); r = reply()) {
            if (!r.startsWith("result "))
                throw new IOException("rawgmp: " + r);
            results.add(new BigInteger(r.substring(7), 16));
        }
        return results;
    }

    /** OpenSSL's version when rawgmp was built with it (its openssl_* operations), else null. */
    String openssl() throws IOException {
        commands.println("openssl");
        String r = reply();
        return r.startsWith("ok ") ? r.substring(3) : null;
    }

    /** {blocks, bytes} the wiping memory functions cleared in one op on each input of set (see rawgmp.c). */
    long[] wiped(String op, String set) throws IOException {
        commands.println("count " + op + " " + set);
        String[] r = reply().split(" ");
        if (r.length != 3 || !r[0].equals("ok"))
            throw new IOException("rawgmp: " + String.join(" ", r));
        return new long[] {Long.parseLong(r[1]), Long.parseLong(r[2])};
    }

    private String reply() throws IOException {
        String line = replies.readLine();
        if (line == null)
            throw new IOException("rawgmp exited unexpectedly");
        return line;
    }

    @Override
    public void close() throws IOException {
        commands.println("quit");
        commands.close();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS))
                process.destroy();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
        }
        replies.close();
    }
}
