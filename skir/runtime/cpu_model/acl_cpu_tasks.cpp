// The model side of skir's CPU model of the ACL runtime: a captured model's streams and tasks,
// read and set (staged), disabled (staged), committed by aclmdlRIUpdate, executed, destroyed; and
// the `skcpu_` functions of the model itself (faults, the committed and captured state, leaks).
#include <cstring>

#include "acl_cpu_state.h"

using namespace skcpu;

namespace {

// The copy `out` may hold of a list of `count` handles (in: the array's size, out: the count).
aclError list(const char *call, const std::vector<void *> &items, void **out, uint32_t *num) {
    if (num == nullptr || out == nullptr) return fail(ACL_ERROR_INVALID_PARAM, std::string(call) + ": null output");
    if (*num < items.size()) {
        *num = static_cast<uint32_t>(items.size());
        return fail(ACL_ERROR_INVALID_PARAM, std::string(call) + ": the array holds fewer entries than there are");
    }
    std::copy(items.begin(), items.end(), out);
    *num = static_cast<uint32_t>(items.size());
    return ACL_SUCCESS;
}

Task *ended_task(aclmdlRITask task, const char *call) {
    Task *t = task_of(task);
    if (t == nullptr) fail(ACL_ERROR_INVALID_PARAM, std::string(call) + ": unknown task");
    else if (!t->stream->model->ended) fail(ACL_ERROR_INVALID_PARAM, std::string(call) + ": the capture has not ended");
    else return t;
    return nullptr;
}

}  // namespace

