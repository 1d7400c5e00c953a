# The speed-up chart of `make bench`: BigInteger's time divided by the other
# implementation's, against operand size, from the speedup.dat Bench writes.
#
#   gnuplot -e "datafile='build/bench/speedup.dat'; outfile='build/bench/speedup.png'" test/bench/speedup.gp
#
# Columns of a line: speed-up, then its range from the fastest and slowest
# samples (drawn as error bars).  Above 1 is faster than BigInteger.  The
# fixed-base lines have their own inputs (one base and modulus per size) and
# their own BigInteger reference, measured with them.  Where the AVX-512 IFMA
# engine runs, the "GMP engine forced" lines are the same calls with
# -Djbigi.engine=gmp's switch thrown for each, measured in the same rounds.

if (!exists("datafile")) datafile = 'build/bench/speedup.dat'
if (!exists("outfile")) outfile = 'build/bench/speedup.png'
subtitle = system("sed -n 's/^# title: //p' '" . datafile . "'")

set terminal pngcairo size 1100,760 font "DejaVu Sans,11"
set output outfile
set title "Speed-up over java.math.BigInteger\n{/*0.8 " . subtitle . "}"
set xlabel "operand size (bits)"
set ylabel "BigInteger time / time  (log scale)"
set datafile missing "?"
# Sizes double from one point to the next, and modInverse gains ten times
# what modPow does: both axes are logarithmic so every line stays readable.
set logscale x 2
set logscale y
set xtics (32, 64, 128, 256, 512, 1024, 2048, 3072, 4096, 8192)
set ytics (0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5, 10, 20, 30, 50, 100)
set grid xtics ytics
set key below Left reverse maxrows 3
set xrange [26:10000]
# Fit the y axis to the data (error bars included) rather than to whole decades.
set autoscale yfix
set offsets 0, 0, graph 0.05, graph 0.05

# noenhanced: the titles hold underscores, which would become subscripts.
plot 1 with lines dashtype 2 linecolor "gray40" title "break-even", \
     datafile using 1:2:3:4 with yerrorlines linewidth 2 pointtype 7 linecolor "#1f77b4" \
         title "NativeBigInteger.modPow" noenhanced, \
     datafile using 1:5:6:7 with yerrorlines linewidth 2 pointtype 5 linecolor "#2ca02c" \
         title "NativeBigInteger.modPowCT (vs BigInteger.modPow)" noenhanced, \
     datafile using 1:8:9:10 with yerrorlines linewidth 2 pointtype 9 linecolor "#d62728" \
         title "NativeBigInteger.modInverse" noenhanced, \
     datafile using 1:11:12:13 with yerrorlines linewidth 2 dashtype 3 pointtype 6 linecolor "black" \
         title "GMP mpz_powm called from C (the limit for modPow)" noenhanced, \
     datafile using 1:14:15:16 with yerrorlines linewidth 1 dashtype 4 pointtype 11 linecolor "#9467bd" \
         title "NativeBigInteger.modPow, the same base every call (transparent table)" noenhanced, \
     datafile using 1:17:18:19 with yerrorlines linewidth 2 pointtype 13 linecolor "#ff7f0e" \
         title "FixedBase.modPow (explicit table)" noenhanced, \
     datafile using 1:20:21:22 with yerrorlines linewidth 2 dashtype 5 pointtype 12 linecolor "#8c564b" \
         title "FixedBase.modPowCT (vs BigInteger.modPow)" noenhanced, \
     datafile using 1:23:24:25 with yerrorlines linewidth 1 dashtype 2 pointtype 7 linecolor "#17becf" \
         title "NativeBigInteger.modPow, GMP engine forced" noenhanced, \
     datafile using 1:26:27:28 with yerrorlines linewidth 1 dashtype 2 pointtype 5 linecolor "#bcbd22" \
         title "NativeBigInteger.modPowCT, GMP engine forced" noenhanced
