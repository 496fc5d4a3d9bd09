// sk_shim_impl.h -- runtime of the skir host shim (see kernel_operator.h for the surface and the
// log format).  Include in EXACTLY ONE translation unit (the driver that calls sk_shim::Run).
//
// Model
// * One std::thread per sub-core.  tid order: for each block b, AIC(b) (if the type has AICs), then
//   AIV(b,0), AIV(b,1).  get_coreid(): AIC b -> b; AIV (b,s) -> nAic + b*subDim + s.
// * Cross-core flags are CREDIT COUNTERS per (sub-core, flag id 0..15), fed by "groups":
//     mode 0: members = every sub-core of the caller's type in the launch; targets = the members;
//     mode 1: members = targets = the AIVs of the caller's block (mix launches only);
//     mode 2 from an AIC: members = {the AIC}; targets = the AIVs of its block (mix only);
//     mode 2 from an AIV: members = the AIVs of its block; targets = {their AIC} (mix only).
//   A set bumps the member's set count; round r completes when every member has set r times, and
//   then every target receives one credit.  wait_flag_dev blocks until the caller holds a credit
//   for the flag and consumes it (FIFO).  > 15 pending credits on a (core, flag) is an overflow
//   error; credits left at the end are LEFTOVER; a round some members never completed is an error.
// * VECTOR CLOCKS, one component per sub-core.  A core ticks its own component at each BEGIN/END
//   record and before each set.  A set joins the setter's clock into its round; each credit
//   carries the round's joined clock; a wait joins the credit's clock into the waiter.  The log
//   records the clock at each BEGIN/END, so an edge a->b holds iff vc(END a) <= vc(BEGIN b).
// * GM LOCK WORDS (RegisterLock) -- an approximation, since raw stores are invisible to the shim:
//   each word has a "published" value (initially its value at launch) and a clock.  A dcci by a
//   core that observes a value different from the published one is taken as the writer's clean
//   (RELEASE: the core's clock joins the word's clock; the value becomes published); every dcci on
//   the word then ACQUIRES (the word's clock joins the core's).  A core that polled the word
//   before and now sees an unpublished new value first waits up to ~2 ms for the writer's own dcci
//   (the writer cleans right after its store), so a poller does not usurp the release.  A poller
//   that leaves its spin on a raw read acquires lazily at its next shim call.  Limits: an extra
//   acquire can add spurious edges (hiding a race, never inventing one); a reader whose FIRST dcci
//   of the word falls between the writer's store and the writer's dcci, or a poller that sees the
//   value more than ~2 ms before that dcci, takes the release role (a false race report); a store
//   with no dcci after it is published by the next core that cleans the word.
// * 64-BYTE LINES (docs/design.md §5 "Memory layout", §6 "Host emulation"): dcci cleans a whole
//   64-byte line, so lock words are grouped by line.  Each core holds a copy of each line it
//   cleaned, as memory had it after that dcci (a line it never cleaned: the launch values).  When a
//   core's dcci releases a word it wrote, it writes back its whole copy: every other registered
//   word of that line whose value differs from the copy goes back to the copy's stale value (a
//   "line:" error names both slots and the values), and a write of another word of the line by
//   another core that does not happen before the clean is reported ("line: lock words of slots
//   a and b share a 64-byte line ... without an order"), whether or not this schedule clobbers
//   it.  With every word on its own line (the plan's layout, the driver's default) nothing of this
//   fires; a spec's lock_layout can plant words that share a line.  Limits: only lock words are
//   modelled (workspaces and the profiling area are not registered words), and a store is only
//   seen at the storing core's own dcci, as above.
// * WATCHDOG: Run's thread declares DEADLOCK when nothing progresses for timeoutMs (sets, wait
//   completions, BEGIN/END, lock publications, thread exits; a dcci that sees no change does not
//   count), logs what each unfinished core is blocked on, sets the abort flag and wakes everyone;
//   blocked waits and spinning dccis then throw detail::Aborted and the threads unwind.  If some
//   thread does not unwind within 3 s (a loop without shim calls) the process _exit(2)s after
//   flushing the log.
// * FEED-SYNC-ALL (SuperKernelAutoSyncAll*): per (core type, ConfigGmAddr or SyncIdx) the shim
//   keeps the number of SyncAll rounds active cores performed (noted by SyncAll while
//   g_superKernelAutoSyncAllEnable is set) and whether End was called.  Complement (idle cores)
//   joins one SyncAll of the same kind for each noted round until End has been called and every
//   round is matched.  Sound as long as all active cores run the same number of rounds.
//
// Parts (each includes what it needs; include this header, in exactly one translation unit)
//   sk_shim_model.h    launch state: cores, vector clocks, credit groups, lock words, error log.
//   sk_shim_sync.h     cross-core flags, dcci, intra-core pipe flags, early start, feed-sync-all.
//   sk_shim_harness.h  registration, errors / GM / UB / L1, stub support, Run and the watchdog.
#ifndef SKIR_HOSTSIM_SK_SHIM_IMPL_H
#define SKIR_HOSTSIM_SK_SHIM_IMPL_H

#include "sk_shim_model.h"
#include "sk_shim_sync.h"
#include "sk_shim_harness.h"

#endif  // SKIR_HOSTSIM_SK_SHIM_IMPL_H
