// skir's CPU model of the ACL runtime calls a rewrite plan needs (docs/device.md).
//
// Compiled against the real `acl/acl_rt.h` (from the torch-npu wheel), so every function has the
// declared signature; loaded by skir.runtime.acl in place of libascendcl.so. It keeps model runtime
// instances in memory and enforces the contracts the headers document: parameters are read and set
// only after a capture ended; a disabled task cannot be set; a kernel task needs a function handle
// from a loaded binary and arguments that lie in memory it can read; SetParams and TaskDisable are
// staged and aclmdlRIUpdate commits them; a model with staged changes does not execute. Extra
// functions prefixed `skcpu_` (acl_cpu_probe.cpp) let tests fail the Nth call of any function and
// read a model back. Errors are the header's codes; skcpu_last_error says why.
#include "acl_cpu_state.h"

#include <elf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace skcpu {

Registry &registry() {
    static Registry *r = new Registry();  // never destroyed: handles may outlive static teardown
    return *r;
}

aclError fail(aclError code, const std::string &why) {
    registry().last_error = why;
    return code;
}

// Counts the call and fails it when a fault is planted for this call number.
bool injected(const char *name) {
    Registry &r = registry();
    uint32_t n = ++r.calls[name];
    auto it = r.faults.find(name);
    if (it != r.faults.end() && it->second == n) {
        r.last_error = std::string("injected fault: call ") + std::to_string(n) + " of " + name;
        return true;
    }
    return false;
}

bool device_range(const void *ptr, size_t bytes) {
    auto &dev = registry().device;
    uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    auto it = dev.upper_bound(p);
    if (it == dev.begin()) return false;
    --it;
    return p >= it->first && p + bytes <= it->first + it->second && bytes <= it->second;
}

void *device_alloc(size_t bytes, bool runtime) {
    void *p = std::aligned_alloc(512, (bytes + 511) / 512 * 512);
    if (p == nullptr) return nullptr;
    std::memset(p, 0, bytes);
    registry().device[reinterpret_cast<uintptr_t>(p)] = bytes;
    if (runtime) registry().runtime_owned.insert(reinterpret_cast<uintptr_t>(p));
    return p;
}

void device_free(void *p) {
    registry().device.erase(reinterpret_cast<uintptr_t>(p));
    registry().runtime_owned.erase(reinterpret_cast<uintptr_t>(p));
    std::free(p);
}

// The defined function symbols of a 64-bit ELF object, or false when the bytes are not one.
static bool elf_functions(const std::vector<char> &bytes, std::set<std::string> &out) {
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64)
        return false;
    Elf64_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > bytes.size())
        return false;
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    std::memcpy(sh.data(), bytes.data() + eh.e_shoff, eh.e_shnum * sizeof(Elf64_Shdr));
    for (const Elf64_Shdr &s : sh) {
        if (s.sh_type != SHT_SYMTAB || s.sh_link >= sh.size()) continue;
        const Elf64_Shdr &str = sh[s.sh_link];
        if (s.sh_offset + s.sh_size > bytes.size() || str.sh_offset + str.sh_size > bytes.size()) return false;
        for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
            Elf64_Sym sym;
            std::memcpy(&sym, bytes.data() + s.sh_offset + off, sizeof sym);
            if (sym.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_name >= str.sh_size)
                continue;
            const char *name = bytes.data() + str.sh_offset + sym.st_name;
            out.insert(std::string(name, strnlen(name, str.sh_size - sym.st_name)));
        }
    }
    return true;
}

Model *model_of(aclmdlRI ri) {
    Model *m = static_cast<Model *>(ri);
    return registry().models.count(m) && !m->destroyed ? m : nullptr;
}

Task *task_of(aclmdlRITask t) {
    Task *task = static_cast<Task *>(t);
    return registry().tasks.count(task) && !task->stream->model->destroyed ? task : nullptr;
}

Function *function_of(aclrtFuncHandle f) {
    Function *fn = static_cast<Function *>(f);
    return registry().functions.count(fn) ? fn : nullptr;
}

Task *append(Stream *s, aclmdlRITaskType type) {
    Model *m = s->model;
    auto task = std::make_unique<Task>();
    task->stream = s;
    task->seq = m->next_seq++;
    task->group = s->open_group;
    task->params.type = type;
    task->params.taskGrp = s->open_group;
    Task *raw = task.get();
    m->tasks.push_back(std::move(task));
    s->tasks.push_back(raw);
    registry().tasks.insert(raw);
    return raw;
}

// A kernel task's parameters, checked and made the task's own (host args copied, cfg copied).
aclError set_kernel(Task *t, const aclmdlRIKernelTaskParams &k) {
    Function *fn = function_of(k.funcHandle);
    if (fn == nullptr || !fn->binary->loaded)
        return fail(ACL_ERROR_INVALID_PARAM, "kernel params: funcHandle is no function of a loaded binary");
    if (k.numBlocks == 0 || k.numBlocks > 65535)
        return fail(ACL_ERROR_INVALID_PARAM, "kernel params: numBlocks must be in 1..65535");
    if (k.argsSize > 0 && k.args == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "kernel params: args is null but argsSize is not 0");
    if (k.isHostArgs > 1) return fail(ACL_ERROR_INVALID_PARAM, "kernel params: isHostArgs must be 0 or 1");
    if (k.isHostArgs == 0 && k.argsSize > 0 && !device_range(k.args, k.argsSize))
        return fail(ACL_ERROR_INVALID_PARAM, "kernel params: device args do not lie in one device allocation");
    if (k.cfg != nullptr && (k.cfg->numAttrs > 16 || (k.cfg->numAttrs > 0 && k.cfg->attrs == nullptr)))
        return fail(ACL_ERROR_INVALID_PARAM, "kernel params: cfg holds a bad attribute list");
    aclmdlRIKernelTaskParams copy = k;
    if (k.isHostArgs == 1) {
        const uint8_t *src = static_cast<const uint8_t *>(k.args);
        t->host_args.assign(src, src + k.argsSize);
        copy.args = t->host_args.data();
    } else {
        t->host_args.clear();
    }
    if (k.cfg != nullptr) {
        auto config = std::make_shared<Config>();
        config->attrs.assign(k.cfg->attrs, k.cfg->attrs + k.cfg->numAttrs);
        config->cfg = aclrtLaunchKernelCfg{config->attrs.data(), config->attrs.size()};
        t->config = config;
        copy.cfg = &config->cfg;
    } else {
        t->config.reset();
    }
    t->params.kernelTaskParams = copy;
    return ACL_SUCCESS;
}

}  // namespace skcpu

