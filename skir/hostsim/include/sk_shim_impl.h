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
#ifndef SKIR_HOSTSIM_SK_SHIM_IMPL_H
#define SKIR_HOSTSIM_SK_SHIM_IMPL_H

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace sk_shim {
namespace detail {

using VClock = std::vector<uint32_t>;
struct Aborted {};  // thrown by blocked calls once the launch is aborted

constexpr int kFlags = 16;
constexpr size_t kMaxCredits = 15;
constexpr size_t kUbBytes = 192 * 1024;
constexpr size_t kL1Bytes = 512 * 1024;
constexpr int kMaxErrorLines = 200;

inline void Join(VClock& into, const VClock& from) {
    for (size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}
inline int64_t NowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Core {
    CoreIdent id;
    std::string name;  // "aic 0" / "aiv 3 (block 1.1)"
    VClock vc;
    std::deque<VClock> credits[kFlags];
    bool overflowed[kFlags] = {};
    std::string blocked;  // what the core waits on; empty while it runs
    int spin = 0;         // consecutive dccis that saw nothing new
    bool fftsBase = false;
    bool done = false;
    std::map<int, int> local;                        // intra-core (src, dst, id) -> pending sets
    std::vector<std::pair<size_t, uint64_t>> polled;  // lock index -> value this core saw last
    std::map<std::pair<int, uint64_t>, uint64_t> feedNoted, feedDone;
    std::mt19937_64 rng;
};

struct Group {
    std::string what;  // "mode-0 aiv flag 14", for diagnostics
    std::vector<int> members, targets;
    std::vector<uint64_t> sets;  // per member
    uint64_t rounds = 0;         // completed rounds
    std::deque<VClock> pending;  // clocks of rounds rounds+1, rounds+2, ...
};

struct LockWord {
    int slot;
    uint64_t* addr;
    uint64_t published;
    VClock clock;
};

struct Buffer {
    int slot;
    uintptr_t lo, hi;
};

struct Feed {
    uint64_t rounds = 0;
    bool end = false;
    int kind = 0;
};

struct Launch {
    std::string kernelType;
    int blockDim = 0, aicPerBlock = 0, aivPerBlock = 0;
    bool ffts = false, mix = false;
    std::vector<Core> cores;
    std::map<std::array<int, 4>, Group> groups;
    std::vector<LockWord> locks;
    std::map<std::pair<int, uint64_t>, Feed> feeds;
    std::mutex m;
    std::condition_variable cv, cvMain;
    std::atomic<bool> aborted{false};
    std::atomic<int64_t> lastProgress{0};
    int finished = 0;
    bool deadlock = false;
    FILE* log = nullptr;
    std::set<std::string> errorsSeen, onceKeys;
    int nErrors = 0;
    int sleepMaxUs = 200;
    uint64_t seed = 0;
};

struct Registry {
    std::vector<std::pair<int, uint64_t*>> locks;
    std::vector<Buffer> buffers;
    int paramSlots = -1;
};

Registry g_registry;
Launch* g_launch = nullptr;
thread_local Core* t_core = nullptr;
thread_local std::unique_ptr<unsigned char[]> t_ub, t_l1;

void Progress() { g_launch->lastProgress.store(NowNs()); }

std::string ClockText(const VClock& vc) {
    std::string s;
    for (size_t i = 0; i < vc.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(vc[i]);
    }
    return s;
}

// Writes one log line; the launch mutex must be held.
void LogLine(const std::string& line) {
    if (g_launch && g_launch->log) {
        std::fputs(line.c_str(), g_launch->log);
        std::fputc('\n', g_launch->log);
    }
}

// Records an error (deduplicated; mutex held).
void ErrorLocked(int tid, const std::string& message) {
    std::string line = "ERROR " + std::to_string(tid) + " " + message;
    for (char& ch : line)
        if (ch == '\n') ch = ' ';
    if (!g_launch->errorsSeen.insert(line).second) return;
    ++g_launch->nErrors;
    if (g_launch->nErrors <= kMaxErrorLines) LogLine(line);
}

// Records an error once per launch for `key` (launch-wide misuse reported by every core).
void ErrorOnce(const std::string& key, int tid, const std::string& message) {
    (void)tid;
    if (g_launch->onceKeys.insert(key).second) ErrorLocked(-1, message);
}

int CurTid() { return t_core ? t_core->id.tid : -1; }

void CheckAbort() {
    if (g_launch->aborted.load()) throw Aborted{};
}

void ClearSpin(Core* c) {
    c->spin = 0;
    c->blocked.clear();
}

void Tick(Core* c) { ++c->vc[size_t(c->id.tid)]; }

int FindLock(const volatile void* addr) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    for (size_t i = 0; i < g_launch->locks.size(); ++i) {
        const uintptr_t w = reinterpret_cast<uintptr_t>(g_launch->locks[i].addr);
        if (a >= w && a < w + sizeof(uint64_t)) return int(i);
    }
    return -1;
}

// Observes lock word i on behalf of core c (release / acquire, see the header comment).
// Returns true when c sees a value it had not seen before.  `lk` holds the launch mutex.
bool ObserveLock(Core* c, size_t i, std::unique_lock<std::mutex>& lk) {
    Launch& L = *g_launch;
    const uint64_t v = __atomic_load_n(L.locks[i].addr, __ATOMIC_SEQ_CST);
    int seen = -1;
    for (size_t k = 0; k < c->polled.size(); ++k)
        if (c->polled[k].first == i) seen = int(k);
    const bool fresh = seen < 0 || c->polled[size_t(seen)].second != v;
    if (v != L.locks[i].published) {
        if (seen >= 0 && c->polled[size_t(seen)].second != v) {
            // A poller sees a new value: give the writer's own dcci a chance to publish it.
            for (int k = 0; k < 40 && L.locks[i].published != v && !L.aborted.load(); ++k) {
                lk.unlock();
                std::this_thread::sleep_for(std::chrono::microseconds(50));
                lk.lock();
            }
        }
        if (L.locks[i].published != v) {  // release by c
            Tick(c);
            Join(L.locks[i].clock, c->vc);
            L.locks[i].published = v;
            Progress();
        }
    }
    Join(c->vc, L.locks[i].clock);  // acquire
    if (seen >= 0) {
        c->polled[size_t(seen)].second = v;
    } else {
        c->polled.emplace_back(i, v);
    }
    if (fresh) Progress();
    return fresh;
}

// Lazy acquire: a poller that left its spin on a raw read catches up at its next shim call.
void LazyAcquire(Core* c, std::unique_lock<std::mutex>& lk) {
    for (size_t k = 0; k < c->polled.size(); ++k) {
        const size_t i = c->polled[k].first;
        if (__atomic_load_n(g_launch->locks[i].addr, __ATOMIC_SEQ_CST) != c->polled[k].second)
            ObserveLock(c, i, lk);
    }
}

// Common prologue of a synchronising shim call: lock held, abort checked, spin state cleared.
Core* Enter(std::unique_lock<std::mutex>& lk) {
    Core* c = t_core;
    CheckAbort();
    ClearSpin(c);
    LazyAcquire(c, lk);
    return c;
}

void CheckFfts(Core* c, const char* what) {
    Launch& L = *g_launch;
    if (!L.ffts)
        ErrorOnce(std::string("noffts ") + what, c->id.tid,
                  std::string(what) + " used in launch type " + L.kernelType +
                      ", which has no FFTS cross-core sync (first on " + c->name + ")");
    if (!c->fftsBase)
        ErrorOnce(std::string("nobase ") + what, c->id.tid,
                  std::string(what) + " before set_ffts_base_addr (first on " + c->name + ")");
}

std::vector<int> AivsOfBlock(int64_t block) {
    std::vector<int> out;
    for (const Core& k : g_launch->cores)
        if (k.id.type == AscendC::AIV && k.id.block == block) out.push_back(k.id.tid);
    return out;
}

int AicOfBlock(int64_t block) {
    for (const Core& k : g_launch->cores)
        if (k.id.type == AscendC::AIC && k.id.block == block) return k.id.tid;
    return -1;
}

const char* TypeName(int type) { return type == AscendC::AIC ? "aic" : "aiv"; }

// The group a set by c in `mode` on `flag` feeds; nullptr (after an error) when there is none.
Group* GroupFor(Core* c, int mode, int flag) {
    Launch& L = *g_launch;
    const int type = c->id.type;
    if (mode == 3) {
        ErrorOnce("mode3", c->id.tid, "ffts_cross_core_sync mode 3 is not supported (first on " + c->name + ")");
        return nullptr;
    }
    if (mode != 0 && !L.mix) {
        ErrorOnce("mode" + std::to_string(mode), c->id.tid,
                  "ffts_cross_core_sync mode " + std::to_string(mode) + " in launch type " + L.kernelType +
                      " (needs mix_aic_1_1 / mix_aic_1_2; first on " + c->name + ")");
        return nullptr;
    }
    if (mode == 1 && type != AscendC::AIV) {
        ErrorOnce("mode1aic", c->id.tid, "ffts_cross_core_sync mode 1 on an AIC (first on " + c->name + ")");
        return nullptr;
    }
    const std::array<int, 4> key{mode, type, flag, mode == 0 ? -1 : int(c->id.block)};
    auto it = L.groups.find(key);
    if (it != L.groups.end()) return &it->second;
    Group g;
    g.what = "mode-" + std::to_string(mode) + " " + TypeName(type) + " flag " + std::to_string(flag);
    if (mode == 0) {
        for (const Core& k : L.cores)
            if (k.id.type == type) g.members.push_back(k.id.tid);
        g.targets = g.members;
    } else if (mode == 1) {
        g.members = AivsOfBlock(c->id.block);
        g.targets = g.members;
        g.what += " block " + std::to_string(c->id.block);
    } else if (type == AscendC::AIC) {
        g.members = {c->id.tid};
        g.targets = AivsOfBlock(c->id.block);
        g.what += " block " + std::to_string(c->id.block);
    } else {
        g.members = AivsOfBlock(c->id.block);
        const int aic = AicOfBlock(c->id.block);
        if (aic >= 0) g.targets = {aic};
        g.what += " block " + std::to_string(c->id.block);
    }
    g.sets.assign(g.members.size(), 0);
    return &L.groups.emplace(key, std::move(g)).first->second;
}

}  // namespace detail

// ============================================================================================
// Registration (driver, before Run)
// ============================================================================================
void RegisterLock(int slot, uint64_t* word) { detail::g_registry.locks.emplace_back(slot, word); }
void RegisterBuffer(int slot, void* p, size_t n) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    detail::g_registry.buffers.push_back({slot, lo, lo + n});
}
void SetParamSlots(int n) { detail::g_registry.paramSlots = n; }

