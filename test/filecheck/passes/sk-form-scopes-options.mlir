// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="split-mode=70"}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="bogus=1"}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="split-mode=2:split_mode=3"}' 2>&1 | filecheck %s --check-prefix=DUP
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="preload-code="}' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="func-align=48"}' 2>&1 | filecheck %s --check-prefix=ALIGN
// RUN: sk-opt %s -p 'sk-form-scopes{options="stream-fusion=1:noequals::split_mode=2"}' 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{bogus=1}' 2>&1 | filecheck %s --check-prefix=PASSOPT
// RUN: %expect-exit 1 sk-opt %s -p 'sk-no-such-pass' 2>&1 | filecheck %s --check-prefix=PASS

aclgraph.model @m cores(aic = 24, aiv = 48) {
}

// RANGE:   sk-opt: error: option 'split-mode': expected an integer in 1..64, got '70'
// UNKNOWN: sk-opt: error: unknown option 'bogus' (known: early-start, stream-fusion,
// DUP:     sk-opt: error: option 'split-mode' is given twice
// EMPTY:   sk-opt: error: option 'preload-code' has an empty value
// ALIGN:   sk-opt: error: option 'func-align': expected 0 or a power of two >= 2, got '48'
// WARN:    sk-opt: warning: option segment 'noequals' has no '=' and is ignored
// PASSOPT: sk-opt: error:
// PASSOPT-SAME: bogus
// PASS:    sk-opt: error: unknown pass 'sk-no-such-pass'; see --help for the available passes