using namespace skcpu;

extern "C" {

// ---- streams, events, memory -------------------------------------------------------------------

aclError aclrtCreateStream(aclrtStream *stream) {
    ENTER("aclrtCreateStream");
    if (stream == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    Stream *s = new Stream();
    registry().streams.insert(s);
    *stream = s;
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    ENTER("aclrtDestroyStream");
    Stream *s = static_cast<Stream *>(stream);
    if (!registry().streams.count(s)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: unknown stream");
    if (s->capturing) return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: the stream is capturing");
    registry().streams.erase(s);  // its model keeps the Stream record until the model is destroyed
    return ACL_SUCCESS;
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
    ENTER("aclrtCreateEventWithFlag");
    if (event == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag: event is null");
    Event *e = new Event();
    e->flag = flag;
    registry().events.insert(e);
    *event = e;
    return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    ENTER("aclrtDestroyEvent");
    Event *e = static_cast<Event *>(event);
    if (!registry().events.erase(e)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: unknown event");
    return ACL_SUCCESS;  // the record stays: a model's task may still name the handle
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    ENTER("aclrtMalloc");
    (void)policy;
    if (devPtr == nullptr || size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: null pointer or size 0");
    *devPtr = device_alloc(size, false);
    return *devPtr ? ACL_SUCCESS : fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory");
}

aclError aclrtFree(void *devPtr) {
    ENTER("aclrtFree");
    uintptr_t p = reinterpret_cast<uintptr_t>(devPtr);
    if (!registry().device.count(p) || registry().runtime_owned.count(p))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: not the start of a device allocation of the caller");
    device_free(devPtr);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    ENTER("aclrtMemset");
    if (count > maxCount || !device_range(devPtr, count))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount or the device allocation");
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    ENTER("aclrtMemcpy");
    if (dst == nullptr || src == nullptr || count > destMax)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer or count above destMax");
    bool to_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    bool from_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: the model copies to, from or within device memory only");
    if (to_dev != device_range(dst, count) || from_dev != device_range(src, count))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: a pointer is not of the side the kind names");
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

aclError aclrtGetHardwareSyncAddr(void **addr) {
    ENTER("aclrtGetHardwareSyncAddr");
    static void *sync_area = nullptr;  // the FFTS / C2C control area: one per device, the runtime's
    if (addr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetHardwareSyncAddr: addr is null");
    if (sync_area == nullptr || !device_range(sync_area, 64)) sync_area = device_alloc(64, true);
    *addr = sync_area;
    return ACL_SUCCESS;
}

// ---- binaries ------------------------------------------------------------------------------------

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
    ENTER("aclrtBinaryLoadFromFile");
    if (binPath == nullptr || binHandle == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtBinaryLoadFromFile: null path or handle");
    if (options != nullptr && options->numOpt > 0 && options->options == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtBinaryLoadFromFile: options list is null");
    std::ifstream in(binPath, std::ios::binary);
    if (!in) return fail(ACL_ERROR_INVALID_FILE, std::string("aclrtBinaryLoadFromFile: cannot read ") + binPath);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto *b = new Binary();
    b->path = binPath;
    if (!elf_functions(bytes, b->symbols)) {
        delete b;
        return fail(ACL_ERROR_INVALID_FILE, std::string("aclrtBinaryLoadFromFile: not an ELF object: ") + binPath);
    }
    registry().binaries.insert(b);
    *binHandle = b;
    return ACL_SUCCESS;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
    ENTER("aclrtBinaryUnLoad");
    Binary *b = static_cast<Binary *>(binHandle);
    if (!registry().binaries.count(b) || !b->loaded)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtBinaryUnLoad: not a loaded binary");
    b->loaded = false;
    return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle) {
    ENTER("aclrtBinaryGetFunction");
    Binary *b = static_cast<Binary *>(binHandle);
    if (!registry().binaries.count(b) || !b->loaded || kernelName == nullptr || funcHandle == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunction: bad binary, name or handle");
    if (!b->symbols.count(kernelName))
        return fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtBinaryGetFunction: ") + b->path + " defines no "
                                                 "function " + kernelName);
    for (Function *f : registry().functions)
        if (f->binary == b && f->name == kernelName) return *funcHandle = f, ACL_SUCCESS;
    auto *f = new Function{b, kernelName};
    registry().functions.insert(f);
    *funcHandle = f;
    return ACL_SUCCESS;
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name) {
    ENTER("aclrtGetFunctionName");
    Function *f = function_of(funcHandle);
    if (f == nullptr || name == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetFunctionName: bad handle");
    if (f->name.size() + 1 > maxLen) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetFunctionName: maxLen too small");
    std::memcpy(name, f->name.c_str(), f->name.size() + 1);
    return ACL_SUCCESS;
}

}  // extern "C"