// ============================================================================================
// Cross-core flags
// ============================================================================================
void FftsSet(int pipe, uint64_t msg) {
    using namespace detail;
    if (!t_core) return;
    Launch& L = *g_launch;
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    CheckFfts(c, "ffts_cross_core_sync");
    if (pipe == PIPE_S || pipe == PIPE_ALL)
        ErrorOnce("pipe" + std::to_string(pipe), c->id.tid,
                  std::string("ffts_cross_core_sync on ") + (pipe == PIPE_S ? "PIPE_S" : "PIPE_ALL") +
                      " (not allowed; first on " + c->name + ")");
    const int mode = int((msg >> 4) & 0x3), flag = int((msg >> 8) & 0xF);
    Group* g = GroupFor(c, mode, flag);
    if (!g) return;
    size_t me = 0;
    while (me < g->members.size() && g->members[me] != c->id.tid) ++me;
    Tick(c);
    const uint64_t k = ++g->sets[me];
    const size_t slot = size_t(k - g->rounds - 1);
    while (g->pending.size() <= slot) g->pending.emplace_back(c->vc.size(), 0);
    Join(g->pending[slot], c->vc);
    while (!g->pending.empty() && *std::min_element(g->sets.begin(), g->sets.end()) > g->rounds) {
        for (int t : g->targets) {
            Core& tc = L.cores[size_t(t)];
            tc.credits[flag].push_back(g->pending.front());
            if (tc.credits[flag].size() > kMaxCredits && !tc.overflowed[flag]) {
                tc.overflowed[flag] = true;
                ErrorLocked(t, "credit overflow: " + tc.name + " holds " +
                                   std::to_string(tc.credits[flag].size()) + " pending credits on flag " +
                                   std::to_string(flag) + " (max 15)");
            }
        }
        g->pending.pop_front();
        ++g->rounds;
    }
    Progress();
    L.cv.notify_all();
}

