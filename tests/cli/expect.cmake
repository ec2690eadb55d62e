# Runs PROGRAM with ARGS (a ;-list), then checks the exit code and that stdout+stderr match
# EXPECT_REGEX. Used by tests/cli/CMakeLists.txt.
execute_process(COMMAND "${PROGRAM}" ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
set(all "${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\n--- output ---\n${all}")
endif()
if(EXPECT_REGEX AND NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'\n--- output ---\n${all}")
endif()
message(STATUS "ok: exit ${rc}\n${all}")