extern "C" {

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams) {
    ENTER("aclmdlRIGetStreams");
    Model *m = model_of(modelRI);
    if (m == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIGetStreams: unknown model");
    return list("aclmdlRIGetStreams", std::vector<void *>(m->streams.begin(), m->streams.end()), streams, numStreams);
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks) {
    ENTER("aclmdlRIGetTasksByStream");
    Stream *s = static_cast<Stream *>(stream);
    bool known = false;
    for (Model *m : registry().models)
        for (Stream *each : m->streams) known = known || (each == s && !m->destroyed);
    if (!known) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIGetTasksByStream: no model holds the stream");
    return list("aclmdlRIGetTasksByStream", std::vector<void *>(s->tasks.begin(), s->tasks.end()), tasks, numTasks);
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type) {
    ENTER("aclmdlRITaskGetType");
    Task *t = task_of(task);
    if (t == nullptr || type == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskGetType: unknown task");
    *type = t->params.type;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id) {
    ENTER("aclmdlRITaskGetSeqId");
    Task *t = task_of(task);
    if (t == nullptr || id == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskGetSeqId: unknown task");
    *id = t->seq;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
    ENTER("aclmdlRITaskGetParams");
    if (params == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskGetParams: params is null");
    Task *t = ended_task(task, "aclmdlRITaskGetParams");
    if (t == nullptr) return ACL_ERROR_INVALID_PARAM;
    *params = t->params;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
    ENTER("aclmdlRITaskSetParams");
    Task *t = ended_task(task, "aclmdlRITaskSetParams");
    if (t == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (params == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: params is null");
    if (t->disabled) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: a disabled task cannot be set");
    if (t->captured.type == ACL_MODEL_RI_TASK_DEFAULT)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: a default task's parameters are the runtime's");
    if (params->taskGrp != t->group)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: taskGrp must stay the task's own group");
    aclmdlRITaskParams before = t->params;
    auto host_before = t->host_args;
    auto config_before = t->config;
    t->params.type = params->type;
    t->params.opInfoPtr = params->opInfoPtr;
    t->params.opInfoSize = params->opInfoSize;
    aclError code = ACL_SUCCESS;
    switch (params->type) {
    case ACL_MODEL_RI_TASK_KERNEL:
        code = set_kernel(t, params->kernelTaskParams);
        break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
        if (!device_range(params->valueWriteTaskParams.devAddr, 8))
            code = fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: value write devAddr is not device memory");
        else
            t->params.valueWriteTaskParams = params->valueWriteTaskParams;
        break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
        if (!device_range(params->valueWaitTaskParams.devAddr, 8) || params->valueWaitTaskParams.flag > 3)
            code = fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: value wait devAddr or flag is bad");
        else
            t->params.valueWaitTaskParams = params->valueWaitTaskParams;
        break;
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
    case ACL_MODEL_RI_TASK_EVENT_RESET:
        if (!registry().events.count(static_cast<Event *>(params->eventRecordTaskParams.event)))
            code = fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: the event is no created event");
        else
            std::memcpy(&t->params.kernelTaskParams, &params->kernelTaskParams, sizeof params->kernelTaskParams);
        break;
    default:
        code = fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskSetParams: a task cannot become a default task");
    }
    if (code != ACL_SUCCESS) {  // a refused call changes nothing
        t->params = before;
        t->host_args = host_before;
        t->config = config_before;
        if (t->params.type == ACL_MODEL_RI_TASK_KERNEL && !t->host_args.empty())
            t->params.kernelTaskParams.args = t->host_args.data();
        return code;
    }
    t->dirty = true;
    return ACL_SUCCESS;
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
    ENTER("aclmdlRITaskDisable");
    Task *t = ended_task(task, "aclmdlRITaskDisable");
    if (t == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (t->disabled) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRITaskDisable: the task is disabled already");
    t->disabled = t->dirty = true;
    return ACL_SUCCESS;
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
    ENTER("aclmdlRIUpdate");
    Model *m = model_of(modelRI);
    if (m == nullptr || !m->ended) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIUpdate: no ended capture");
    for (auto &t : m->tasks) {
        if (!t->dirty) continue;
        t->committed = t->params;
        t->committed_host_args = t->host_args;
        t->committed_config = t->config;
        if (t->committed.type == ACL_MODEL_RI_TASK_KERNEL && !t->committed_host_args.empty())
            t->committed.kernelTaskParams.args = t->committed_host_args.data();
        if (t->committed.type == ACL_MODEL_RI_TASK_KERNEL && t->committed_config)
            t->committed.kernelTaskParams.cfg = &t->committed_config->cfg;
        t->committed_disabled = t->disabled;
        t->dirty = false;
    }
    ++m->updates;
    return ACL_SUCCESS;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    ENTER("aclmdlRIExecuteAsync");
    Model *m = model_of(modelRI);
    if (m == nullptr || !m->ended || !registry().streams.count(static_cast<Stream *>(stream)))
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIExecuteAsync: no ended capture, or unknown stream");
    for (auto &t : m->tasks) {
        if (t->dirty) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIExecuteAsync: staged changes: call aclmdlRIUpdate");
        if (t->committed_disabled || t->committed.type != ACL_MODEL_RI_TASK_KERNEL) continue;
        Function *fn = function_of(t->committed.kernelTaskParams.funcHandle);
        if (fn == nullptr || !fn->binary->loaded)
            return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIExecuteAsync: a kernel task's binary was unloaded");
    }
    ++m->executions;
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    ENTER("aclmdlRIDestroy");
    Model *m = model_of(modelRI);
    if (m == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIDestroy: unknown model");
    for (auto &t : m->tasks) {
        if (t->owned_args) device_free(t->owned_args);
        registry().tasks.erase(t.get());
    }
    for (Stream *s : m->streams) {
        s->model = nullptr;
        s->capturing = false;
        s->tasks.clear();
    }
    m->destroyed = true;
    return ACL_SUCCESS;
}

// ---- the model itself (tests and sk-apply) ---------------------------------------------------

int skcpu_fail_call(const char *name, uint32_t nth) {  // fail call number `nth` of `name` (0: none)
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    registry().calls[name] = 0;
    if (nth == 0) registry().faults.erase(name);
    else registry().faults[name] = nth;
    return 0;
}

uint32_t skcpu_call_count(const char *name) {
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    auto it = registry().calls.find(name);
    return it == registry().calls.end() ? 0 : it->second;
}

const char *skcpu_last_error(void) { return registry().last_error.c_str(); }

// `which` 0: staged (what the next update commits), 1: committed (what runs), 2: as captured.
int skcpu_task_state(aclmdlRITask task, int which, aclmdlRITaskParams *params, int *disabled) {
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    Task *t = task_of(task);
    if (t == nullptr || params == nullptr || disabled == nullptr || which < 0 || which > 2) return -1;
    *params = which == 0 ? t->params : which == 1 ? t->committed : t->captured;
    *disabled = which == 0 ? t->disabled : which == 1 ? t->committed_disabled : 0;
    return 0;
}

uint32_t skcpu_model_updates(aclmdlRI modelRI) {
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    Model *m = model_of(modelRI);
    return m == nullptr ? 0 : m->updates;
}

int skcpu_is_device(const void *ptr, size_t bytes) {
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    return device_range(ptr, bytes) ? 1 : 0;
}

size_t skcpu_outstanding(void) {  // device allocations of the caller not freed
    std::lock_guard<std::recursive_mutex> guard(registry().lock);
    return registry().device.size() - registry().runtime_owned.size();
}

}  // extern "C"