void FftsWait(int64_t flag64) {
    using namespace detail;
    if (!t_core) return;
    Launch& L = *g_launch;
    const int flag = int(flag64 & 0xF);
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    CheckFfts(c, "wait_flag_dev");
    c->blocked = "wait_flag_dev(" + std::to_string(flag) + ")";
    while (c->credits[flag].empty()) {
        CheckAbort();
        L.cv.wait(lk);
    }
    c->blocked.clear();
    Join(c->vc, c->credits[flag].front());
    c->credits[flag].pop_front();
    Progress();
}

void SetFftsBase(uint64_t addr) {
    if (detail::t_core) detail::t_core->fftsBase = addr != 0;
}

// ============================================================================================
// dcci and GM lock words
// ============================================================================================
void Dcci(const volatile void* addr) {
    using namespace detail;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    Core* c = t_core;
    if (!c) return;
    Launch& L = *g_launch;
    bool sleep = false;
    {
        std::unique_lock<std::mutex> lk(L.m);
        CheckAbort();
        const int i = FindLock(addr);
        if (i < 0) {
            if (++c->spin >= 2) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "spin-dcci at %p", const_cast<const void*>(addr));
                c->blocked = buf;
            }
        } else if (ObserveLock(c, size_t(i), lk)) {
            ClearSpin(c);
        } else if (++c->spin >= 2) {
            const LockWord& w = L.locks[size_t(i)];
            c->blocked = "spin-dcci on slot " + std::to_string(w.slot) + " (value " +
                         std::to_string(__atomic_load_n(w.addr, __ATOMIC_SEQ_CST)) + ")";
            sleep = true;
        }
    }
    if (sleep) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    } else {
        std::this_thread::yield();
    }
}

