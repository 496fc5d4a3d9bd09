"""The SuperKernel option parser shared by every entry point."""

from __future__ import annotations

import pytest

from skir.errors import SkirError
from skir.options import OPTION_KEYS, SkOptions, parse_options


def test_defaults_follow_the_aot_layer() -> None:
    opts, warnings = parse_options("")
    assert opts == SkOptions()
    assert (opts.stream_fusion, opts.early_start, opts.preload_code, opts.split_mode, opts.func_align) == (
        1, 0, "per-func", 4, 512
    )
    assert warnings == []


def test_vendor_syntax() -> None:
    opts, warnings = parse_options(
        " 'early_start=1: :split-mode = 2:preload-code=max:func-align=0:dcci-before-kernel-start=a, b:"
        "compile-options=-g,-O2:nonsense:strict-scope-check=\"abort\":sync-mode=data' "
    )
    assert opts.early_start == 1 and opts.split_mode == 2 and opts.preload_code == "max"
    assert opts.func_align == 0
    assert opts.dcci_before_kernel_start == ("a", "b")
    assert opts.compile_options == ("-g", "-O2")
    assert opts.strict_scope_check == "abort" and opts.sync_mode == "data"
    assert warnings == ["option segment 'nonsense' has no '=' and is ignored"]
    assert opts.to_string().split(":")[0] == "compile-options=-g,-O2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus=1", "unknown option 'bogus'"),
        ("split-mode=2:split_mode=3", "option 'split-mode' is given twice"),
        ("split-mode=", "option 'split-mode' has an empty value"),
        ("split-mode=0", "option 'split-mode': expected an integer in 1..64, got '0'"),
        ("split-mode=65", "expected an integer in 1..64"),
        ("split-mode=two", "expected an integer in 1..64"),
        ("func-align=3", "option 'func-align': expected 0 or a power of two >= 2, got '3'"),
        ("func-align=1", "expected 0 or a power of two"),
        ("stream-fusion=2", "option 'stream-fusion': expected 0 or 1, got '2'"),
        ("early-start=3", "option 'early-start': expected 0 (off), 1 or 2 (on)"),
        ("preload-code=pre-func", "option 'preload-code': expected one of per-func, max, none"),
        ("strict-scope-check=warn", "expected one of bypass, abort"),
        ("debug-aic-num=-1", "expected an integer >= 0"),
        ("dcci-after-kernel-end=,", "expected a comma-separated list of kernel names"),
        ("=1", "empty key"),
    ],
)
def test_errors_name_the_key(text: str, message: str) -> None:
    with pytest.raises(SkirError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        parse_options(text)


def test_scope_options_override() -> None:
    base, _ = parse_options("split-mode=2:stream-fusion=0")
    merged = base.override(parse_options("split-mode=1:early-start=1")[0])
    assert (merged.split_mode, merged.stream_fusion, merged.early_start) == (1, 0, 1)
    assert merged.given == {"split-mode", "stream-fusion", "early-start"}


def test_every_key_has_a_field() -> None:
    fields = {f.replace("_", "-") for f in SkOptions.__dataclass_fields__} - {"given"}
    assert fields == set(OPTION_KEYS)


def test_the_attribute_holds_typed_options_and_prints_the_vendor_syntax() -> None:
    """`sk.kernel`'s options are parsed once when the IR is read: passes read typed fields."""
    from xdsl.parser import Parser

    from skir.api import make_context
    from skir.dialects.superkernel import SuperKernelOp

    text = ('aclgraph.model @m cores(aic = 24, aiv = 48) {\n'
            '  sk.kernel @k mix_aiv_1_0 blocks 8 chain slots 3 options "split_mode=2 : early-start=1" {\n'
            '  }\n}\n')
    module = Parser(make_context(), text).parse_module()
    sk = next(op for op in module.walk() if isinstance(op, SuperKernelOp))
    assert sk.options is not None and isinstance(sk.options.data, SkOptions)
    assert (sk.options.data.split_mode, sk.options.data.early_start) == (2, 1)
    assert sk.options.text() == "early-start=1:split-mode=2"  # canonical: sorted keys, '-' keys
    assert sk.sk_options(parse_options("split-mode=4:profiling=1")[0]).split_mode == 2  # the scope's wins
    assert '#sk.options<"early-start=1:split-mode=2">' in str(sk.properties["options"])


def test_a_pass_takes_the_string_or_the_typed_options() -> None:
    """The vendor string is parsed once, on first use; typed options are not parsed at all, and the
    pass spec prints them back in the vendor syntax."""
    from skir.passes.place_sync import PlaceSyncPass

    by_text = PlaceSyncPass(options="early-start=1:sync-mode=data")
    typed = PlaceSyncPass(options=by_text.sk_options())
    assert typed.sk_options() is by_text.sk_options()
    assert str(typed) == str(by_text) == 'sk-place-sync{options="early-start=1:sync-mode=data"}'
    assert by_text.parsed_options() is by_text.parsed_options()  # cached, not parsed again
    with pytest.raises(SkirError, match="pass 'sk-place-sync' option 'options': unknown option 'bogus'"):
        PlaceSyncPass(options="bogus=1").sk_options()
