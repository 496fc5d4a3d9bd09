"""Placement (`placement=auto`, docs/design.md §3 "Placement", "Lanes"): which sub-tasks of a
queue SuperKernel run side by side (`placement`), independent chains on disjoint cores
(`lanes`), the core ranges whose cores run one program (`core_ranges`), and sk-check's part
that every block of every sub-task runs exactly once (`placement_check`)."""
