# expect: pass
# hint:
# Right: three callable class instances; torch.mul(..., out=w) under no_grad is an in-place
# multiply of the same Parameter; torch.save to an open file object; map_location as a
# function that keeps every storage on the CPU, then .to(device); strict load (the default).
import torch


class HalveFirstLayer:
    factor = 0.5

    def __call__(self, net):
        w = net[0].weight
        with torch.no_grad():
            torch.mul(w, self.factor, out=w)  # writes into w's own memory


class SaveParameters:
    def __call__(self, net, path):
        with open(path, "wb") as f:
            torch.save(net.state_dict(), f)


class LoadParameters:
    def __call__(self, make_net, path, device):
        # a map_location function: every storage stays where it was deserialized, the CPU
        state = torch.load(path, map_location=lambda storage, location: storage, weights_only=True)
        net = make_net()
        net.load_state_dict(state)  # strict: a missing key raises
        return net.to(device)


halve_first_layer = HalveFirstLayer()
save_parameters = SaveParameters()
load_parameters = LoadParameters()
answer = (halve_first_layer, save_parameters, load_parameters)
