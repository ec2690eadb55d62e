// The tests' precompiled headers are made by a target of their own (tests/CMakeLists.txt), which
// needs one source to compile; nothing links it.
