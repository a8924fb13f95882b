# expect: fail hard-codes the answer aten::mm instead of profiling
# hint: profil|hard|fixed|always
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    fn(*args)
    return "aten::mm"


answer = slowest_op
