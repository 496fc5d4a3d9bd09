// kernel_operator.h -- host (g++ -std=c++17) shim of the Ascend C surface used by skir SuperKernel
// entries.  An emitted entry (`#include "kernel_operator.h"`) compiles UNCHANGED against this header
// and runs with one std::thread per sub-core.  The shim models control flow and synchronisation,
// not math (docs/design.md §6).
//
// Files
//   kernel_operator.h  the Ascend C surface (macros, enums, builtins, AscendC::*), cheap to include.
//   sk_shim_impl.h     the runtime (cores, credit model, vector clocks, watchdog, log, Run).
//                      Include it in EXACTLY ONE translation unit of the program (the driver).
//                      It includes its parts sk_shim_model.h, sk_shim_sync.h, sk_shim_harness.h.
//
// Harness API (namespace sk_shim; all defined in sk_shim_impl.h)
//   int  Run(int blockDim, const char* kernelType, void (*entry)(), uint64_t* paramBase,
//            int timeoutMs, const char* logPath = nullptr);
//        kernelType: mix_aiv_1_0 | mix_aic_1_0 | mix_aic_1_1 | mix_aic_1_2 | aiv_only | aic_only.
//        Log path: the argument, else env SKIR_EMU_LOG, else stderr.  Returns 0 ok, 1 errors,
//        2 deadlock.  Never hangs: the watchdog aborts after timeoutMs without progress.
//   void RegisterLock(int slot, uint64_t* word)     a GM lock word (vector clocks via dcci)
//   void RegisterBuffer(int slot, void* p, size_t n) a GM buffer (bounds of copy_ubuf_to_gm & co)
//   void SetParamSlots(int n)                        size of the arg table (checks args_offset)
//   void SubBegin/SubEnd(const char* baseSymbol, uint64_t argsOffset, int copy = 0)
//   void MaybeSleep()                                random 0..200 us (env SKIR_EMU_SEED seeds it,
//                                                    SKIR_EMU_SLEEP_US changes the maximum)
//   void SubSyncAllRounds(int n, const char* coreClass = nullptr)  n hard SyncAll rounds of the
//                                                    class's kind (default: the launch's kind)
//   void SubRendezvous(const char* baseSymbol, uint64_t argsOffset, int blocks)  a communication
//                                                    sub-kernel: returns once `blocks` of its blocks
//                                                    are inside (all resident; the peers arrive)
//   void SubArgs(const char* baseSymbol, uint64_t argsOffset, int n)  logs the n argument-table
//                                                    words from argsOffset this core sees (ARGS)
//   void SubHang(const char* baseSymbol, uint64_t argsOffset)  a planted sub-kernel that never
//                                                    returns: blocks until the watchdog aborts
//
// Log format (one record per line, space separated; <vc> = comma-separated vector clock with one
// component per sub-core, indexed by tid):
//   LAUNCH <kernelType> <blockDim> <nCores> <timeoutMs>
//   CORE <tid> <aic|aiv> <block> <sub> <subDim> <phys>
//   BEGIN <tid> <symbol> <argsOffset> <copy> <vc>
//   END <tid> <symbol> <argsOffset> <copy> <vc>
//   ERROR <tid|-1> <one-line message>
//   LEFTOVER <tid> <flag> <n>                 pending cross-core credits at the end
//   DEADLOCK <tid> <description>              one line per unfinished sub-core, e.g.
//                                             "aiv 3 (block 1.1): wait_flag_dev(14)"
//   ABORT <tid> <description>                 the launch was aborted (AscendC::Trap)
//   ARGS <tid> <symbol> <argsOffset> <copy> <w0,w1,...>  the argument-table words a sub-kernel saw
//                                             (hex; `-` for none), from SubArgs
//   LOCK <slot> <value>                       final value of each registered lock word
//   VERDICT <ok|error|deadlock>
//
// Core naming in messages: "aic <block>" and "aiv <GetBlockIdx()> (block <block>.<sub>)".
//
// Not modelled: vector/cube math, pipeline timing (PipeBarrier / SetFlag only checked for pairing),
// data caches (dcci is a fence; see sk_shim_impl.h for the lock-word clock approximation), the soft
// (GM) SyncAll, DataCacheCleanAndInvalid on tensors, WaitPreTaskEnd V3 bit-mask configs.
#ifndef SKIR_HOSTSIM_KERNEL_OPERATOR_H
#define SKIR_HOSTSIM_KERNEL_OPERATOR_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

