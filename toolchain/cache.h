// The cache folder of kernel-file builds: where it is, the content key that names an entry, and
// the one way into it, an atomic put (another process sees a whole file or none).
#pragma once
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ws::toolchain {

// Where compiled kernel files and the headers they need are kept: $WARPSCOPE_CACHE, else
// $XDG_CACHE_HOME/warpscope, else ~/.cache/warpscope.
std::string CacheDir();

// A stable hash of everything that decides an entry's content (compiler, flags, text), in hex:
// the same parts give the same key in every build and process.
std::string ContentKey(std::initializer_list<std::string_view> parts);

// CacheDir()/build/name, the folder created.
std::filesystem::path BuildPath(const std::string& name);

// A name beside `dest` that no other process or call uses, for a file on its way in.
std::filesystem::path TempFor(const std::filesystem::path& dest);

// Moves a finished file into the cache under its content-keyed name, atomically (a rename).
// Two processes putting the same key put the same content, so the later one wins harmlessly.
void Put(const std::filesystem::path& temp, const std::filesystem::path& dest);
// Writes `text` to TempFor(dest) and puts it.
void PutText(const std::filesystem::path& dest, const std::string& text);

// A file's whole text; throws BadRequest when it cannot be read.
std::string ReadText(const std::filesystem::path& path);

}  // namespace ws::toolchain
