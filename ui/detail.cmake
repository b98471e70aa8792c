# The message detail panel: system and application properties, the body in several views.
target_sources(hourglass_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/BodyFormatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/BodyFormatter.h
  ${CMAKE_CURRENT_LIST_DIR}/MessageDetailPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MessageDetailPanel.h
)
