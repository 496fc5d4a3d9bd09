// The state of skir's CPU model of the ACL runtime (see acl_cpu_model.cpp): streams, events,
// device memory, binaries, model runtime instances and their tasks, and the fault injector.
// Everything lives in one process-wide registry behind one mutex, as the runtime's own handles do.
#ifndef SKIR_ACL_CPU_STATE_H
#define SKIR_ACL_CPU_STATE_H

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt.h"

namespace skcpu {

struct Model;
struct Stream;

struct Binary {
    std::string path;
    std::set<std::string> symbols;  // the defined function symbols of the ELF object
    bool loaded = true;
};

struct Function {
    Binary *binary;
    std::string name;
};

struct Event {
    uint32_t flag = 0;
};

// A kernel task's launch attributes (aclrtLaunchKernelCfg copied, not referenced).
struct Config {
    std::vector<aclrtLaunchKernelAttr> attrs;
    aclrtLaunchKernelCfg cfg{nullptr, 0};
};

// One slot of a stream. `params` is what the next aclmdlRIUpdate commits (staged), `committed`
// what runs; `captured` what the capture made. Host args given to SetParams are copied into
// `host_args`, captured args into device memory the runtime owns (`owned_args`).
struct Task {
    Stream *stream = nullptr;
    uint32_t seq = 0;
    aclrtTaskGrp group = nullptr;
    aclmdlRITaskParams params{};
    aclmdlRITaskParams committed{};
    aclmdlRITaskParams captured{};
    bool disabled = false;            // staged
    bool committed_disabled = false;
    bool dirty = false;
    std::vector<uint8_t> host_args;   // a copy of host args given to SetParams
    std::vector<uint8_t> committed_host_args;
    void *owned_args = nullptr;       // device args the capture copied (runtime memory)
    std::shared_ptr<Config> config, committed_config;
};

struct Stream {
    Model *model = nullptr;           // the model the stream captures into or is bound to
    bool capturing = false;           // inside aclmdlRICaptureBegin .. End (or bound by aclmdlRIBindStream)
    bool origin = false;              // the stream aclmdlRICaptureBegin was called on
    aclrtTaskGrp open_group = nullptr;          // inside aclmdlRICaptureTaskGrpBegin .. End
    std::vector<Task *> updating;     // inside aclmdlRICaptureTaskUpdateBegin: the group's tasks left
    bool in_update = false;
    std::vector<Task *> tasks;        // the model's tasks of this stream, in capture order
};

struct Model {
    Model *parent = nullptr;          // the model whose condition task runs this one (a sub-model)
    std::vector<Stream *> streams;    // in the order they joined (aclmdlRIGetStreams order)
    std::vector<std::unique_ptr<Task>> tasks;
    std::set<aclrtTaskGrp> groups;
    uint32_t next_seq = 0;
    bool ended = false;               // capture ended / build ended: parameters may be read and set
    bool destroyed = false;
    uint32_t updates = 0;             // successful aclmdlRIUpdate calls
    uint32_t executions = 0;
};

struct Cond {                         // a condition handle: the value a condition task branches on
    Model *model;
    uint32_t default_value;
    uint64_t *value;
};

struct Registry {
    std::recursive_mutex lock;
    std::set<Stream *> streams;
    std::set<Event *> events;
    std::map<uintptr_t, size_t> device;        // device allocations: start -> bytes
    std::set<uintptr_t> runtime_owned;         // of them, the runtime's own (captured args)
    std::set<Binary *> binaries;
    std::set<Function *> functions;
    std::set<Model *> models;
    std::set<Cond *> conds;
    std::set<Task *> tasks;
    std::set<aclrtTaskGrp> groups;
    uintptr_t next_group = 0xaaaae8000000u;
    std::map<std::string, uint32_t> calls;     // call name -> calls so far
    std::map<std::string, uint32_t> faults;    // call name -> the call number to fail
    std::string last_error;
};

Registry &registry();

// Helpers of acl_cpu_model.cpp, shared by the other units.
aclError fail(aclError code, const std::string &why);
bool injected(const char *name);
bool device_range(const void *ptr, size_t bytes);
void *device_alloc(size_t bytes, bool runtime);
void device_free(void *p);
Model *model_of(aclmdlRI ri);
Task *task_of(aclmdlRITask t);
Function *function_of(aclrtFuncHandle f);
Task *append(Stream *s, aclmdlRITaskType type);
aclError set_kernel(Task *t, const aclmdlRIKernelTaskParams &k);

}  // namespace skcpu

// Every ACL function starts here: one lock, the call counted, a planted fault returned.
#define ENTER(name)                                                        \
    std::lock_guard<std::recursive_mutex> guard(skcpu::registry().lock);  \
    if (skcpu::injected(name)) return ACL_ERROR_FAILURE

#endif
