// RUN: sk-opt %s -p sk-form-scopes | filecheck %s --check-prefix=SPLIT
// RUN: sk-opt %s -p 'sk-form-scopes{options="strict-scope-check=bypass"}' | filecheck %s --check-prefix=BYPASS
// RUN: %expect-exit 1 sk-opt %s -p 'sk-form-scopes{options="strict-scope-check=abort"}' 2>&1 | filecheck %s --check-prefix=ABORT
// RUN: sk-opt %s -p 'superkernel-pipeline,sk-check' > /dev/null

// strict-scope-check: scope "s" is broken (the memcpy cuts it). By default it is split;
// with bypass nothing of it is fused (in_unfusible_scope, detail bypass); with abort the
// compilation fails naming the scope and the trigger. Scope "t" is whole and fuses.
aclgraph.model @strict cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.stream @s0 {
    aclgraph.scope_begin seq 0 "s"
    aclgraph.launch seq 1 @v blocks 8
    aclgraph.launch seq 2 @v blocks 8
    aclgraph.opaque seq 3 memcpy
    aclgraph.launch seq 4 @v blocks 8
    aclgraph.launch seq 5 @v blocks 8
    aclgraph.scope_end seq 6 "s"
    aclgraph.scope_begin seq 7 "t"
    aclgraph.launch seq 8 @v blocks 8
    aclgraph.launch seq 9 @v blocks 8
    aclgraph.scope_end seq 10 "t"
  }
}

// SPLIT-LABEL: aclgraph.model @strict
// SPLIT:      aclgraph.stream @s0 {
// SPLIT-NEXT: aclgraph.scope_begin seq 0 "s"
// SPLIT-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.label = ["s"], sk.group = 0 : i64}
// SPLIT-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.label = ["s"], sk.group = 0 : i64}
// SPLIT-NEXT: aclgraph.opaque seq 3 memcpy
// SPLIT-NEXT: aclgraph.launch seq 4 @v blocks 8 attributes {sk.label = ["s"], sk.group = 1 : i64, sk.cut = "default_node"}
// SPLIT-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.label = ["s"], sk.group = 1 : i64}
// SPLIT-NEXT: aclgraph.scope_end seq 6 "s"
// SPLIT-NEXT: aclgraph.scope_begin seq 7 "t"
// SPLIT-NEXT: aclgraph.launch seq 8 @v blocks 8 attributes {sk.label = ["t"], sk.group = 2 : i64}
// SPLIT-NEXT: aclgraph.launch seq 9 @v blocks 8 attributes {sk.label = ["t"], sk.group = 2 : i64}
// SPLIT-NEXT: aclgraph.scope_end seq 10 "t"

// BYPASS-LABEL: aclgraph.model @strict
// BYPASS:      aclgraph.stream @s0 {
// BYPASS-NEXT: aclgraph.scope_begin seq 0 "s"
// BYPASS-NEXT: aclgraph.launch seq 1 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "in_unfusible_scope", sk.fail_detail = "bypass"}
// BYPASS-NEXT: aclgraph.launch seq 2 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "in_unfusible_scope", sk.fail_detail = "bypass"}
// BYPASS-NEXT: aclgraph.opaque seq 3 memcpy
// BYPASS-NEXT: aclgraph.launch seq 4 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "in_unfusible_scope", sk.fail_detail = "bypass", sk.cut = "default_node"}
// BYPASS-NEXT: aclgraph.launch seq 5 @v blocks 8 attributes {sk.label = ["s"], sk.fail = "in_unfusible_scope", sk.fail_detail = "bypass"}
// BYPASS-NEXT: aclgraph.scope_end seq 6 "s"
// BYPASS-NEXT: aclgraph.scope_begin seq 7 "t"
// BYPASS-NEXT: aclgraph.launch seq 8 @v blocks 8 attributes {sk.label = ["t"], sk.group = 0 : i64}
// BYPASS-NEXT: aclgraph.launch seq 9 @v blocks 8 attributes {sk.label = ["t"], sk.group = 0 : i64}
// BYPASS-NEXT: aclgraph.scope_end seq 10 "t"
// ABORT: sk-opt: error: scope "s" is broken at @strict/@s0/seq 4 (default_node); strict-scope-check=abort
