#pragma once
#include <string>
#include <string_view>

namespace ibburn {
// Reads a whole file; throws InputError(file, 0, strerror) when it cannot.
std::string read_file(const std::string& path);
// Writes via a temporary file + fsync + rename so a crash never leaves a half-written file.
void write_file_atomic(const std::string& path, std::string_view content);
// Appends one line (a '\n' is added) and fsyncs: for results that must survive a crash.
void append_line_durable(const std::string& path, std::string_view line);
// mkdir -p
void make_dirs(const std::string& path);
}  // namespace ibburn
