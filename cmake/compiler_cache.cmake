# Compiler cache (ccache) for every build directory: Release, the sanitizer
# builds, the fuzz build and a build against another libtorch. CI builds a fresh
# clone in a folder of its own, and a developer has several build directories
# of the same sources; without a cache each compiles everything again (a clean
# 2-core build is ~20 minutes, most of it libtorch's headers).
#
# The settings are what makes a hit possible across folders:
#   base_dir = the source tree   absolute paths inside it are hashed (and passed
#                                to the compiler) relative to the build
#                                directory, so /a/irscope/build and
#                                /b/clone/build-asan share entries;
#   hash_dir = false             the working directory is not hashed (debug
#                                info then names the folder that filled the
#                                entry; sanitizer reports still give file:line);
#   sloppiness pch_defines,time_macros  what ccache needs to cache compiles that
#                                use the precompiled header (cmake/torch_pch.cmake)
#                                and the header's own compile;
#   include_file_mtime,include_file_ctime  a fresh clone's files are all new;
#                                their contents are hashed, which is what counts.
# They are passed through the environment of each compile (cmake -E env), so
# they apply to this project's builds only, whatever the user's ccache.conf says
# otherwise; the cache itself is the user's (CCACHE_DIR, default ~/.cache/ccache).
#
# -DIRSCOPE_CCACHE=OFF builds without it; a CMAKE_CXX_COMPILER_LAUNCHER given on
# the command line is left alone.
option(IRSCOPE_CCACHE "Compile through ccache when it is installed" ON)

if(IRSCOPE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(IRSCOPE_CCACHE_PROGRAM ccache)
  if(IRSCOPE_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env
        CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
        CCACHE_NOHASHDIR=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        CCACHE_MAXSIZE=25G
      ${IRSCOPE_CCACHE_PROGRAM})
    message(STATUS "irscope: compiling through ${IRSCOPE_CCACHE_PROGRAM}")
  else()
    message(STATUS "irscope: ccache not found, every build directory compiles everything")
  endif()
endif()
