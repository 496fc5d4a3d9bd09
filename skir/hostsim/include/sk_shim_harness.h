// sk_shim_harness.h -- part of the skir host shim runtime (sk_shim_impl.h; the overview there
// describes the model).  What the driver and the stubs call: registration of lock words and
// buffers, errors and GM / UB / L1 checks, Trap, sub-task BEGIN / END records and random sleeps,
// and Run (threads, watchdog, end-of-launch checks, log verdict).
// Include sk_shim_impl.h, not this part: it defines non-inline functions (one translation unit).
#ifndef SKIR_HOSTSIM_SK_SHIM_HARNESS_H
#define SKIR_HOSTSIM_SK_SHIM_HARNESS_H

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "sk_shim_model.h"
#include "sk_shim_sync.h"

namespace sk_shim {

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
    c->where = std::string(kind[0] == 'B' ? "in " : "after ") + sym + "@" + std::to_string(off);
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

// A communication sub-kernel spins on its peers, so every one of its blocks must be inside it at
// once: each block waits here until `blocks` have arrived (the peer ranks are assumed to arrive).
// A block that cannot be resident never arrives: the watchdog reports the deadlock, naming it.
void SubRendezvous(const char* baseSymbol, uint64_t argsOffset, int blocks) {
    using namespace detail;
    if (!t_core) return;
    Launch& L = *g_launch;
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    const std::string key = std::string(baseSymbol) + "@" + std::to_string(argsOffset);
    ++L.rendezvous[key];
    Progress();
    L.cv.notify_all();
    c->blocked = "the rendezvous of communication sub-kernel " + key + ": all its " + std::to_string(blocks) +
                 " blocks must be resident at once";
    while (L.rendezvous[key] < blocks) {
        CheckAbort();
        L.cv.wait(lk);
    }
    c->blocked.clear();
    Progress();
}

// A planted sub-kernel that never returns (tests of the hang locator): the core blocks here, named
// as inside that sub-kernel, until the watchdog declares the deadlock and aborts the launch.
void SubHang(const char* baseSymbol, uint64_t argsOffset) {
    using namespace detail;
    if (!t_core) std::abort();  // only a stub inside a launch calls it
    Launch& L = *g_launch;
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    c->blocked = std::string("inside sub-kernel ") + baseSymbol + "@" + std::to_string(argsOffset) +
                 ", which never returns";
    for (;;) {
        CheckAbort();
        L.cv.wait(lk);
    }
}

// The n argument-table words from argsOffset, as this core reads them through get_para_base(): an
// updated sub-kernel must see the arguments the runtime forwarded into its slots (an ARGS line;
// the copy is always 0: which split copy ran is in the BEGIN line).
void SubArgs(const char* baseSymbol, uint64_t argsOffset, int n) {
    using namespace detail;
    if (!t_core) return;
    Launch& L = *g_launch;
    std::unique_lock<std::mutex> lk(L.m);
    Core* c = Enter(lk);
    const uint64_t* table = reinterpret_cast<const uint64_t*>(uintptr_t(c->id.paraBase));
    std::string words;
    char hex[24];
    for (int i = 0; i < n; ++i) {
        if (g_registry.paramSlots >= 0 && argsOffset + uint64_t(i) >= uint64_t(g_registry.paramSlots)) {
            ErrorLocked(c->id.tid, std::string(baseSymbol) + " reads argument slot " +
                                       std::to_string(argsOffset + uint64_t(i)) + " beyond the arg table on " +
                                       c->name);
            break;
        }
        std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(table[argsOffset + uint64_t(i)]));
        words += (i ? "," : "") + std::string(hex);
    }
    LogLine("ARGS " + std::to_string(c->id.tid) + " " + baseSymbol + " " + std::to_string(argsOffset) + " 0 " +
            (words.empty() ? std::string("-") : words));
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
    for (const auto& lw : g_registry.locks) {
        const uint64_t v = __atomic_load_n(lw.second, __ATOMIC_SEQ_CST);
        L.locks.push_back({lw.first, lw.second, v, VClock(n, 0), v, -1, VClock(n, 0)});
    }

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

#endif  // SKIR_HOSTSIM_SK_SHIM_HARNESS_H
