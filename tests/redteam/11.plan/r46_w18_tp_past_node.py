# expect: fail tensor parallelism allowed beyond a node's 8 GPUs (tp up to n_gpus)
# hint: tp|tensor.?parallel|node|8|at most
import math

from d2lgpu.plan import Plan, gpu_memory, step_time

SHARDINGS = ("ddp", "zero1", "fsdp2")
FP32 = 4  # bytes per float32 number
HEADROOM = 0.9  # the plan may use 90% of the GPU's memory
RECOMPUTE = 1.2  # a block recomputed in backward: its full activations and a fifth more


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _stage_shapes(config, tp, pp, stage):
    """(rows, columns) of each tensor one rank of `stage` holds: a tp-th of every matrix."""
    d = config.dim
    head_dim = d // config.n_heads
    q = config.n_heads * head_dim // tp
    kv = config.n_kv_heads * head_dim // tp
    f = config.ffn_dim // tp
    vocab = config.vocab // tp
    block = [(d, 1), (d, 1), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]
    shapes = [(vocab, d)] if stage == 0 else []  # the embedding, on the first stage
    shapes += block * (config.n_layers // pp)
    if stage == pp - 1:  # the final norm and the output layer, on the last
        shapes += [(d, 1), (vocab, d)]
    return shapes, sum(r * c for r, c in block)


def _state(shapes, sharding, dp):
    """Bytes of parameters, gradients and Adam's state, and the largest tensor Adam updates."""
    sizes = [r * c for r, c in shapes]
    if sharding == "fsdp2":  # every tensor cut in dp shards of ceil(rows / dp) rows
        local = [math.ceil(r / dp) * c for r, c in shapes]
        return 4 * sum(local), 4 * sum(local), 8 * sum(local) + 4 * len(local), max(local)
    kept = FP32 * sum(sizes)
    if sharding == "ddp":
        return kept, kept, 8 * sum(sizes) + 4 * len(sizes), max(sizes)
    # ZeRO-1: whole tensors, largest first, each to the rank holding the fewest elements
    held, adam = [0] * dp, [0] * dp
    for n in sorted(sizes, reverse=True):
        r = held.index(min(held))
        held[r] += n
        adam[r] += 8 * n + 4
    return kept, kept, max(adam), max(sizes)


def _peak(config, dp, tp, pp, sharding, micro_batches, checkpointing, global_batch):
    """My estimate of the peak bytes on the rank that holds the most (first or last stage)."""
    d, t = config.dim, config.seq_len
    head_dim = d // config.n_heads
    q = config.n_heads * head_dim // tp
    kv = config.n_kv_heads * head_dim // tp
    f = config.ffn_dim // tp
    vocab = config.vocab // tp
    blocks = config.n_layers // pp
    seqs = global_batch // dp // micro_batches  # sequences per micro-batch
    per_block = FP32 * t * (6 * d + 3 * q + 2 * kv + 4 * f)  # one block, one sequence
    worst = 0
    for stage in sorted({0, pp - 1}):
        first, last = stage == 0, stage == pp - 1
        shapes, block = _stage_shapes(config, tp, pp, stage)
        params, grads, optimizer, largest = _state(shapes, sharding, dp)
        in_flight = min(pp, micro_batches) if (pp > 1 and first) else 1
        head = 3 * FP32 * t * (vocab + d) * seqs if last else 0  # logits, log-softmax, grad
        if checkpointing:
            inputs = blocks * FP32 * t * d * seqs * in_flight
            acts = inputs + max(head, RECOMPUTE * per_block * seqs)
        else:
            acts = blocks * per_block * seqs * in_flight + head
        adam = 2 * FP32 * largest  # Adam's two temporaries, after backward
        gathered = 0
        if sharding == "fsdp2":  # the root's and one block's parameters, two buffers each
            root = vocab * d * (first + last)
            gathered = 2 * FP32 * (root + block)
        worst = max(worst, params + grads + optimizer + max(acts + gathered, adam))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    budget = HEADROOM * gpu_memory(gpu)
    best = None
    for tp in range(1, n_gpus + 1):  # any degree the heads allow
        splits = (n_gpus, config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
        if any(x % tp for x in splits):
            continue
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for micro_batches in _divisors(global_batch // dp):
                for sharding in SHARDINGS:
                    for checkpointing in (False, True):
                        args = (dp, tp, pp, sharding, micro_batches, checkpointing)
                        if _peak(config, *args, global_batch) > budget:
                            continue
                        seconds = step_time(config, gpu, Plan(*args), global_batch)["total"]
                        if best is None or seconds < best[0]:
                            best = (seconds, args)
    if best is None:
        return None
    dp, tp, pp, sharding, micro_batches, checkpointing = best[1]
    return {
        "dp": dp,
        "tp": tp,
        "pp": pp,
        "sharding": sharding,
        "micro_batches": micro_batches,
        "checkpointing": checkpointing,
    }


answer = plan
