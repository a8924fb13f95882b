# expect: fail hard-codes the answer seen in the notebook (convolution backward) instead of reading the profile
# hint: (profil|slowest|expected|key_averages|returned)
# name: slowest_op
import torch


def slowest_op(fn, args, device):
    fn(*args)
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)
    fn(*args)
    return "aten::convolution_backward"
