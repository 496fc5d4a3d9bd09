// The capture side of skir's CPU model of the ACL runtime: a stream captured (aclmdlRICaptureBegin,
// other streams joining through an event recorded in the capture) or bound (aclmdlRIBuildBegin /
// aclmdlRIBindStream) turns kernel launches, event, value and copy calls into tasks of the model,
// numbered in capture order; task groups are captured and re-captured (updated) in place.
#include <cstring>

#include "acl_cpu_state.h"

using namespace skcpu;

namespace {

std::map<Event *, Model *> &recorded_in() {  // an event recorded by a capturing stream -> its model
    static auto *m = new std::map<Event *, Model *>();
    return *m;
}

Stream *stream_of(aclrtStream stream) {
    Stream *s = static_cast<Stream *>(stream);
    return registry().streams.count(s) ? s : nullptr;
}

bool capturing(Stream *s) { return s != nullptr && s->capturing && s->model != nullptr && !s->model->ended; }

void join(Stream *s, Model *m) {
    s->model = m;
    s->capturing = true;
    m->streams.push_back(s);
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    ENTER("aclmdlRICaptureBegin");
    Stream *s = stream_of(stream);
    if (s == nullptr || s->capturing || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureBegin: unknown or already capturing stream, or bad mode");
    auto *m = new Model();
    registry().models.insert(m);
    join(s, m);
    s->origin = true;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI) {
    ENTER("aclmdlRICaptureGetInfo");
    Stream *s = stream_of(stream);
    if (s == nullptr || status == nullptr || modelRI == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureGetInfo: bad stream or output");
    *status = capturing(s) ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    *modelRI = capturing(s) ? s->model : nullptr;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
    ENTER("aclmdlRICaptureEnd");
    Stream *s = stream_of(stream);
    if (!capturing(s) || !s->origin || modelRI == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: the stream did not begin this capture");
    for (Stream *each : s->model->streams)
        if (each->open_group != nullptr)
            return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: a task group is still open");
    Model *m = s->model;
    for (Stream *each : m->streams) each->capturing = false;
    s->origin = false;
    for (auto &t : m->tasks) t->captured = t->committed = t->params;
    m->ended = true;
    *modelRI = m;
    return ACL_SUCCESS;
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle *handle) {
    ENTER("aclmdlRICondHandleCreate");
    Model *m = model_of(modelRI);
    if (m == nullptr || m->ended || handle == nullptr || (flag != 0 && flag != ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT))
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICondHandleCreate: a model being captured and a handle needed");
    auto *cond = new Cond{m, defaultLaunchValue, static_cast<uint64_t *>(device_alloc(8, true))};
    *cond->value = defaultLaunchValue;
    registry().conds.insert(cond);
    *handle = cond;
    return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr) {
    ENTER("aclmdlRICondHandleGetCondPtr");
    Cond *cond = static_cast<Cond *>(handle);
    if (!registry().conds.count(cond) || ptr == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICondHandleGetCondPtr: unknown handle");
    *ptr = cond->value;
    return ACL_SUCCESS;
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
    ENTER("aclmdlRIAddCondTask");
    Stream *s = stream_of(stream);
    Cond *cond = static_cast<Cond *>(params.handle);
    if (!capturing(s) || flags != 0)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIAddCondTask: the stream must be capturing; flags must be 0");
    if (!registry().conds.count(cond) || cond->model != s->model)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIAddCondTask: the condition handle is not of this model");
    bool sized = (params.type == ACL_MODEL_RI_COND_TYPE_IF && (params.size == 1 || params.size == 2)) ||
                 (params.type == ACL_MODEL_RI_COND_TYPE_WHILE && params.size == 1) ||
                 (params.type == ACL_MODEL_RI_COND_TYPE_SWITCH && params.size > 0);
    if (!sized || params.modelRIArray == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIAddCondTask: size must be 1-2 (if), 1 (while), >0 (switch)");
    append(s, ACL_MODEL_RI_TASK_DEFAULT);  // the condition task: the runtime's own kind
    for (uint32_t i = 0; i < params.size; ++i) {
        auto *sub = new Model();
        sub->parent = s->model;
        registry().models.insert(sub);
        params.modelRIArray[i] = sub;  // captured later: aclmdlRICaptureToModelRIBegin (or bound streams)
    }
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
    ENTER("aclmdlRICaptureToModelRIBegin");
    Stream *s = stream_of(stream);
    Model *m = model_of(modelRI);
    if (s == nullptr || s->capturing || m == nullptr || m->ended || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureToModelRIBegin: a free stream and a model not ended");
    join(s, m);
    s->origin = true;
    return ACL_SUCCESS;
}

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag) {
    ENTER("aclmdlRIBuildBegin");
    if (modelRI == nullptr || flag != 0) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIBuildBegin: flag must be 0");
    auto *m = new Model();
    registry().models.insert(m);
    *modelRI = m;
    return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
    ENTER("aclmdlRIBindStream");
    (void)flag;
    Model *m = model_of(modelRI);
    Stream *s = stream_of(stream);
    if (m == nullptr || m->ended || s == nullptr || s->capturing)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIBindStream: a model being built and a free stream needed");
    join(s, m);
    return ACL_SUCCESS;
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve) {
    ENTER("aclmdlRIBuildEnd");
    Model *m = model_of(modelRI);
    if (m == nullptr || m->ended || reserve != nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIBuildEnd: not a model being built, or reserve not null");
    for (Stream *s : m->streams) {
        if (s->open_group != nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIBuildEnd: a task group is open");
        s->capturing = false;
    }
    for (auto &t : m->tasks) t->captured = t->committed = t->params;
    m->ended = true;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    ENTER("aclmdlRICaptureTaskGrpBegin");
    Stream *s = stream_of(stream);
    if (!capturing(s) || s->open_group != nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskGrpBegin: not capturing, or a group is open");
    s->open_group = reinterpret_cast<aclrtTaskGrp>(registry().next_group += 0x40);
    registry().groups.insert(s->open_group);
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
    ENTER("aclmdlRICaptureTaskGrpEnd");
    Stream *s = stream_of(stream);
    if (!capturing(s) || s->open_group == nullptr || handle == nullptr)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskGrpEnd: no group open on this stream");
    s->model->groups.insert(s->open_group);
    *handle = s->open_group;
    s->open_group = nullptr;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    ENTER("aclmdlRICaptureTaskUpdateBegin");
    Stream *s = stream_of(stream);
    if (s == nullptr || s->capturing || s->in_update)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskUpdateBegin: the stream is busy capturing");
    Model *owner = nullptr;
    for (Model *m : registry().models)
        if (!m->destroyed && m->groups.count(handle)) owner = m;
    if (owner == nullptr || !owner->ended)
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskUpdateBegin: no ended model holds this task group");
    s->updating.clear();
    for (auto &t : owner->tasks)
        if (t->group == handle) s->updating.push_back(t.get());
    s->in_update = true;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    ENTER("aclmdlRICaptureTaskUpdateEnd");
    Stream *s = stream_of(stream);
    if (s == nullptr || !s->in_update) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskUpdateEnd: no update");
    s->in_update = false;
    if (!s->updating.empty()) {
        s->updating.clear();
        return fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureTaskUpdateEnd: the group's tasks were not all re-issued");
    }
    return ACL_SUCCESS;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream) {
    ENTER("aclrtLaunchKernel");
    Stream *s = stream_of(stream);
    if (s == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: unknown stream");
    if (argsSize > 0 && argsData == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: args is null");
    if (s->in_update) {  // re-capture of a task group: the next task of the group takes the new parameters
        if (s->updating.empty()) return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: the group has no task left");
        Task *t = s->updating.front();
        const aclmdlRIKernelTaskParams &old = t->captured.kernelTaskParams;
        if (t->captured.type != ACL_MODEL_RI_TASK_KERNEL || old.funcHandle != funcHandle || old.argsSize != argsSize)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: an update must re-issue the group's kernel with "
                                                 "its function and argument size");
        // the re-issued launch replaces what the task runs, whatever SetParams put there: its function
        // again, the new arguments in its device args, its block count
        if (argsSize > 0) std::memcpy(t->owned_args, argsData, argsSize);
        t->captured.kernelTaskParams.numBlocks = numBlocks;
        t->params = t->committed = t->captured;
        t->host_args.clear();
        t->committed_host_args.clear();
        t->config.reset();
        t->committed_config.reset();
        s->updating.erase(s->updating.begin());
        return ACL_SUCCESS;
    }
    if (!capturing(s)) return ACL_SUCCESS;  // run at once: the model keeps no task
    Function *fn = function_of(funcHandle);
    if (fn == nullptr || !fn->binary->loaded)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: funcHandle is no function of a loaded binary");
    if (numBlocks == 0 || numBlocks > 65535)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel: numBlocks must be in 1..65535");
    Task *t = append(s, ACL_MODEL_RI_TASK_KERNEL);
    if (argsSize > 0) {
        t->owned_args = device_alloc(argsSize, true);
        std::memcpy(t->owned_args, argsData, argsSize);
    }
    t->params.kernelTaskParams = aclmdlRIKernelTaskParams{funcHandle, nullptr, t->owned_args, 0, argsSize, numBlocks, {}};
    return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    ENTER("aclrtRecordEvent");
    Stream *s = stream_of(stream);
    Event *e = static_cast<Event *>(event);
    if (s == nullptr || !registry().events.count(e)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: bad handle");
    if (!capturing(s)) return ACL_SUCCESS;
    recorded_in()[e] = s->model;
    Task *t = append(s, ACL_MODEL_RI_TASK_EVENT_RECORD);
    t->params.eventRecordTaskParams = aclmdlRIEventRecordTaskParams{e, e->flag, ACL_EVENT_RECORD_DEFAULT};
    return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    ENTER("aclrtStreamWaitEvent");
    Stream *s = stream_of(stream);
    Event *e = static_cast<Event *>(event);
    if (s == nullptr || !registry().events.count(e)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamWaitEvent: bad handle");
    auto rec = recorded_in().find(e);
    if (!capturing(s) && !s->capturing && rec != recorded_in().end() && !rec->second->ended)
        join(s, rec->second);  // a stream waiting on an event of the capture joins it
    if (!capturing(s)) return ACL_SUCCESS;
    Task *t = append(s, ACL_MODEL_RI_TASK_EVENT_WAIT);
    t->params.eventWaitTaskParams = aclmdlRIEventWaitTaskParams{e, e->flag, ACL_EVENT_WAIT_DEFAULT};
    return ACL_SUCCESS;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    ENTER("aclrtResetEvent");
    Stream *s = stream_of(stream);
    Event *e = static_cast<Event *>(event);
    if (s == nullptr || !registry().events.count(e)) return fail(ACL_ERROR_INVALID_PARAM, "aclrtResetEvent: bad handle");
    if (!capturing(s)) return ACL_SUCCESS;
    Task *t = append(s, ACL_MODEL_RI_TASK_EVENT_RESET);
    t->params.eventResetTaskParams = aclmdlRIEventResetTaskParams{e, e->flag, 0};
    return ACL_SUCCESS;
}

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    ENTER("aclrtValueWrite");
    Stream *s = stream_of(stream);
    if (s == nullptr || flag != 0 || !device_range(devAddr, 8))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtValueWrite: bad stream, flag not 0, or devAddr not device memory");
    if (!capturing(s)) return ACL_SUCCESS;
    Task *t = append(s, ACL_MODEL_RI_TASK_VALUE_WRITE);
    t->params.valueWriteTaskParams = aclmdlRIValueWriteTaskParams{devAddr, value};
    return ACL_SUCCESS;
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
    ENTER("aclrtValueWait");
    Stream *s = stream_of(stream);
    if (s == nullptr || flag > 3 || !device_range(devAddr, 8))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtValueWait: bad stream, flag above 3, or devAddr not device memory");
    if (!capturing(s)) return ACL_SUCCESS;
    Task *t = append(s, ACL_MODEL_RI_TASK_VALUE_WAIT);
    t->params.valueWaitTaskParams = aclmdlRIValueWaitTaskParams{devAddr, value, flag};
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    ENTER("aclrtMemcpyAsync");
    Stream *s = stream_of(stream);
    if (s == nullptr || dst == nullptr || src == nullptr || count > destMax)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: bad stream, pointer or count");
    (void)kind;
    if (capturing(s)) append(s, ACL_MODEL_RI_TASK_DEFAULT);  // a copy task: the runtime's own kind
    return ACL_SUCCESS;
}

}  // extern "C"