// ============================================================================================
// 1. Qualifiers, macros, meta structs
// ============================================================================================
#define __global__
#define __aicore__
#define __sk__
#define __vector__
#define __cube__
#define __mix__(c, v)
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__
// `__inline__` is already the GNU spelling of `inline` (it also works on C++17 variables), so it is
// deliberately not redefined.
#define __BLOCK_LOCAL__ thread_local
#define GM_ADDR __gm__ uint8_t*
#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR 0
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#define KERNEL_TASK_TYPE_DEFAULT(...)
#define KERNEL_TASK_TYPE(...)
#define ENABLE_FEATURE_FOR_COMPILE(...)

enum pipe_t : int {
    PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL = 6,
    PIPE_MTE4 = 7, PIPE_MTE5 = 8, PIPE_V2 = 9, PIPE_FIX = 10, PIPE_MAX
};
enum event_t : int {
    EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7
};
enum cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum dcci_dst_t { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };

// Kernel-type meta trailer: `static const struct FunLevelMixCoreType x __attribute__((used,
// section(".ascend.meta.x_mix_aiv"))) = {{{F_TYPE_KTYPE, sizeof(unsigned int)}, K_TYPE_MIX_AIV_MAIN},
// {{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}, 0, 1}};` needs the nested layout below.
struct BaseTlv { uint16_t type; uint16_t len; };
struct FunLevelKType { BaseTlv ktypeHead; uint32_t ktype; };
struct FunLevelMixCoreRation { BaseTlv mixHead; uint16_t taskRation0; uint16_t taskRation1; };
struct FunLevelMixCoreType { FunLevelKType ktypeMeta; FunLevelMixCoreRation mixCoreRation; };
enum FuncMetaType : uint16_t { F_TYPE_KTYPE = 1, F_TYPE_CROSS_CORE_SYNC = 2, F_TYPE_MIX_TASK_RATION = 3 };
enum KernelType : uint32_t {
    K_TYPE_AICORE = 1, K_TYPE_AIC = 2, K_TYPE_AIV = 3, K_TYPE_MIX_AIC_MAIN = 4, K_TYPE_MIX_AIV_MAIN = 5,
    K_TYPE_AIC_ROLLBACK = 6, K_TYPE_AIV_ROLLBACK = 7, K_TYPE_MAX
};
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY = 0, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE, KERNEL_TYPE_MIX_VECTOR_CORE, KERNEL_TYPE_MAX
};
struct OpSystemRunCfg { uint64_t l2Cacheoffset; };

