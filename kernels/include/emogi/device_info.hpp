// Choosing the GPU and describing it. Without a usable GPU these fail with one clear sentence.
#pragma once
#include <string>

namespace emogi {

void select_device(int device);
std::string device_json(int device);  // name, compute capability, memory, CUDA driver/runtime versions, PCI id

}  // namespace emogi