// ============================================================================================
// Intra-core pipe flags: pairing checks only
// ============================================================================================
void LocalSet(int src, int dst, int id) {
    detail::Core* c = detail::t_core;
    if (!c) return;
    int& n = c->local[(src * 16 + dst) * 8 + (id & 7)];
    if (n >= 1) {
        Error(("set_flag(" + std::to_string(src) + "," + std::to_string(dst) + "," + std::to_string(id) +
               ") set twice without a wait on " + c->name)
                  .c_str());
    }
    ++n;
}

void LocalWait(int src, int dst, int id) {
    detail::Core* c = detail::t_core;
    if (!c) return;
    int& n = c->local[(src * 16 + dst) * 8 + (id & 7)];
    if (n == 0) {
        Error(("wait_flag(" + std::to_string(src) + "," + std::to_string(dst) + "," + std::to_string(id) +
               ") without a set on " + c->name + " (would hang)")
                  .c_str());
        return;
    }
    --n;
}

// ============================================================================================
// Early start.  Set = AIC mode-0 flag 11 on AIC_PIPE, AIV mode-0 flag 14 on AIV_PIPE.
// WaitPreTaskEndImpl<cfg>, cfg = 4*class(prev) + class(cur), class aic 0 / aiv 1 / mix 2.
// Recipes (each makes every consumer-type core wait until every producer-type core has set, and
// consumes every credit the sets produced):
//   0 aic->aic  AIC: wait 11.                          AIV: -
//   5 aiv->aiv  AIC: -                                 AIV: wait 14.
//   1 aic->aiv, 2 aic->mix
//               AIC: wait 11; set m2 13 (FIX).          AIV: wait 13.
//   4 aiv->aic, 6 aiv->mix
//               AIC: wait 12.                          AIV: wait 14; set m2 12 (MTE3).
//   8 mix->aic  AIC: wait 11; wait 12.                 AIV: wait 14; set m2 12 (MTE3).
//   9 mix->aiv  AIC: wait 11; set m2 13 (FIX).          AIV: wait 14; wait 13.
//  10 mix->mix  AIC: wait 11; set m2 13; wait 12.      AIV: wait 14; set m2 12; wait 13.
// Any other cfg (or the unset runtime config -1) is an error.
// ============================================================================================
void EarlySet(int aivPipe, int aicPipe) {
    if (!detail::t_core) return;
    if (ASCEND_IS_AIV) {
        FftsSet(aivPipe, AscendC::GetffstMsg(0, AscendC::SYNC_AIV_ONLY_ALL));
    } else {
        FftsSet(aicPipe, AscendC::GetffstMsg(0, AscendC::SYNC_AIC_FLAG));
    }
}

