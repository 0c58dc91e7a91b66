# Unity builds for irscope's larger targets: a few sources compiled as one
# translation unit, so nlohmann's, Qt's and libtorch's headers are parsed and
# their inline code generated once per batch. Parsing those headers was most of
# a cold build (each core or widgets source took 3-9 s, mostly headers).
#
# The batch files name their sources relative to the source tree
# (UNITY_BUILD_RELOCATABLE, CMake 4.0 on), so a fresh clone in another folder
# hits the compiler cache a previous build filled. A source edited rebuilds its
# batch, not one file: the batch size trades that against cold builds.
#
# What a unity build asks of the code: names in unnamed namespaces and
# `static` functions must not repeat within a target, a `using namespace` at
# file scope reaches the sources batched after it, and macros do too.
# -DIRSCOPE_UNITY_BUILD=OFF builds one translation unit per source (what a
# change to such a name is checked against).
option(IRSCOPE_UNITY_BUILD "Compile the larger targets as unity batches" ON)

function(irscope_unity_build target batch)
  if(NOT IRSCOPE_UNITY_BUILD OR batch LESS 1)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON
    UNITY_BUILD_BATCH_SIZE ${batch} UNITY_BUILD_RELOCATABLE ON)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # In a batch every source is an included file, and GCC warns that a type
    # from its unnamed namespace is used by a type "in a header" (a lambda
    # capturing one): true of no real header here.
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()
