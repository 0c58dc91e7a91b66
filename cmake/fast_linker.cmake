# Links with gold when the toolchain has it. A build directory links ~75
# binaries against libtorch and Qt; the compiler cache makes a fresh clone's
# compiles near free, which leaves the links: GNU ld took 17 s of wall time
# for the 60 test executables of a Release build on 2 cores, gold 2.5 s, and
# every build directory (Release, ASan, TSan, fuzz, torch2) pays it again.
# gold ships with binutils beside ld (Debian 12's gcc and clang both take
# -fuse-ld=gold). -DIRSCOPE_FAST_LINKER=OFF keeps the toolchain's default.
option(IRSCOPE_FAST_LINKER "Link with gold when the toolchain has it" ON)

if(IRSCOPE_FAST_LINKER)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=gold" IRSCOPE_HAVE_GOLD)
  if(IRSCOPE_HAVE_GOLD)
    # Every target defined after this point (the directories below).
    add_link_options(-fuse-ld=gold)
  endif()
endif()