// ============================================================================================
// 2. Harness interface (implemented in sk_shim_impl.h)
// ============================================================================================
namespace sk_shim {

// Identity of the sub-core the calling thread plays; set by Run before the entry is called.
struct CoreIdent {
    int32_t tid = -1;
    int32_t type = 0;        // AscendC::AIC (1) or AscendC::AIV (2); 0 outside a launch
    int64_t block = 0;       // get_block_idx()
    int64_t blockNum = 1;    // get_block_num()
    int64_t sub = 0;         // get_subblockid()
    int64_t subDim = 1;      // get_subblockdim()
    int64_t phys = 0;        // get_coreid()
    int64_t paraBase = 0;    // get_para_base()
};
inline thread_local CoreIdent t_ident;

int Run(int blockDim, const char* kernelType, void (*entry)(), uint64_t* paramBase, int timeoutMs,
        const char* logPath = nullptr);
void RegisterLock(int slot, uint64_t* word);
void RegisterBuffer(int slot, void* p, size_t n);
void SetParamSlots(int n);
void SubBegin(const char* baseSymbol, uint64_t argsOffset, int copy = 0);
void SubEnd(const char* baseSymbol, uint64_t argsOffset, int copy = 0);
void MaybeSleep();
void SubSyncAllRounds(int n, const char* coreClass = nullptr);  // "aic" | "aiv" | "mix" | launch kind
void SubRendezvous(const char* baseSymbol, uint64_t argsOffset, int blocks);  // a communication kernel
void SubArgs(const char* baseSymbol, uint64_t argsOffset, int n);  // log the n argument words it sees
[[noreturn]] void SubHang(const char* baseSymbol, uint64_t argsOffset);  // a planted never-returning sub-kernel

// Internal entry points used by the inline wrappers below.
void FftsSet(int pipe, uint64_t msg);
void FftsWait(int64_t flag);
void Dcci(const volatile void* addr);
void SetFftsBase(uint64_t addr);
void LocalSet(int src, int dst, int id);
void LocalWait(int src, int dst, int id);
void EarlySet(int aivPipe, int aicPipe);
void EarlyWait(int cfg);
void FeedSyncNote(int kind);  // 0 SyncAll<true>, 1 SyncAll<false>, 2 all-AIC barrier
void FeedSyncEnd();
void FeedSyncComplement();
void Error(const char* message);
void GmCheck(const volatile void* p, size_t n, const char* what);
[[noreturn]] void Trap();
void* UbPtr(const volatile void* p, size_t n);  // maps a small pointer value to the thread's UB
void* L1Ptr(const volatile void* p, size_t n);  // the same for the AIC L1 buffer

}  // namespace sk_shim

// ============================================================================================
// 3. The Ascend C surface.  STRICT: every function below has exactly the prototype of the real
// API (docs/design.md §6; the audit of every call an entry makes is in
// test/unit/test_shim_strict.py): no extra overloads, templates or conversions, so that a call
// bisheng rejects (`preload(f, n)` without the `(const void *)` cast, `wait_flag_dev(PIPE_S, f)`
// on dav-c220, an unqualified SYNC_* flag) fails here too.
// ============================================================================================
namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

#define g_coreType (static_cast<int32_t>(::sk_shim::t_ident.type))
#define ASCEND_IS_AIV (g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == ::AscendC::AIC)

// ---- raw builtins: core identity (all return int64_t and take nothing)
inline int64_t get_block_idx() { return sk_shim::t_ident.block; }
inline int64_t get_block_num() { return sk_shim::t_ident.blockNum; }
inline int64_t get_subblockid() { return sk_shim::t_ident.sub; }
inline int64_t get_subblockdim() { return sk_shim::t_ident.subDim; }
inline int64_t get_coreid() { return sk_shim::t_ident.phys; }
inline int64_t get_para_base() { return sk_shim::t_ident.paraBase; }
inline int64_t get_sys_cnt() {
    return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count() / 20);  // a 50 MHz counter, as on dav-c220
}
inline void set_ffts_base_addr(uint64_t config) { sk_shim::SetFftsBase(config); }

// Block-local global the generated code assigns before an early-start wait.
inline thread_local int64_t g_super_kernel_early_start_config = -1;

