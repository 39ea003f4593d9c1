// Choosing the GPU and describing it. Without a usable GPU these fail with one clear sentence.
#pragma once
#include <cstdint>
#include <string>

namespace emogi {

void select_device(int device);
std::string device_json(int device);  // name, compute capability, memory, CUDA driver/runtime versions, PCI id
// `ns` as SM clock cycles at the device's rated clock (added-latency emulation; 0 stays 0). What a wait of these
// cycles really adds is measured (the pointer chase), so the rated clock need not be the running one.
uint32_t ns_to_cycles(uint64_t ns, int device);

}  // namespace emogi
