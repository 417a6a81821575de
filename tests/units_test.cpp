// Byte sizes as people write them (core/units.h): decimal and binary
// units, plain numbers, and the texts that must be refused.
#include <gtest/gtest.h>

#include "hetcoll/core/units.h"

namespace hetcoll {
namespace {

TEST(ByteSize, PlainNumbersAndUnits) {
  EXPECT_EQ(parse_byte_size("1e6"), 1e6);
  EXPECT_EQ(parse_byte_size("1000"), 1000.0);
  EXPECT_EQ(parse_byte_size("1.5"), 1.5);
  EXPECT_EQ(parse_byte_size("1MB"), 1e6);
  EXPECT_EQ(parse_byte_size("1 MB"), 1e6);
  EXPECT_EQ(parse_byte_size("2kB"), 2000.0);
  EXPECT_EQ(parse_byte_size("2KB"), 2000.0);
  EXPECT_EQ(parse_byte_size("3GB"), 3e9);
  EXPECT_EQ(parse_byte_size("4KiB"), 4096.0);
  EXPECT_EQ(parse_byte_size("1MiB"), 1048576.0);
  EXPECT_EQ(parse_byte_size("1GiB"), 1073741824.0);
  EXPECT_EQ(parse_byte_size("512B"), 512.0);
}

TEST(ByteSize, RefusedTexts) {
  for (const char* text : {"", "MB", "1Mb", "1 mb", "1MBps", "abc", "1e6x", "-5", "nan", "inf", "1e400"}) {
    EXPECT_FALSE(parse_byte_size(text).has_value()) << text;
  }
}

TEST(ByteSize, Text) {
  EXPECT_EQ(byte_size_text(1e6), "1 MB");
  EXPECT_EQ(byte_size_text(4096), "4 KiB");
  EXPECT_EQ(byte_size_text(1500), "1.5 kB");
  EXPECT_EQ(byte_size_text(100), "100 B");
  EXPECT_EQ(byte_size_text(1048576), "1 MiB");
}

TEST(TimeText, UnitOrTimeUnits) {
  EXPECT_EQ(time_text(0.487787, "s"), "0.487787 s");
  EXPECT_EQ(time_text(9, ""), "9 time units");
  EXPECT_EQ(time_text(1, ""), "1 time unit");
  EXPECT_EQ(time_text(1.0 / 3, "ms"), "0.333333 ms");
}

}  // namespace
}  // namespace hetcoll