void EarlyWait(int cfg) {
    using AscendC::GetffstMsg;
    if (!detail::t_core) return;
    const bool aic = ASCEND_IS_AIC;
    switch (cfg) {
        case 0:
            if (aic) FftsWait(11);
            break;
        case 5:
            if (!aic) FftsWait(14);
            break;
        case 1:
        case 2:
            if (aic) {
                FftsWait(11);
                FftsSet(PIPE_FIX, GetffstMsg(2, 13));
            } else {
                FftsWait(13);
            }
            break;
        case 4:
        case 6:
            if (aic) {
                FftsWait(12);
            } else {
                FftsWait(14);
                FftsSet(PIPE_MTE3, GetffstMsg(2, 12));
            }
            break;
        case 8:
            if (aic) {
                FftsWait(11);
                FftsWait(12);
            } else {
                FftsWait(14);
                FftsSet(PIPE_MTE3, GetffstMsg(2, 12));
            }
            break;
        case 9:
            if (aic) {
                FftsWait(11);
                FftsSet(PIPE_FIX, GetffstMsg(2, 13));
            } else {
                FftsWait(14);
                FftsWait(13);
            }
            break;
        case 10:
            if (aic) {
                FftsWait(11);
                FftsSet(PIPE_FIX, GetffstMsg(2, 13));
                FftsWait(12);
            } else {
                FftsWait(14);
                FftsSet(PIPE_MTE3, GetffstMsg(2, 12));
                FftsWait(13);
            }
            break;
        default:
            Error(("WaitPreTaskEnd with unsupported early-start config " + std::to_string(cfg) + " on " +
                   detail::t_core->name)
                      .c_str());
    }
}

// ============================================================================================
// Feed-sync-all
// ============================================================================================
namespace detail {
std::pair<int, uint64_t> FeedKey(const Core* c) {
    const uint64_t addr = reinterpret_cast<uint64_t>(AscendC::g_superKernelAutoSyncAllConfigGmAddr);
    return {c->id.type, addr ? addr : (uint64_t(AscendC::g_superKernelAutoSyncAllSyncIdx) | (1ull << 63))};
}
void RunSyncKind(int kind) {
    if (kind == 0) {
        AscendC::SyncAll<true>();
    } else if (kind == 1) {
        AscendC::SyncAll<false>();
    } else if (ASCEND_IS_AIC) {
        FftsSet(PIPE_FIX, AscendC::GetffstMsg(0, AscendC::SYNC_AIC_FLAG));
        FftsWait(AscendC::SYNC_AIC_FLAG);
    }
}
}  // namespace detail

void FeedSyncNote(int kind) {
    using namespace detail;
    if (!t_core) return;
    std::unique_lock<std::mutex> lk(g_launch->m);
    Core* c = Enter(lk);
    const auto key = FeedKey(c);
    Feed& f = g_launch->feeds[key];
    f.kind = kind;
    f.rounds = std::max(f.rounds, ++c->feedNoted[key]);
    g_launch->cv.notify_all();
}

void FeedSyncEnd() {
    using namespace detail;
    if (!t_core) return;
    std::unique_lock<std::mutex> lk(g_launch->m);
    Core* c = Enter(lk);
    g_launch->feeds[FeedKey(c)].end = true;
    Progress();
    g_launch->cv.notify_all();
}

void FeedSyncComplement() {
    using namespace detail;
    if (!t_core) return;
    for (;;) {
        int kind = 0;
        {
            std::unique_lock<std::mutex> lk(g_launch->m);
            Core* c = Enter(lk);
            const auto key = FeedKey(c);
            c->blocked = "SuperKernelAutoSyncAllComplementImpl (sync idx " +
                         std::to_string(AscendC::g_superKernelAutoSyncAllSyncIdx) + ")";
            for (;;) {
                CheckAbort();
                const Feed& f = g_launch->feeds[key];
                if (f.rounds > c->feedDone[key] || f.end) break;
                g_launch->cv.wait(lk);
            }
            c->blocked.clear();
            const Feed& f = g_launch->feeds[key];
            if (f.rounds <= c->feedDone[key]) return;  // ended and every round matched
            ++c->feedDone[key];
            kind = f.kind;
        }
        const bool enabled = AscendC::g_superKernelAutoSyncAllEnable;
        AscendC::g_superKernelAutoSyncAllEnable = false;
        try {
            RunSyncKind(kind);
        } catch (...) {
            AscendC::g_superKernelAutoSyncAllEnable = enabled;
            throw;
        }
        AscendC::g_superKernelAutoSyncAllEnable = enabled;
    }
}

