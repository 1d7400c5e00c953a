package net.i2p.util;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Frees the tables of FixedBases that their owners dropped without closing.
 * Each such FixedBase is watched through a PhantomReference; once the
 * collector finds it unreachable, the next table allocation (or a call to
 * {@link #closeAll}) closes its tables.  No finalizer and no thread of its
 * own: the work is done by threads that are about to take table memory.
 */
final class UnreachableTables {
    /** A FixedBase, watched; holds its tables, never the FixedBase itself. */
    static final class Watch extends PhantomReference<Object> {
        private final TablePair tables;

        Watch(Object owner, TablePair tables) {
            super(owner, QUEUE);
            this.tables = tables;
        }

        /** The owner closed its tables itself: nothing left to watch. */
        void forget() {
            WATCHED.remove(this);
            clear();
        }
    }

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<Object>();
    /** Watches not yet enqueued: held here so that they are not collected themselves. */
    private static final Set<Watch> WATCHED = Collections.newSetFromMap(new ConcurrentHashMap<Watch, Boolean>());

    private UnreachableTables() {
    }

    /** Watches owner, whose tables are closed once it is unreachable. */
    static Watch watch(Object owner, TablePair tables) {
        Watch w = new Watch(owner, tables);
        WATCHED.add(w);
        return w;
    }

    /** Closes the tables of every watched owner found unreachable so far. */
    static void closeAll() {
        Reference<?> r;
        while ((r = QUEUE.poll()) != null) {
            Watch w = (Watch) r;
            WATCHED.remove(w);
            w.tables.close();
        }
    }

    /** Owners watched and not yet closed or found unreachable. */
    static int watched() {
        return WATCHED.size();
    }
}
