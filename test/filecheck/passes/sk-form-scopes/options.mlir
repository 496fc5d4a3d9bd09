// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="split-mode=70"}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="bogus=1"}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="split-mode=2:split_mode=3"}' 2>&1 | filecheck %s --check-prefix=DUP
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="preload-code="}' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="func-align=48"}' 2>&1 | filecheck %s --check-prefix=ALIGN
// RUN: sk-opt %s -p 'sk-form-scopes{options="stream-fusion=1:noequals::split_mode=2"}' 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: sk-opt %s -p 'sk-form-scopes{options="stream-fusion=0:split-mode=2"}' 2>&1 >/dev/null | filecheck %s --check-prefix=UNREAD
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{bogus=1}' 2>&1 | filecheck %s --check-prefix=PASSOPT
// RUN: %expect-exit 1 sk-opt %s -p 'sk-no-such-pass' 2>&1 | filecheck %s --check-prefix=PASS

aclgraph.model @m cores(aic = 24, aiv = 48) {
}

// Every error about the string says where it came from: the pass option.
// RANGE:   sk-opt: error: pass 'sk-form-scopes' option 'options': option 'split-mode': expected an integer in 1..64, got '70'
// UNKNOWN: sk-opt: error: pass 'sk-form-scopes' option 'options': unknown option 'bogus' (known: early-start, stream-fusion,
// DUP:     sk-opt: error: pass 'sk-form-scopes' option 'options': option 'split-mode' is given twice
// EMPTY:   sk-opt: error: pass 'sk-form-scopes' option 'options': option 'preload-code' has an empty value
// ALIGN:   sk-opt: error: pass 'sk-form-scopes' option 'options': option 'func-align': expected 0 or a power of two >= 2, got '48'
// WARN:    sk-opt: warning: pass 'sk-form-scopes' option 'options': option segment 'noequals' has no '=' and is ignored

// A key the pass does not read is named, with the passes that do; the pass still runs.
// UNREAD:     sk-opt: warning: pass 'sk-form-scopes' does not read option 'split-mode'; it is read by sk-outline (which records it on each sk.kernel), sk-to-ascendc, superkernel-pipeline
// UNREAD-NOT: stream-fusion
// PASSOPT: sk-opt: error:
// PASSOPT-SAME: bogus
// PASS:    sk-opt: error: unknown pass 'sk-no-such-pass'; see --help for the available passes