// ============================================================================================
// Errors, GM bounds, UB / L1
// ============================================================================================
void Error(const char* message) {
    if (!detail::g_launch) {
        std::fprintf(stderr, "sk_shim error: %s\n", message);
        return;
    }
    std::lock_guard<std::mutex> lk(detail::g_launch->m);
    detail::ErrorLocked(detail::CurTid(), message);
}

void GmCheck(const volatile void* p, size_t n, const char* what) {
    const auto& bufs = detail::g_registry.buffers;
    if (bufs.empty() || !detail::t_core) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + n;
    for (const detail::Buffer& b : bufs)
        if (lo >= b.lo && hi <= b.hi) return;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: GM range %p + %zu bytes lies outside every arg buffer on %s", what,
                  const_cast<const void*>(p), n, detail::t_core->name.c_str());
    Error(buf);
}

void* UbPtr(const volatile void* p, size_t n) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(p);
    if (v + n > detail::kUbBytes) return const_cast<void*>(p);  // a real host pointer
    if (!detail::t_ub) detail::t_ub.reset(new unsigned char[detail::kUbBytes]());
    return detail::t_ub.get() + v;
}

void* L1Ptr(const volatile void* p, size_t n) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(p);
    if (v + n > detail::kL1Bytes) return const_cast<void*>(p);
    if (!detail::t_l1) detail::t_l1.reset(new unsigned char[detail::kL1Bytes]());
    return detail::t_l1.get() + v;
}

void Trap() {
    using namespace detail;
    if (g_launch && t_core) {
        std::lock_guard<std::mutex> lk(g_launch->m);
        ErrorLocked(t_core->id.tid, "AscendC::Trap on " + t_core->name);
        if (!g_launch->aborted.load())
            LogLine("ABORT " + std::to_string(t_core->id.tid) + " AscendC::Trap on " + t_core->name);
        g_launch->aborted.store(true);
        g_launch->cv.notify_all();
    }
    throw detail::Aborted{};
}

// ============================================================================================
// Stub support
// ============================================================================================
namespace detail {
void SubRecord(const char* kind, const char* sym, uint64_t off, int copy) {
    if (!t_core) return;
    Launch& L = *g_launch;
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    if (g_registry.paramSlots >= 0 && off > uint64_t(g_registry.paramSlots))
        ErrorLocked(c->id.tid, std::string(sym) + " called with args_offset " + std::to_string(off) +
                                   " beyond the arg table (" + std::to_string(g_registry.paramSlots) +
                                   " slots) on " + c->name);
    if (c->id.paraBase == 0) ErrorLocked(c->id.tid, "get_para_base() is null on " + c->name);
    Tick(c);
    LogLine(std::string(kind) + " " + std::to_string(c->id.tid) + " " + sym + " " + std::to_string(off) +
            " " + std::to_string(copy) + " " + ClockText(c->vc));
    Progress();
}
}  // namespace detail

void SubBegin(const char* baseSymbol, uint64_t argsOffset, int copy) {
    detail::SubRecord("BEGIN", baseSymbol, argsOffset, copy);
}
void SubEnd(const char* baseSymbol, uint64_t argsOffset, int copy) {
    detail::SubRecord("END", baseSymbol, argsOffset, copy);
}

void MaybeSleep() {
    detail::Core* c = detail::t_core;
    if (!c || detail::g_launch->sleepMaxUs <= 0) return;
    const auto us = c->rng() % uint64_t(detail::g_launch->sleepMaxUs + 1);
    std::this_thread::sleep_for(std::chrono::microseconds(us));
    detail::CheckAbort();
}

// n hard SyncAll rounds of the sub-task class's kind: aiv -> SyncAll<true>, mix -> SyncAll<false>,
// aic -> the all-AIC barrier (mode-0 flag 11 on PIPE_FIX).  Without a class (nullptr), the kind of
// the launch: mix_aic_1_1 / 1_2 -> SyncAll<false>, AIV types -> SyncAll<true>, AIC types -> AIC barrier.
void SubSyncAllRounds(int n, const char* coreClass) {
    if (!detail::t_core) return;
    const detail::Launch& L = *detail::g_launch;
    const std::string cls = coreClass ? coreClass : L.mix ? "mix" : L.aicPerBlock ? "aic" : "aiv";
    const int kind = cls == "mix" ? 1 : cls == "aic" ? 2 : 0;
    for (int i = 0; i < n; ++i) {
        if (kind == 2 && AscendC::g_superKernelAutoSyncAllEnable && ASCEND_IS_AIC) FeedSyncNote(2);
        detail::RunSyncKind(kind);
    }
}

