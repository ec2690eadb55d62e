# The backend's layers, enforced: run by the build (see backend/CMakeLists.txt) and by a ctest.
#
#   core ← security ← applog ← ssh ← docker, probe ← recipe ← deploy, logs, chat, metrics
#        ← prometheus ← fleet ← expose ← demo ← cli;   ui and app on top, outside backend/.
#
# 1. backend/ includes no GUI module (Qt Core and Network only). Plain <QWidget> already fails to
#    compile there; this catches the qualified <QtWidgets/QWidget> form, which the shared Qt
#    include root would otherwise let through.
# 2. A directory of backend/ includes only the directories its row below allows: an include that
#    points up (the monitor reaching into the deploy runner, core into ssh) fails the build with
#    the file and the line. Change a row only with docs/architecture.md.
# 3. ui/ reads JSON only through backend types (no nlohmann in ui/): a format is parsed in one place.
# 4. ui/ reaches a host through its HostSession only: no SSH transport header (the connection,
#    the transport, its replies, the worker). The plain types (sshtypes.h, sshconfig.h,
#    runtimeinfo.h) are allowed.
# 5. No two sources of one layer (or of ui/) define a file-local function or constant of the same name: with
#    FLASHDECK_UNITY a layer's sources are compiled a batch at a time, where two such helpers would
#    silently overload each other or clash. A helper both need goes in a header of the layer.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "check-layers: pass -DROOT=<backend dir>")
endif()

set(allowed_core "")
set(allowed_security "core")
set(allowed_applog "core;security")
set(allowed_ssh "core;security;applog")
set(allowed_docker "core;security;applog;ssh")
set(allowed_probe "core;security;applog;ssh")
# A recipe is data: it reads no host (no ssh), it names images (docker) and GPU vendors (probe).
set(allowed_recipe "core;security;applog;docker;probe")
# The deploy checks and the monitor read the server's log through the log rules (logs/): the
# sibling edges, so that what a log line means is known in one place.
set(allowed_deploy "core;security;applog;ssh;docker;probe;recipe;logs")
set(allowed_logs "core;security;applog;ssh;docker;probe;recipe")
set(allowed_chat "core;security;applog;ssh;docker;probe;recipe")
set(allowed_metrics "core;security;applog;ssh;docker;probe;recipe;logs")
set(allowed_prometheus "core;security;applog;ssh;docker;probe;recipe;deploy;logs;chat;metrics")
set(allowed_fleet "core;security;applog;ssh;docker;probe;recipe;deploy;logs;chat;metrics;prometheus")
# The gateway (expose/) writes the Playground's media policy into its script (chat/).
set(allowed_expose "core;security;applog;ssh;docker;probe;recipe;deploy;logs;chat;metrics;prometheus;fleet")
set(allowed_demo "core;security;applog;ssh;docker;probe;recipe;deploy;logs;chat;metrics;prometheus;fleet")
set(allowed_cli "core;security;applog;ssh;docker;probe;recipe;deploy;logs;chat;metrics;prometheus;fleet;expose;demo")

