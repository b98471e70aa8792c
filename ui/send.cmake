# The send dialog: compose a message, send it (once or many times), see how the engine settled
# it, and keep message templates.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/MessageTemplates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageTemplates.h
  ${CMAKE_CURRENT_LIST_DIR}/SendDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SendDialog.h
  ${CMAKE_CURRENT_LIST_DIR}/SendForm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SendForm.h
  ${CMAKE_CURRENT_LIST_DIR}/SettlementView.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SettlementView.h
)