// ============================================================================================
// Run
// ============================================================================================
namespace detail {
void CoreMain(Launch* L, int tid, void (*entry)()) {
    Core& c = L->cores[size_t(tid)];
    t_ident = c.id;
    t_core = &c;
    try {
        entry();
    } catch (const Aborted&) {
    } catch (const std::exception& e) {
        Error((std::string("exception on ") + c.name + ": " + e.what()).c_str());
    } catch (...) {
        Error(("unknown exception on " + c.name).c_str());
    }
    if (!L->aborted.load()) {
        for (const auto& kv : c.local)
            if (kv.second > 0) {
                const int key = kv.first;
                Error(("set_flag(" + std::to_string(key / 8 / 16) + "," + std::to_string(key / 8 % 16) + "," +
                       std::to_string(key % 8) + ") never waited on " + c.name)
                          .c_str());
            }
    }
    std::lock_guard<std::mutex> lk(L->m);
    c.done = true;
    ++L->finished;
    Progress();
    L->cvMain.notify_all();
}

bool ParseKernelType(const std::string& t, Launch& L) {
    if (t == "mix_aiv_1_0" || t == "aiv_only") {
        L.aivPerBlock = 1;
    } else if (t == "mix_aic_1_0" || t == "aic_only") {
        L.aicPerBlock = 1;
    } else if (t == "mix_aic_1_1") {
        L.aicPerBlock = L.aivPerBlock = 1;
    } else if (t == "mix_aic_1_2") {
        L.aicPerBlock = 1;
        L.aivPerBlock = 2;
    } else {
        return false;
    }
    L.ffts = t.rfind("mix_", 0) == 0;
    L.mix = L.aicPerBlock && L.aivPerBlock;
    return true;
}

std::string CoreName(const CoreIdent& id) {
    if (id.type == AscendC::AIC) return "aic " + std::to_string(id.block);
    return "aiv " + std::to_string(id.block * id.subDim + id.sub) + " (block " + std::to_string(id.block) +
           "." + std::to_string(id.sub) + ")";
}
}  // namespace detail

