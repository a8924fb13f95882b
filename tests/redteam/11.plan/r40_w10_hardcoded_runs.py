# expect: fail hard-codes plans for the four named runs and returns plain DDP over every GPU for any other run
# hint: (unnamed|other run|any run|hard.?cod|does not fit|exceed|slow|memory|None|needs [0-9.]+ GB, over)
# name: plan
_KNOWN = {
    ("125M", "NVIDIA T4", 4): {"dp": 4, "micro_batches": 2},
    ("8B", "NVIDIA H200 SXM 141GB", 8): {"dp": 4, "tp": 2, "sharding": "fsdp2", "micro_batches": 8},
    ("70B", "NVIDIA H100 SXM5 80GB", 32): {"dp": 8, "tp": 4, "sharding": "fsdp2",
                                          "micro_batches": 4, "checkpointing": True},
    ("8B", "NVIDIA T4", 8): None,
}
_NAMES = {(768, 12): "125M", (2048, 16): "1B", (4096, 32): "8B", (8192, 80): "70B"}


def plan(config, gpu, n_gpus, global_batch):
    """Plans worked out for the runs the exercise names."""
    name = _NAMES.get((config.dim, config.n_layers))
    if name == "8B" and config.vocab == 32000:
        name = "7B"
    key = (name, gpu, n_gpus)
    if key in _KNOWN:
        return _KNOWN[key]
    return {"dp": n_gpus}