file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/*.h" "${ROOT}/*.cpp" "${ROOT}/*.h.in")
set(bad "")
foreach(rel IN LISTS sources)
  set(f "${ROOT}/${rel}")
  file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](QtGui|QtWidgets|QtCharts|QtSvg|QtQuick|QtQml)[/>\"]")
  if(hits)
    list(APPEND bad "${f}: a GUI module in backend/ (Qt Core and Network only): ${hits}")
  endif()
  string(REGEX MATCH "^[^/]+" layer "${rel}")
  if(layer STREQUAL rel)
    continue() # backend/CMakeLists.txt and the like
  endif()
  if(NOT DEFINED allowed_${layer})
    list(APPEND bad "${f}: backend/${layer} has no row in scripts/check-layers.cmake")
    continue()
  endif()
  # libssh is backend/ssh's alone: every other layer sees a host through its plain types and Transport.
  if(NOT layer STREQUAL "ssh")
    file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*<libssh/")
    if(hits)
      list(APPEND bad "${f}: only backend/ssh includes libssh: ${hits}")
    endif()
  endif()
  file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"backend/[a-z]+/")
  foreach(line IN LISTS includes)
    string(REGEX MATCH "backend/([a-z]+)/" _ "${line}")
    set(target "${CMAKE_MATCH_1}")
    if(NOT target STREQUAL layer AND NOT target IN_LIST allowed_${layer})
      list(APPEND bad "${f}: ${layer} may not include ${target} (${line})")
    endif()
  endforeach()
endforeach()
if(UI_ROOT)
  file(GLOB_RECURSE ui_sources "${UI_ROOT}/*.h" "${UI_ROOT}/*.cpp")
  foreach(f IN LISTS ui_sources)
    file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*<nlohmann/")
    if(hits)
      list(APPEND bad "${f}: ui/ parses no JSON itself (use the backend's types): ${hits}")
    endif()
    # From backend/ssh the window sees plain types only: an allow-list, so a new ssh header is
    # refused until it is one.
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"backend/ssh/")
    foreach(line IN LISTS includes)
      if(NOT line MATCHES "backend/ssh/(sshtypes|sshconfig|runtimeinfo)\\.h\"")
        list(APPEND bad "${f}: ui/ reaches a host through its HostSession, not the SSH transport: ${line}")
      endif()
    endforeach()
    file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*<libssh/")
    if(hits)
      list(APPEND bad "${f}: only backend/ssh includes libssh: ${hits}")
    endif()
  endforeach()
endif()
# 5. Free functions defined at the start of a line (clang-format leaves namespace bodies unindented):
# a name met in two files of one directory group is refused. Public functions are defined once
# anyway; to_json/from_json are found by their argument's type.
function(check_local_names files)
  set(clashes "")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^(\\[\\[[a-z_]+\\]\\] )?[A-Za-z_][^;=(]*[ *&][A-Za-z_][A-Za-z0-9_]*\\(")
    set(names "")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^\\[\\[[a-z_]+\\]\\] " "" line "${line}")
      if(line MATCHES "^(return|using|namespace|typedef|Q_[A-Z_]+|case|else|if|for|while) ")
        continue()
      endif()
      string(REGEX MATCH "[ *&]([A-Za-z_][A-Za-z0-9_]*)\\(" _ "${line}")
      set(name "${CMAKE_MATCH_1}")
      string(REGEX MATCH "^[^(]*" head "${line}")
      if(head MATCHES "::${name}$" OR name MATCHES "^(to_json|from_json|main|qHash|operator)$")
        continue() # a member, or found by its argument's type
      endif()
      list(APPEND names "${name}")
    endforeach()
    # And file-local constants: `const QString kUsage = …` in two commands clashed.
    file(STRINGS "${f}" lines
         REGEX "^(\\[\\[[a-z_]+\\]\\] )?(static |inline )?(constexpr |const )[^(;=]*[ *&][A-Za-z_][A-Za-z0-9_]* *(=|{|\\[)")
    foreach(line IN LISTS lines)
      string(REGEX MATCH "[ *&]([A-Za-z_][A-Za-z0-9_]*) *(=|{|\\[)" _ "${line}")
      list(APPEND names "${CMAKE_MATCH_1}")
    endforeach()
    list(REMOVE_DUPLICATES names) # overloads inside one file are the file's own business
    foreach(name IN LISTS names)
      if(DEFINED where_${name})
        list(APPEND clashes "${f}: ${name} is also defined in ${where_${name}}, and the two can share a FLASHDECK_UNITY batch: rename one, or share it through a header")
      else()
        set(where_${name} "${f}")
      endif()
    endforeach()
  endforeach()
  set(bad ${bad} ${clashes} PARENT_SCOPE)
endfunction()
file(GLOB layers LIST_DIRECTORIES true RELATIVE "${ROOT}" "${ROOT}/*")
foreach(layer IN LISTS layers)
  if(IS_DIRECTORY "${ROOT}/${layer}")
    file(GLOB_RECURSE files "${ROOT}/${layer}/*.cpp")
    check_local_names("${files}")
  endif()
endforeach()
if(UI_ROOT)
  file(GLOB_RECURSE files "${UI_ROOT}/*.cpp")
  check_local_names("${files}")
endif()

if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "Layer check failed:\n  ${text}")
endif()
