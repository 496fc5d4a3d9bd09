// sk_shim_sync.h -- part of the skir host shim runtime (sk_shim_impl.h; the overview there
// describes the model).  The synchronisation primitives the Ascend C surface calls: cross-core
// flags (ffts_cross_core_sync / wait_flag_dev), dcci on GM lock words, intra-core pipe flags
// (pairing checks), the early-start recipes and feed-sync-all.
// Include sk_shim_impl.h, not this part: it defines non-inline functions (one translation unit).
#ifndef SKIR_HOSTSIM_SK_SHIM_SYNC_H
#define SKIR_HOSTSIM_SK_SHIM_SYNC_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "kernel_operator.h"
#include "sk_shim_model.h"

namespace sk_shim {

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
                                   std::to_string(flag) + " (max 15), set by " + c->name + " (" + c->where + ")");
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
        } else if (ObserveLock(c, size_t(i), lk, true)) {
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

}  // namespace sk_shim

#endif  // SKIR_HOSTSIM_SK_SHIM_SYNC_H