// ---- raw builtins: synchronisation and caches (dav-c220 forms)
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config) { sk_shim::FftsSet(pipe, config); }
inline void wait_flag_dev(int64_t flagID) { sk_shim::FftsWait(flagID); }
inline void pipe_barrier(pipe_t pipe) { (void)pipe; }
inline void set_flag(pipe_t pipe, pipe_t tpipe, event_t eventID) { sk_shim::LocalSet(pipe, tpipe, eventID); }
inline void wait_flag(pipe_t pipe, pipe_t tpipe, event_t eventID) { sk_shim::LocalWait(pipe, tpipe, eventID); }
// dcci(addr, cache line kind, destination): the vendor's entries pass the kind and destination
// both as integer literals (`dcci(p, 0, 2)`) and as the unscoped enumerators
// (`cache_line_t::ENTIRE_DATA_CACHE`), and the address as a `__gm__ volatile uint64_t *`: integer
// parameters and a volatile address are the one prototype that takes all three, as bisheng does.
inline void dcci(__gm__ volatile void* dst, uint64_t entire, uint64_t type) {
    (void)entire;
    (void)type;
    sk_shim::Dcci(dst);
}
// Instruction-cache preload of n x 2 KiB from addr: a function is passed as `(const void *)f`.
inline void preload(const void* addr, int64_t prefetchLen) {
    (void)addr;
    (void)prefetchLen;
}

// ---- raw builtins: data movers (UB = thread-local 192 KiB; a pointer value below its size is a
// UB offset, as the entries write to `(__ubuf__ T *)0`; the same for the AIC L1 buffer)
inline void copy_ubuf_to_gm(__gm__ void* dst, __ubuf__ void* src, uint8_t sid, uint16_t nBurst,
                            uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride) {
    (void)sid;
    const size_t burst = size_t(lenBurst) * 32, srcStep = burst + size_t(srcStride) * 32,
                 dstStep = burst + size_t(dstStride) * 32;
    if (nBurst == 0 || burst == 0) return;
    auto* s = static_cast<uint8_t*>(sk_shim::UbPtr(src, srcStep * (nBurst - 1) + burst));
    auto* d = static_cast<uint8_t*>(dst);
    sk_shim::GmCheck(d, dstStep * (nBurst - 1) + burst, "copy_ubuf_to_gm");
    for (uint16_t i = 0; i < nBurst; ++i) std::memcpy(d + i * dstStep, s + i * srcStep, burst);
}
inline void copy_cbuf_to_gm(__gm__ void* dst, __cbuf__ void* src, uint8_t sid, uint16_t nBurst,
                            uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride) {
    (void)sid;
    const size_t burst = size_t(lenBurst) * 32, srcStep = burst + size_t(srcStride) * 32,
                 dstStep = burst + size_t(dstStride) * 32;
    if (nBurst == 0 || burst == 0) return;
    auto* s = static_cast<uint8_t*>(sk_shim::L1Ptr(src, srcStep * (nBurst - 1) + burst));
    auto* d = static_cast<uint8_t*>(dst);
    sk_shim::GmCheck(d, dstStep * (nBurst - 1) + burst, "copy_cbuf_to_gm");
    for (uint16_t i = 0; i < nBurst; ++i) std::memcpy(d + i * dstStep, s + i * srcStep, burst);
}
// Fill L1 with `value`; config = repeat << 16 | 32-byte blocks per repeat (the vendor's 0x10010 is
// 512 bytes; the encoding is the shim's model of the instruction).
inline void create_cbuf_matrix(__cbuf__ uint32_t* dst, int64_t config, uint32_t value) {
    const size_t repeat = size_t((uint64_t(config) >> 16) & 0xFFFF);
    const size_t n = (repeat ? repeat : 1) * size_t(config & 0xFFFF) * 32 / sizeof(uint32_t);
    uint32_t* d = static_cast<uint32_t*>(sk_shim::L1Ptr(dst, n * sizeof(uint32_t)));
    for (size_t i = 0; i < n; ++i) d[i] = value;
}

// ============================================================================================
// 4. AscendC namespace
// ============================================================================================
namespace AscendC {

constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;

// ---- identity (dav_c220 formulas)
inline int64_t GetTaskRation() { return ASCEND_IS_AIV ? get_subblockdim() : 1; }
inline int64_t GetBlockIdxImpl() {
    return ASCEND_IS_AIV ? get_block_idx() * GetTaskRation() + get_subblockid() : get_block_idx();
}
inline int64_t GetBlockIdx() { return GetBlockIdxImpl(); }
inline int64_t GetBlockNum() { return get_block_num(); }
inline int64_t GetSystemCycle() { return get_sys_cnt(); }

// ---- cross-core flags
inline uint64_t GetffstMsg(uint16_t mode, uint16_t flagId) {
    return 1ull | (uint64_t(mode & 0x3) << 4) | (uint64_t(flagId & 0xF) << 8);
}
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId) { ffts_cross_core_sync(pipe, GetffstMsg(modeId, flagId)); }
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId) { wait_flag_dev(flagId); }

