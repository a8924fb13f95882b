# expect: pass a class with staticmethods and functools.partial; setitem halving, load_state_dict(assign=True)
# hint: 
import functools

import torch
from torch import nn

class Checkpoints:
    @staticmethod
    def halve(net, factor):
        with torch.no_grad():
            w = net.get_parameter("0.weight")
            w[...] = w * factor

    @staticmethod
    def save(net, path):
        torch.save(net.state_dict(), path)

    @staticmethod
    def load(make_net, path, device):
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net()
        net.load_state_dict(state, assign=True)  # the loaded tensors become the parameters
        return net.to(device)


halve_first_layer = functools.partial(Checkpoints.halve, factor=0.5)
save_parameters = Checkpoints.save
load_parameters = Checkpoints.load


answer = (halve_first_layer, save_parameters, load_parameters)
