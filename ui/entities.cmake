# Entity management: property form and duration field, entity, namespace and rule dialogs, and
# the actions that open them (with config.json import and export).
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/DurationEdit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DurationEdit.h
  ${CMAKE_CURRENT_LIST_DIR}/EntityActions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityActions.h
  ${CMAKE_CURRENT_LIST_DIR}/EntityDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityDialog.h
  ${CMAKE_CURRENT_LIST_DIR}/EntityPropertyForm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EntityPropertyForm.h
  ${CMAKE_CURRENT_LIST_DIR}/InlineError.cpp
  ${CMAKE_CURRENT_LIST_DIR}/InlineError.h
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NamespaceDialog.h
  ${CMAKE_CURRENT_LIST_DIR}/RuleDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RuleDialog.h
  ${CMAKE_CURRENT_LIST_DIR}/RuleEditor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RuleEditor.h
)
