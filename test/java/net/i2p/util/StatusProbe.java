package net.i2p.util;

/** Run in a fresh JVM by the loading tests: how NativeBigInteger loaded, nothing computed. */
public final class StatusProbe {
    public static void main(String[] args) {
        System.out.println("native=" + NativeBigInteger.isNative());
        System.out.println("status=" + NativeBigInteger.loadStatus());
    }
}
