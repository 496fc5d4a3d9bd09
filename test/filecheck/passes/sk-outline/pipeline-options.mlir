// RUN: sk-opt %s -p 'sk-form-scopes{options="debug-aic-num=24:debug-aiv-num=48"},sk-outline{options="debug-aic-num=24:debug-aiv-num=48"}' | filecheck %s --check-prefix=MIX12
// RUN: sk-opt %s -p 'superkernel-pipeline{options="debug-aic-num=20:debug-aiv-num=20"}' | filecheck %s --check-prefix=MIX11
// RUN: sk-opt %s -p 'superkernel-pipeline{options="debug-aiv-num=40"}' | filecheck %s --check-prefix=AIV
// RUN: %expect-exit 1 sk-opt %s -p 'superkernel-pipeline{options="debug-aic-num=8:debug-aiv-num=24"}' 2>&1 | filecheck %s --check-prefix=RATIO
// RUN: %expect-exit 1 sk-opt %s -p 'superkernel-pipeline{options="debug-aiv-num=4"}' 2>&1 | filecheck %s --check-prefix=FEW
// RUN: %expect-exit 1 sk-opt %s -p 'superkernel-pipeline{options="debug-aiv-num=64"}' 2>&1 | filecheck %s --check-prefix=MANY
// RUN: %expect-exit 1 sk-opt %s -p 'superkernel-pipeline{options="debug-aic-num=4"}' 2>&1 | filecheck %s --check-prefix=NOAIV
// RUN: sk-opt %s -p 'superkernel-pipeline{options="debug-aic-num=20:debug-aiv-num=20"},sk-check' > /dev/null

// debug-aic-num / debug-aiv-num override the SuperKernel's type and blocks: aic only ->
// mix_aic_1_0, aiv only -> mix_aiv_1_0, equal -> mix_aic_1_1, aiv = 2 x aic -> mix_aic_1_2.
// Any other ratio, more than the device's cores, or fewer than a member needs is an error.
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params(in)
  aclgraph.buffer @x
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 16 args(@x)
    aclgraph.launch seq 1 @v blocks 8 args(@x)
  }
}

// MIX12: sk.kernel @m_sk0 mix_aic_1_2 blocks 24 chain slots 3 options "debug-aic-num=24:debug-aiv-num=48" {
// MIX11: sk.kernel @m_sk0 mix_aic_1_1 blocks 20 chain slots 3 options "debug-aic-num=20:debug-aiv-num=20" {
// MIX11: ascendc.source @m_sk0 mix_aic_1_1 {
// AIV:   sk.kernel @m_sk0 mix_aiv_1_0 blocks 40 chain slots 3 options "debug-aiv-num=40" {
// RATIO: sk-opt: error: options 'debug-aic-num' (8) and 'debug-aiv-num' (24): the ratio must be 1:1 or 1:2
// FEW:   sk-opt: error: option 'debug-aiv-num': 4 is fewer than the 16 vector cores a member needs
// MANY:  sk-opt: error: option 'debug-aiv-num': 64 is more than the device's 48 vector cores
// debug-aic-num alone asks for a SuperKernel with no vector cores: the message names the option
// that was given and the one to add, not a 'debug-aiv-num' the user never wrote.
// NOAIV: sk-opt: error: option 'debug-aic-num' alone makes a SuperKernel without vector cores, but a member needs 16; give 'debug-aiv-num' too