// ---- intra-core pipe sync
enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};
namespace shim_detail {
// (source pipe, destination pipe) of each HardEvent, in enum order.
constexpr pipe_t kEventPipes[][2] = {
    {PIPE_MTE2, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE2}, {PIPE_MTE1, PIPE_M}, {PIPE_M, PIPE_MTE1},
    {PIPE_MTE2, PIPE_V}, {PIPE_V, PIPE_MTE2}, {PIPE_MTE3, PIPE_V}, {PIPE_V, PIPE_MTE3},
    {PIPE_M, PIPE_V}, {PIPE_V, PIPE_M}, {PIPE_V, PIPE_V}, {PIPE_MTE3, PIPE_MTE1},
    {PIPE_MTE1, PIPE_MTE3}, {PIPE_MTE1, PIPE_V}, {PIPE_MTE2, PIPE_M}, {PIPE_M, PIPE_MTE2},
    {PIPE_V, PIPE_MTE1}, {PIPE_M, PIPE_FIX}, {PIPE_FIX, PIPE_M}, {PIPE_MTE3, PIPE_MTE2},
    {PIPE_MTE2, PIPE_MTE3}, {PIPE_S, PIPE_V}, {PIPE_V, PIPE_S}, {PIPE_S, PIPE_MTE2},
    {PIPE_MTE2, PIPE_S}, {PIPE_S, PIPE_MTE3}, {PIPE_MTE3, PIPE_S}, {PIPE_MTE2, PIPE_FIX},
    {PIPE_FIX, PIPE_MTE2}, {PIPE_FIX, PIPE_S}, {PIPE_M, PIPE_S}, {PIPE_FIX, PIPE_MTE3},
    {PIPE_MTE1, PIPE_FIX}, {PIPE_FIX, PIPE_MTE1}, {PIPE_FIX, PIPE_FIX},
};
static_assert(sizeof(kEventPipes) / sizeof(kEventPipes[0]) == size_t(HardEvent::MAX), "HardEvent table");
}  // namespace shim_detail
template <HardEvent evt>
inline void SetFlag(int32_t eventID) {
    static_assert(evt != HardEvent::MAX, "HardEvent::MAX");
    sk_shim::LocalSet(shim_detail::kEventPipes[int(evt)][0], shim_detail::kEventPipes[int(evt)][1], eventID);
}
template <HardEvent evt>
inline void WaitFlag(int32_t eventID) {
    static_assert(evt != HardEvent::MAX, "HardEvent::MAX");
    sk_shim::LocalWait(shim_detail::kEventPipes[int(evt)][0], shim_detail::kEventPipes[int(evt)][1], eventID);
}
template <pipe_t pipe>
inline void PipeBarrier() {}

// ---- feed-sync-all state (assigned by the entry around sub-kernels that call SyncAll)
inline thread_local bool g_superKernelAutoSyncAllEnable = false;
inline thread_local int64_t g_superKernelAutoSyncAllSyncIdx = 0;
inline thread_local GM_ADDR g_superKernelAutoSyncAllConfigGmAddr = nullptr;
inline thread_local GM_ADDR g_superKernelAutoSyncAllConfigGmBaseAddr = nullptr;

