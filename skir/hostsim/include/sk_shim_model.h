// sk_shim_model.h -- part of the skir host shim runtime (sk_shim_impl.h; the overview there
// describes the model).  The state of one launch: sub-cores with their vector clocks and
// cross-core credit counters, the credit groups a set feeds, GM lock words (release / acquire on
// dcci; the 64-byte line each core holds and writes back on a clean), the error log, and the
// prologue every synchronising shim call runs.
// Include sk_shim_impl.h, not this part: it defines non-inline functions (one translation unit).
#ifndef SKIR_HOSTSIM_SK_SHIM_MODEL_H
#define SKIR_HOSTSIM_SK_SHIM_MODEL_H

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
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
// A sub-core's cross-core flag counter is 4 bits (0..15): a set that would take a full counter to
// 16 is an overflow, which the shim reports as an error naming the counter's core, the flag id and
// the setting core with where it stands (the Ascend C API documentation of CrossCoreSetFlag and the
// hardware's 16 counters of 4 bits per sub-core; docs/design.md §6).  A counter may hold 15.
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
    std::string where = "before any sub-task";  // "in k@5" / "after k@5": its last BEGIN / END
    int spin = 0;         // consecutive dccis that saw nothing new
    bool fftsBase = false;
    bool done = false;
    std::map<int, int> local;                        // intra-core (src, dst, id) -> pending sets
    std::vector<std::pair<size_t, uint64_t>> polled;  // lock index -> value this core saw last
    std::map<uintptr_t, std::vector<std::pair<size_t, uint64_t>>> held;  // 64-byte line -> lock words it holds
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
    uint64_t initial = 0;  // its value at launch: what a core that never cleaned its line holds
    int writer = -1;       // tid of the core whose clean published the value last
    VClock written;        // that core's clock at the clean
};

constexpr uintptr_t kLineBytes = 64;  // the unit of dcci (docs/design.md §5 "Memory layout")

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
    std::map<std::string, int> rendezvous;  // communication sub-kernel (symbol@offset) -> blocks inside
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

uintptr_t LineOf(size_t i) { return reinterpret_cast<uintptr_t>(g_launch->locks[i].addr) / kLineBytes; }

bool Before(const VClock& a, const VClock& b) {
    for (size_t k = 0; k < a.size() && k < b.size(); ++k)
        if (a[k] > b[k]) return false;
    return true;
}

// Core c's clean of lock word i, which it wrote, writes back the whole 64-byte line it holds
// (docs/design.md §5 "Memory layout"): every other lock word of the line goes back to the value c
// last loaded (at its last dcci of the line; the launch value if it never cleaned it).  A write of
// another word of the line by another core that does not happen before this clean is reported,
// whether or not the values differ this time, naming both slots.  Mutex held.
void WriteBackLine(Core* c, size_t i) {
    Launch& L = *g_launch;
    const uintptr_t line = LineOf(i);
    auto h = c->held.find(line);
    for (size_t j = 0; j < L.locks.size(); ++j) {
        LockWord& w = L.locks[j];
        if (j == i || LineOf(j) != line) continue;
        if (w.writer >= 0 && w.writer != c->id.tid && !Before(w.written, c->vc))
            ErrorOnce("line " + std::to_string(std::min(L.locks[i].slot, w.slot)) + " " +
                          std::to_string(std::max(L.locks[i].slot, w.slot)),
                      c->id.tid,
                      "line: lock words of slots " + std::to_string(L.locks[i].slot) + " and " +
                          std::to_string(w.slot) + " share a 64-byte line, written by " + c->name + " and " +
                          L.cores[size_t(w.writer)].name + " without an order");
        uint64_t stale = w.initial;
        if (h != c->held.end())
            for (const auto& kv : h->second)
                if (kv.first == j) stale = kv.second;
        const uint64_t now = __atomic_load_n(w.addr, __ATOMIC_SEQ_CST);
        if (now != stale) {  // the write-back restores c's stale copy of the other word
            __atomic_store_n(w.addr, stale, __ATOMIC_SEQ_CST);
            w.published = stale;
            ErrorLocked(c->id.tid, "line: " + c->name + "'s clean of slot " + std::to_string(L.locks[i].slot) +
                                       " wrote back slot " + std::to_string(w.slot) + " as " +
                                       std::to_string(stale) + " over " + std::to_string(now) +
                                       " (one 64-byte line)");
        }
    }
    L.locks[i].writer = c->id.tid;
    L.locks[i].written = c->vc;
}

// After a dcci core c holds the line of lock word i as memory has it now.  Mutex held.
void HoldLine(Core* c, size_t i) {
    Launch& L = *g_launch;
    const uintptr_t line = LineOf(i);
    std::vector<std::pair<size_t, uint64_t>>& words = c->held[line];
    words.clear();
    for (size_t j = 0; j < L.locks.size(); ++j)
        if (LineOf(j) == line) words.emplace_back(j, __atomic_load_n(L.locks[j].addr, __ATOMIC_SEQ_CST));
}

// Observes lock word i on behalf of core c (release / acquire, see the overview in sk_shim_impl.h);
// `clean`: c runs a dcci of the word, whose line it then writes back (when it released the word)
// and holds afresh.  Returns true when c sees a value it had not seen before.  `lk` holds the
// launch mutex.
bool ObserveLock(Core* c, size_t i, std::unique_lock<std::mutex>& lk, bool clean = false) {
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
            if (clean) WriteBackLine(c, i);
            Join(L.locks[i].clock, c->vc);
            L.locks[i].published = v;
            Progress();
        }
    }
    Join(c->vc, L.locks[i].clock);  // acquire
    if (clean) HoldLine(c, i);
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

}  // namespace sk_shim

#endif  // SKIR_HOSTSIM_SK_SHIM_MODEL_H