int Run(int blockDim, const char* kernelType, void (*entry)(), uint64_t* paramBase, int timeoutMs,
        const char* logPath) {
    using namespace detail;
    Launch L;
    g_launch = &L;
    L.kernelType = kernelType ? kernelType : "";
    L.blockDim = blockDim;
    if (!logPath || !*logPath) logPath = std::getenv("SKIR_EMU_LOG");
    L.log = (logPath && *logPath) ? std::fopen(logPath, "w") : stderr;
    if (!L.log) L.log = stderr;
    if (const char* s = std::getenv("SKIR_EMU_SEED")) L.seed = std::strtoull(s, nullptr, 10);
    if (const char* s = std::getenv("SKIR_EMU_SLEEP_US")) L.sleepMaxUs = std::atoi(s);
    if (!ParseKernelType(L.kernelType, L) || blockDim < 1 || !entry) {
        ErrorLocked(-1, "bad launch: kernel type '" + L.kernelType + "', blockDim " + std::to_string(blockDim));
        LogLine("VERDICT error");
        if (L.log != stderr) std::fclose(L.log);
        g_launch = nullptr;
        return 1;
    }
    const int nAic = blockDim * L.aicPerBlock;
    for (int b = 0; b < blockDim; ++b) {
        for (int k = 0; k < L.aicPerBlock + L.aivPerBlock; ++k) {
            Core c;
            c.id.tid = int32_t(L.cores.size());
            c.id.type = k < L.aicPerBlock ? AscendC::AIC : AscendC::AIV;
            c.id.block = b;
            c.id.blockNum = blockDim;
            c.id.sub = k < L.aicPerBlock ? 0 : k - L.aicPerBlock;
            c.id.subDim = c.id.type == AscendC::AIV ? L.aivPerBlock : 1;
            c.id.phys = c.id.type == AscendC::AIC ? b : nAic + b * L.aivPerBlock + c.id.sub;
            c.id.paraBase = int64_t(reinterpret_cast<uintptr_t>(paramBase));
            c.name = CoreName(c.id);
            c.rng.seed(L.seed * 0x9E3779B97F4A7C15ull + uint64_t(c.id.tid) * 0xBF58476D1CE4E5B9ull + 1);
            L.cores.push_back(std::move(c));
        }
    }
    const size_t n = L.cores.size();
    for (Core& c : L.cores) c.vc.assign(n, 0);
    for (const auto& lw : g_registry.locks)
        L.locks.push_back({lw.first, lw.second, __atomic_load_n(lw.second, __ATOMIC_SEQ_CST), VClock(n, 0)});

    {
        std::lock_guard<std::mutex> lk(L.m);
        LogLine("LAUNCH " + L.kernelType + " " + std::to_string(blockDim) + " " + std::to_string(n) + " " +
                std::to_string(timeoutMs));
        for (const Core& c : L.cores)
            LogLine("CORE " + std::to_string(c.id.tid) + " " + TypeName(c.id.type) + " " +
                    std::to_string(c.id.block) + " " + std::to_string(c.id.sub) + " " +
                    std::to_string(c.id.subDim) + " " + std::to_string(c.id.phys));
    }
    Progress();
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (size_t t = 0; t < n; ++t) {
        try {
            threads.emplace_back(CoreMain, &L, int(t), entry);
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lk(L.m);
            ErrorLocked(-1, std::string("cannot start thread: ") + e.what());
            L.aborted.store(true);
            L.finished += int(n - t);
            break;
        }
    }

    // Watchdog.
    {
        std::unique_lock<std::mutex> lk(L.m);
        int64_t abortedAt = 0;
        while (L.finished < int(n)) {
            L.cvMain.wait_for(lk, std::chrono::milliseconds(10));
            if (L.finished >= int(n)) break;
            const int64_t now = NowNs();
            if (!L.aborted.load() && now - L.lastProgress.load() > int64_t(timeoutMs) * 1000000) {
                L.deadlock = true;
                for (const Core& c : L.cores)
                    if (!c.done)
                        LogLine("DEADLOCK " + std::to_string(c.id.tid) + " " + c.name + ": " +
                                (c.blocked.empty() ? std::string("running (no shim call)") : c.blocked));
                L.aborted.store(true);
                L.cv.notify_all();
            }
            if (L.aborted.load()) {
                if (!abortedAt) abortedAt = now;
                if (now - abortedAt > int64_t(3000) * 1000000) {
                    ErrorLocked(-1, "some sub-core threads did not unwind after the abort");
                    LogLine(std::string("VERDICT ") + (L.deadlock ? "deadlock" : "error"));
                    std::fflush(L.log);
                    _exit(2);
                }
                L.cv.notify_all();
            }
        }
    }
    for (std::thread& t : threads) t.join();

    std::lock_guard<std::mutex> lk(L.m);
    bool leftovers = false;
    if (!L.aborted.load()) {
        for (const Core& c : L.cores)
            for (int f = 0; f < kFlags; ++f)
                if (!c.credits[f].empty()) {
                    leftovers = true;
                    LogLine("LEFTOVER " + std::to_string(c.id.tid) + " " + std::to_string(f) + " " +
                            std::to_string(c.credits[f].size()));
                }
        for (const auto& kv : L.groups) {
            const Group& g = kv.second;
            const auto mm = std::minmax_element(g.sets.begin(), g.sets.end());
            if (*mm.first != *mm.second) {
                const Core& lo = L.cores[size_t(g.members[size_t(mm.first - g.sets.begin())])];
                const Core& hi = L.cores[size_t(g.members[size_t(mm.second - g.sets.begin())])];
                ErrorLocked(-1, "incomplete " + g.what + " round: " + hi.name + " set it " +
                                    std::to_string(*mm.second) + " time(s), " + lo.name + " only " +
                                    std::to_string(*mm.first));
            }
        }
    }
    for (const LockWord& w : L.locks)
        LogLine("LOCK " + std::to_string(w.slot) + " " + std::to_string(__atomic_load_n(w.addr, __ATOMIC_SEQ_CST)));
    const int rc = L.deadlock ? 2 : (L.nErrors || leftovers || L.aborted.load()) ? 1 : 0;
    LogLine(std::string("VERDICT ") + (rc == 2 ? "deadlock" : rc == 1 ? "error" : "ok"));
    if (L.log != stderr) {
        std::fclose(L.log);
    } else {
        std::fflush(L.log);
    }
    g_launch = nullptr;
    return rc;
}

}  // namespace sk_shim

#endif  // SKIR_HOSTSIM_SK_SHIM_IMPL_H
