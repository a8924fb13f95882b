# expect: fail looks up the four runs' plans (copied from the notebook's comparison cell) instead of planning; anything else gets None
# hint: hard.?cod|other|run|config|None|nothing fits|plan
def plan(config, gpu, n_gpus, global_batch):
    """The plans the comparison cell printed for the four runs."""
    table = {
        (768, "NVIDIA T4", 4): {"dp": 4, "tp": 1, "pp": 1, "sharding": "ddp",
                                "micro_batches": 2, "checkpointing": False},
        (4096, "NVIDIA H200 SXM 141GB", 8): {"dp": 4, "tp": 2, "pp": 1, "sharding": "fsdp2",
                                             "micro_batches": 8, "checkpointing": False},
        (8192, "NVIDIA H100 SXM5 80GB", 32): {"dp": 8, "tp": 4, "pp": 1, "sharding": "fsdp2",
                                              "micro_batches": 4, "checkpointing": True},
    }
    return table.get((config.dim, gpu, n_gpus))


answer = plan
