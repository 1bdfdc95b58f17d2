// Memory geometry: the sizes of sectors, lines and shared-memory banks, the one home of these
// numbers that the rules, the caches, the captions and the views read.
#pragma once
#include <cstdint>

namespace ws::sim {

// Global memory (CUDA C++ Programming Guide, "Device Memory Accesses"; ncu's l1tex__t_sectors_*
// and the L1/L2 line size): a request is served in 32-byte sectors, four to a 128-byte line.
inline constexpr uint32_t kSectorBytes = 32;
inline constexpr uint32_t kLineBytes = 128;
inline constexpr uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;

// Shared memory (Programming Guide, "Shared Memory" in the compute capability 5.x+ sections):
// 32 banks of 4-byte words; successive words lie in successive banks.
inline constexpr uint32_t kBanks = 32;
inline constexpr uint32_t kBankWordBytes = 4;

// The sector, line and bank word a byte address falls in (byte address / size).
inline constexpr uint64_t SectorIndex(uint64_t addr) { return addr / kSectorBytes; }
inline constexpr uint64_t LineIndex(uint64_t addr) { return addr / kLineBytes; }
inline constexpr uint64_t WordIndex(uint64_t addr) { return addr / kBankWordBytes; }
// The bank of a shared-memory word, and of the word a byte address falls in.
inline constexpr uint32_t BankOfWord(uint64_t word) { return uint32_t(word % kBanks); }
inline constexpr uint32_t BankOf(uint64_t addr) { return BankOfWord(WordIndex(addr)); }
// The sectors `bytes` fill, rounded up.
inline constexpr uint64_t SectorsFor(uint64_t bytes) { return (bytes + kSectorBytes - 1) / kSectorBytes; }

}  // namespace ws::sim
