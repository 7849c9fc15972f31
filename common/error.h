#pragma once
#include <stdexcept>
#include <string>

#include "common/exit_codes.h"

namespace ibburn {

// An error the user can act on; carries the exit code the CLI returns for it.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Malformed input: message is "FILE:LINE: reason" so editors can jump to it.
class InputError : public Error {
 public:
  InputError(const std::string& file, int line, const std::string& reason)
      : Error(kExitInput, line > 0 ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason),
        file_(file),
        line_(line),
        reason_(reason) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  int line_;
  std::string reason_;
};

// The environment cannot do what was asked (no fabric, no HCA, MPI failure...).
class EnvironmentError : public Error {
 public:
  explicit EnvironmentError(const std::string& what) : Error(kExitEnvironment, what) {}
};

}  // namespace ibburn
