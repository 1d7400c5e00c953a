package freenet.support.CPUInformation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A test stand-in for I2P's class of this name: the same package, class
 * name, native declarations and nested result class, so that it binds to the
 * jcpuid library exactly as I2P's does.  Loads the library from the class
 * path (the jar) under I2P's resource name and checks what CPUID returns
 * against /proc/cpuinfo (vendor, family, model, stepping) and the library's
 * own CPU check (feature bits).  Prints "N passed, N failed".
 */
public final class CPUID {
    /** I2P's resource name for 64-bit x86 Linux JVMs. */
    static final String RESOURCE = "libjcpuid-x86_64-linux.so";

    /** As I2P's: the four registers CPUID returned. */
    static final class CPUIDResult {
        final int EAX;
        final int EBX;
        final int ECX;
        final int EDX;

        CPUIDResult(int eax, int ebx, int ecx, int edx) {
            EAX = eax;
            EBX = ebx;
            ECX = ecx;
            EDX = edx;
        }
    }

    private static native CPUIDResult doCPUID(int function);

    private static native int nativeJcpuidVersion();

    private static int passed;
    private static int failed;

    private CPUID() {
    }

    private static void check(boolean ok, String what) {
        if (ok) {
            passed++;
            System.out.println("ok - " + what);
        } else {
            failed++;
            System.out.println("not ok - " + what);
        }
    }

    /** The first processor's block of /proc/cpuinfo, key to value. */
    private static Map<String, String> cpuinfo() throws IOException {
        Map<String, String> info = new HashMap<String, String>();
        for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"), StandardCharsets.ISO_8859_1)) {
            if (line.trim().isEmpty())
                break;
            int colon = line.indexOf(':');
            if (colon > 0)
                info.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
        }
        return info;
    }

    private static String registerText(int... registers) {
        byte[] bytes = new byte[4 * registers.length];
        for (int i = 0; i < registers.length; i++) {
            for (int b = 0; b < 4; b++)
                bytes[4 * i + b] = (byte) (registers[i] >>> (8 * b));
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static Path extract() throws IOException {
        Path dir = Files.createTempDirectory("jcpuid-test");
        Path file = dir.resolve(RESOURCE);
        try (InputStream in = CPUID.class.getResourceAsStream("/" + RESOURCE)) {
            if (in == null)
                throw new IOException(RESOURCE + " is not on the class path");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }

    public static void main(String[] args) throws Exception {
        Path library = extract();
        try {
            System.load(library.toString());
        } finally {
            Files.delete(library);
            Files.delete(library.getParent());
        }
        check(nativeJcpuidVersion() == 3, "nativeJcpuidVersion() is 3");

        Map<String, String> info = cpuinfo();
        CPUIDResult leaf0 = doCPUID(0);
        String vendor = registerText(leaf0.EBX, leaf0.EDX, leaf0.ECX);
        check(vendor.equals(info.get("vendor_id")), "leaf 0 vendor '" + vendor + "' is /proc/cpuinfo's '"
                + info.get("vendor_id") + "'");
        check(leaf0.EAX >= 1, "leaf 0: highest basic leaf " + leaf0.EAX + " >= 1");

        // Leaf 1: family, model and stepping as Linux computes them, and feature bits.
        CPUIDResult leaf1 = doCPUID(1);
        int family = (leaf1.EAX >>> 8) & 0xf;
        int model = (leaf1.EAX >>> 4) & 0xf;
        if (family == 0xf)
            family += (leaf1.EAX >>> 20) & 0xff;
        if (family >= 6)
            model += ((leaf1.EAX >>> 16) & 0xf) << 4;
        int stepping = leaf1.EAX & 0xf;
        check(String.valueOf(family).equals(info.get("cpu family")),
                "leaf 1 family " + family + " is /proc/cpuinfo's " + info.get("cpu family"));
        check(String.valueOf(model).equals(info.get("model")),
                "leaf 1 model " + model + " is /proc/cpuinfo's " + info.get("model"));
        check(String.valueOf(stepping).equals(info.get("stepping")),
                "leaf 1 stepping " + stepping + " is /proc/cpuinfo's " + info.get("stepping"));
        // Feature bits against the library's own CPU check (build/cpu-probe,
        // passed as jbigi.cpuFeatures): jcpuid must hand I2P the registers
        // that check reads.  /proc/cpuinfo may leave out bits CPUID reports
        // (a hypervisor's choice): a difference from it is printed only.
        Set<String> probe = new HashSet<String>(Arrays.asList(
                System.getProperty("jbigi.cpuFeatures", "").trim().split("\\s+")));
        check(probe.contains("sse2"), "jbigi.cpuFeatures (build/cpu-probe's answer) given: " + probe);
        Set<String> flags = new HashSet<String>(Arrays.asList(
                String.valueOf(info.get("flags")).split("\\s+")));
        List<Object[]> bits = Arrays.asList(
                new Object[] {"sse2", leaf1.EDX, 26}, new Object[] {"ssse3", leaf1.ECX, 9},
                new Object[] {"sse4_1", leaf1.ECX, 19}, new Object[] {"sse4_2", leaf1.ECX, 20},
                new Object[] {"popcnt", leaf1.ECX, 23}, new Object[] {"movbe", leaf1.ECX, 22});
        for (Object[] bit : bits) {
            boolean set = ((Integer) bit[1] >>> (Integer) bit[2] & 1) != 0;
            check(set == probe.contains((String) bit[0]),
                    "leaf 1 bit " + bit[0] + " (" + set + ") agrees with the library's check");
            if (set != flags.contains((String) bit[0]))
                System.out.println("# leaf 1 bit " + bit[0] + " (" + set + "): /proc/cpuinfo disagrees");
        }
        // ECX = 0 is the subleaf: leaf 7's EBX (bmi2, adx, ...) is subleaf 0's.
        if (leaf0.EAX >= 7) {
            CPUIDResult leaf7 = doCPUID(7);
            check(((leaf7.EBX >>> 8 & 1) != 0) == probe.contains("bmi2"), "leaf 7 subleaf 0: bmi2 agrees");
            check(((leaf7.EBX >>> 19 & 1) != 0) == probe.contains("adx"), "leaf 7 subleaf 0: adx agrees");
        }
        CPUIDResult ext = doCPUID(0x80000001);
        check(((ext.ECX >>> 5 & 1) != 0) == probe.contains("abm"), "leaf 0x80000001: abm agrees");
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