// ---- hard SyncAll: exactly the primitive sequence Ascend C documents for it.
// <true>  (AIV only): PipeBarrier<ALL>; AIV sets mode-0 flag 14 on MTE3, waits 14; AIC returns.
// <false> (mix):      AIV sets mode-2 flag 12 on MTE3, waits 13;
//                     AIC waits 12, sets mode-0 flag 11 on FIX, waits 11, sets mode-2 flag 13 on FIX.
template <bool isAIVOnly = true>
inline void SyncAll() {
    if constexpr (isAIVOnly) {
        if ASCEND_IS_AIC { return; }
        if (g_superKernelAutoSyncAllEnable) sk_shim::FeedSyncNote(0);
        PipeBarrier<PIPE_ALL>();
        CrossCoreSetFlag<0x0, PIPE_MTE3>(SYNC_AIV_ONLY_ALL);
        CrossCoreWaitFlag(SYNC_AIV_ONLY_ALL);
    } else {
        if (g_superKernelAutoSyncAllEnable) sk_shim::FeedSyncNote(1);
        if ASCEND_IS_AIV {
            CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_FLAG);
            CrossCoreWaitFlag(SYNC_AIC_AIV_FLAG);
        } else {
            CrossCoreWaitFlag(SYNC_AIV_FLAG);
            CrossCoreSetFlag<0x0, PIPE_FIX>(SYNC_AIC_FLAG);
            CrossCoreWaitFlag(SYNC_AIC_FLAG);
            CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
        }
    }
}

// Feed-sync-all: End marks the op's round count final; Complement (idle cores) joins as many
// SyncAll rounds, of the same kind, as the active cores performed.  See sk_shim_impl.h.
inline void SuperKernelAutoSyncAllEndImpl() { sk_shim::FeedSyncEnd(); }
inline void SuperKernelAutoSyncAllComplementImpl() { sk_shim::FeedSyncComplement(); }

// ---- early start (recipes documented at sk_shim::EarlyWait in sk_shim_sync.h)
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart() { sk_shim::EarlySet(AIV_PIPE, AIC_PIPE); }
template <int8_t cfg>
inline void WaitPreTaskEndImpl() {
    sk_shim::EarlyWait(cfg < 0 ? int(g_super_kernel_early_start_config) : int(cfg));
}
template <bool FORCE = false>
inline void WaitPreTaskEnd() { sk_shim::EarlyWait(int(g_super_kernel_early_start_config)); }

// ---- instruction-cache preload of the running code (n x 2 KiB)
inline void PreLoad(const int64_t preFetchLen) { (void)preFetchLen; }

// ---- abort the launch (the shim reports ABORT and unwinds every core)
[[noreturn]] inline void Trap() { sk_shim::Trap(); }

// ---- vector duplicate of a scalar into UB (the count form)
template <typename T>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, const int32_t& calCount) {
    if (calCount <= 0) return;
    T* d = static_cast<T*>(sk_shim::UbPtr(dstLocal, size_t(calCount) * sizeof(T)));
    for (int32_t i = 0; i < calCount; ++i) d[i] = scalarValue;
}

}  // namespace AscendC

// ============================================================================================
// 5. sk::SkSystemArgs: a sub-kernel's logical block index and count (the vendor's sys_var header)
// ============================================================================================
// The layout and accessors the CANN header declares, nothing more: three uint16_t fields, then
// ten reserved bytes (16 in all).
namespace sk {
struct SkSystemArgs {
    uint16_t skBlockIdx;     // the sub-kernel's logical block index
    uint16_t skNumBlocks;    // its block count (on the AIVs of a 1:2 mix kernel, twice its blocks)
    uint16_t skTaskSyncCfg;  // the early-start sync type
    uint8_t reserve[10];
    inline __aicore__ uint16_t SkGetBlockIdx() { return skBlockIdx; }
    inline __aicore__ uint16_t SkGetNumBlocks() { return skNumBlocks; }
    inline __aicore__ uint16_t SkGetTaskSyncCfg() { return skTaskSyncCfg; }
};
static_assert(sizeof(SkSystemArgs) == 16, "sk::SkSystemArgs is 16 bytes");
}  // namespace sk

#endif  // SKIR_HOSTSIM_KERNEL_OPERATOR_H
