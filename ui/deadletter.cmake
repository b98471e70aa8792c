# The dead-letter panel: reasons per count, resubmit, delete, purge, and message export as JSON.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterPanel.h
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterPanelActions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterPanelLayout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterReasonsModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DeadLetterReasonsModel.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageExport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageExport.h
)
